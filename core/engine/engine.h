// The one API the command line and the studio call: load a project, check
// it, compile it, run it (streaming its result rows to a consumer: a store in
// memory, a file on disk, the studio's window; stoppable from another
// thread) and analyse it. Everything below it (compiler, solver, mechanics,
// file format) is reached through here, so that those layers can be
// rearranged without touching app/ or gui/.
//
// Errors: bad input throws ProjectError naming the file, object and field
// (exit code 2 in the CLI); a run that fails returns a RunResult saying so.
#pragma once

#include "analyses/circuit_checks.h"
#include "build/project_input.h"
#include "analyses/geometry_checks.h"
#include "analyses/mechanism_analysis.h"
#include "io/catalogue_file.h"
#include "mechanics/contact/shape_sizes.h"
#include "analyses/modal_analysis.h"
#include "analyses/mode_animation.h"
#include "model/component_type.h"
#include "model/mechanism_types.h"
#include "model/project.h"
#include "model/project_error.h"
#include "model/triangle_mesh.h"
#include "results/displacement_step.h"
#include "results/bill_of_materials.h"
#include "results/conclusion.h"
#include "results/key_results.h"
#include "results/report_settings.h"
#include "results/decimated_rows.h"
#include "solver/raw_result_file.h"
#include "solver/result_file.h"
#include "solver/result_store.h"
#include "solver/row_consumer.h"
#include "solver/run_control.h"
#include "solver/run_result.h"
#include "studies/study_input.h"
#include "studies/sizing.h"
#include "studies/study_optimiser.h"
#include "studies/study_runner.h"
#include "studies/study_table.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pm::engine {

// Switches that pneumech-bench and tests turn off to compare with; the CLI
// and the studio always run with the defaults.
struct Tuning {
  bool lumpFixedJoints = true;  // parts welded by fixed joints alone become one rigid body
  bool forceDense = false;      // every multibody decomposition dense
};

// ---- load and save -------------------------------------------------------

Project load(const std::string& path);
// What a command line may change of a loaded project before it runs.
struct Overrides {
  std::vector<std::string> sets;  // "ID.PARAM=VALUE" in SI (--set)
  std::optional<double> tEnd;     // simulation.t_end (--t-end)
  double wallTimeLimit = 0.0;     // > 0: simulation.wall_time_limit (--time-limit)
};
// load() then the overrides, each error naming `path` and the option.
Project load(const std::string& path, const Overrides& overrides);
Project parse(const std::string& text, const std::string& name);  // e.g. a clipboard fragment
std::string serialize(const Project& project);                    // the file's text
void save(const Project& project, const std::string& path);       // atomic (write + rename)
// Registers the user components of a library folder (--user-lib; every
// *.json there, docs/user-components.md) beside the built-in types; returns
// their names. Throws ProjectError naming the bad file, line and expression.
std::vector<std::string> loadUserLibrary(const std::string& dir);
// A reader of the meshes (STL, OBJ) a project names, confined to its folder,
// for applyMassProperties (model/mass_properties.h).
std::function<TriangleMesh(const std::string&)> meshReader(const std::string& projectFile);
// The mesh file `ref` inside the project's folder `folder` (the 3D view's
// drawing): confined as every file a project names; throws
// std::runtime_error naming `ref` for a file outside, missing or malformed.
TriangleMesh readMesh(const std::string& folder, const std::string& ref);

// Files a project names (a scripted controller's data.file), confined to
// the project's folder (io/confined_file.h: no way out by "..", an
// absolute path or a link).
std::string referencedFilePath(const std::string& folder, const std::string& ref);
std::string readReferencedFile(const std::string& folder, const std::string& ref);
// Writes `text` to `path` atomically (write + rename); refuses a link or a
// non-regular file.
void writeTextFile(const std::string& path, const std::string& text);
// Throws WriteRefused where writeTextFile or a result file's write would
// refuse `path` ("-" is standard output, always fine): checked before a run.
void checkOutputFile(const std::string& path);
// Throws ProjectError naming `name` when JSON `text` nests deeper than a
// project file may.
void checkJsonText(const std::string& text, const std::string& name);

// ---- check ---------------------------------------------------------------

// Compiles the project as a run would; throws ProjectError on the first
// problem. Returns the notes a run would print first: parts the mechanism's
// assembly moved, velocities it changed, redundant joints.
std::vector<std::string> check(const Project& project, const std::string& file = {});
// The mechanism's geometry without running (analyses/geometry_checks.h):
// attached cylinders' stroke, dead points, joints a cylinder cannot move,
// default inertia against drawn geometry (mesh files read relative to the
// project file `file`; without it meshes are not weighed).
std::vector<GeometryFinding> checkGeometry(const Project& project, const std::string& file = {});
// The circuit's wiring without running (analyses/circuit_checks.h): open
// ports, no supply, valve sides nothing actuates, cylinders no valve
// controls, sensors nothing reads.
std::vector<CircuitFinding> checkCircuit(const Project& project);
// The dead points a finished run drove the mechanism over.
std::vector<GeometryFinding> deadPointWarnings(const Project& project, const ResultStore& results);
// The channels deadPointWarnings reads: a store that keeps only some
// (ResultStore::keepOnly) keeps these too for the warning to be given.
std::vector<std::string> deadPointChannels(const Project& project);
// The "simulation" settings alone (times, tolerances, coupling), for editors.
void checkSimulationSettings(const SimulationSettings& settings, const std::string& file = {});
// Builds one component the way a run does (its fields checked, a script's
// program loaded) and discards it; throws what the run would throw. False
// when this build cannot build the type (unknown, or no builder linked).
bool checkComponent(const Component& component);

// ---- contacts and latches (issue 27) -------------------------------------

// A contact pair's parameters (stiffness, exponent, damping, depth, friction,
// ...), declared with units, defaults and ranges in core/mechanics/contact.
const MechTypeDecl& contactParameters();
// The contact shapes and the sizes each takes, declared once in
// core/mechanics/contact/shape_sizes.h: per size its name ("radius", "lx",
// ...; none for a plane), what it measures, its SI unit (m) and how a new
// shape's value is made from the body it sits on (a part's drawing, a
// flexible body's section). The loader checks files against the same table.
using ContactShapeDecl = contact::ShapeDecl;
using ContactSizeDecl = contact::SizeDecl;
using ContactSizeBasis = contact::SizeBasis;
const std::vector<ContactShapeDecl>& contactShapeDecls();
const ContactShapeDecl* contactShapeDecl(const std::string& shape);  // null: unknown
// The shapes a part offers by name ("sphere", "box", ...): all but the mesh,
// which comes from a file.
std::vector<std::string> contactShapes();
// A new `shape`'s sizes [m] on a body of basis `b`, each size `keep` holds
// by name kept (contact::defaultSizes).
std::map<std::string, double> contactDefaultSizes(const std::string& shape, const ContactSizeBasis& b,
                                                  const std::map<std::string, double>& keep = {});
// Whether the core computes contact between these two shapes.
bool contactPairSupported(const std::string& shapeA, const std::string& shapeB);
// Checks one contact pair (new or edited) against the parts and markers of
// `m` as a run would: its markers, shapes, sizes, the pair and its
// parameters. Throws the run's ProjectError, naming `file`, the pair and the
// field. Problems of other objects are not this check's.
void checkContact(const Mechanism& m, const ContactDef& pair, const std::string& file = {});
// The same for a latch: type, markers, parameters and its condition.
void checkLatch(const Mechanism& m, const LatchDef& latch, const std::string& file = {});

// ---- compile -------------------------------------------------------------

// The mechanism of a compiled project, as `pneumech info` describes it.
struct MechanismSummary {
  int parts = 0;                      // the user's parts (ground not counted)
  int lumped = 0;                     // parts welded into another by fixed joints
  std::vector<std::string> carriers;  // the bodies they were welded into
  int dof = 0;
  std::vector<std::string> notes;     // as check() returns them
};

// A pneumatic net (ports joined by connections) of a compiled project.
struct Net {
  std::string name;                  // its pressure channel is "<name>.p" unless boundary
  std::vector<std::string> members;  // "component.port"
  bool boundary = false;             // pressure imposed by a supply or the atmosphere
};

// The pneumatic nets of a project, learnt by compiling it as a run does
// (without the run's set-up), for showing a run's pressures on the lines.
class NetMap {
 public:
  // Throws ProjectError naming `file` on bad input.
  explicit NetMap(const Project& project, const std::string& file = {});
  ~NetMap();
  NetMap(const NetMap&) = delete;
  NetMap& operator=(const NetMap&) = delete;
  const std::vector<Net>& nets() const { return nets_; }
  // The imposed pressure [Pa] of boundary net `net` at time t; false when not a boundary.
  bool boundaryPressure(int net, double t, double& p) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<Net> nets_;
};

class CompiledProject;
RunResult stream(CompiledProject& compiled, RowConsumer& consumer, RunControl* control);

// A compiled project, ready to run once.
class CompiledProject {
 public:
  // Throws ProjectError naming `file` on bad input.
  explicit CompiledProject(const Project& project, const std::string& file = {}, const Tuning& tuning = {});
  ~CompiledProject();
  CompiledProject(const CompiledProject&) = delete;
  CompiledProject& operator=(const CompiledProject&) = delete;

  const SimulationSettings& settings() const;
  // The channels run() writes, in column order.
  std::vector<ChannelInfo> channels() const;
  std::vector<std::string> channelNames() const;
  int states() const;
  int rootFunctions() const;
  int nodes() const;
  // Every state and equation with its owner, and the Jacobian's sparsity.
  std::string equations() const;
  std::optional<MechanismSummary> mechanism() const;

  // Where the result rows are computed (solver/run_result.h).
  using OutputRows = pm::OutputRows;
  void setOutputRows(OutputRows where);

  // Throws ProjectError (simulation.output_interval) when the run would hold
  // more values in `out` than build/validation.h's kMaxStoredValues: rows x
  // the channels `out` keeps (RowConsumer::keptCount). run() checks it first.
  void checkOutputSize(const RowConsumer& out) const;

  // Integrates from 0 to t_end into `out`: stream() below into a store.
  RunResult run(ResultStore& out, RunControl* control = nullptr);

 private:
  friend RunResult stream(CompiledProject& compiled, RowConsumer& consumer, RunControl* control);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Runs `compiled` on this thread, handing each result row to `consumer` as
// it is computed: setChannels() once, then append() for every row in order,
// on the thread computing rows (this one or the run's output thread), so a
// consumer that others read must lock (a ResultStore does). Nothing is
// polled: a consumer that shows rows elsewhere hands them over itself (the
// studio's RunRecorder queues them for its window). `control` (driven from
// any thread, the consumer's included) stops, pauses, paces and operates the
// run. Checks the output size first (checkOutputSize, with what `consumer`
// keeps in memory: a ResultFile or RawResultFile keeps nothing).
RunResult stream(CompiledProject& compiled, RowConsumer& consumer, RunControl* control = nullptr);

// ---- analyses ------------------------------------------------------------

// Static, quasi-static or kinematic analysis of the project's mechanism
// (analyses/mechanism_analysis.h). Throws ProjectError on bad input,
// std::runtime_error when the analysis fails.
AnalysisReport analyse(const Project& project, const std::string& file, MechanismAnalysis kind, ResultStore& out,
                       const Tuning& tuning = {});

// Modes of the whole coupled machine linearised at the state a run reaches
// at options.at (analyses/modal_analysis.h). Throws ProjectError on bad
// input, std::runtime_error when the run there or the eigenproblem fails.
ModalResult modal(const Project& project, const std::string& file, const ModalOptions& options,
                  const Tuning& tuning = {});
// A mode as motion (analyses/mode_animation.h), used as declared there:
//   modeMotion / modeScale   how far a mode moves the parts; the factor for a size
//   modeAnimation            one period as result rows, for the views that play runs

// Stroke times, impacts, air consumption... of a finished run.
KeyResults keyResults(const Project& project, const ResultStore& results, const KeyResultOptions& options = {});
// The channels keyResults reads (results/key_results.h): every row of these
// alone gives the key results of the whole run.
std::vector<std::string> keyResultChannels(const Project& project);

// ---- catalogue -----------------------------------------------------------

// The component catalogue (io/catalogue_file.h, docs/catalogue.md), used as
// declared there:
//   catalogue::processCatalogue()   the shipped folder plus those added:
//                                   find(part), family(name), entries()
//   catalogue::addFolder(dir)       a company's folder (--catalogue DIR)
//   catalogue::Entry                part, type, family, price, params (SI)
// A project object's "part" takes its entry's params when loaded.

// ---- studies -------------------------------------------------------------

// Parameter studies and their optimisation (core/studies/): the CLI and the
// studio use these directly, as declared there:
//   studies::loadStudy      a project's study, or a study file's
//   studies::prepareStudy   checked against the project (ProjectError)
//   studies::evaluateLocally / LocalEvaluator   the variants on threads
//   studies::optimise       NLopt on an Evaluator
//   studies::tableCsv / tableJson               the table
//   studies::size           the sizing assistant (studies/sizing.h)

// The air model's constants, for presentation (report formulas, Nl/min).
struct AirConstants {
  double R;      // J/(kg K)
  double kappa;  // cp/cv
  double rho0;   // kg/m3, ISO 8778 normal density
};
AirConstants airConstants();

}  // namespace pm::engine
