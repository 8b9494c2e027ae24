#include "engine/engine.h"

#include "analyses/simulation.h"
#include "build/compiler.h"
#include "build/project_input.h"
#include "build/subcircuit_expansion.h"
#include "build/validation.h"
#include "io/atomic_file.h"
#include "io/confined_file.h"
#include "io/json_limits.h"
#include "io/mesh_file.h"
#include "io/subcircuit_file.h"
#include "mechanics/contact/contact_pair.h"
#include "mechanics/contact/narrow_phase.h"
#include "mechanics/mechanism_element.h"
#include "pneumatics/gas.h"
#include "user/user_component.h"

#include <algorithm>

namespace pm::engine {

Project load(const std::string& path) { return loadProject(path); }

std::function<TriangleMesh(const std::string&)> meshReader(const std::string& projectFile) {
  return meshReaderFor(projectFile);
}

TriangleMesh readMesh(const std::string& folder, const std::string& ref) { return readMeshFile(folder, ref); }

std::vector<std::string> loadUserLibrary(const std::string& dir) { return user::loadLibrary(dir, registerSubcircuit); }

Project load(const std::string& path, const Overrides& o) {
  Project pr = loadProject(path);
  for (const auto& s : o.sets) applyOverride(pr, s, path);
  if (o.wallTimeLimit > 0.0) setSimulationSetting(pr, "wall_time_limit", o.wallTimeLimit, "--time-limit", path);
  if (o.tEnd) setSimulationSetting(pr, "t_end", *o.tEnd, "--t-end", path);
  return pr;
}

Project parse(const std::string& text, const std::string& name) { return parseProject(text, name); }

std::string serialize(const Project& project) { return serializeProject(project); }

void save(const Project& project, const std::string& path) { saveProject(project, path); }

std::string referencedFilePath(const std::string& folder, const std::string& ref) {
  return confinedPath(folder, ref).path.string();
}

std::string readReferencedFile(const std::string& folder, const std::string& ref) {
  return readConfinedFile(folder, ref);
}

void writeTextFile(const std::string& path, const std::string& text) {
  writeFileAtomically(path, [&](std::ostream& os) { os << text; });
}

void checkOutputFile(const std::string& path) {
  if (path != "-") checkWriteTarget(path);
}

void checkJsonText(const std::string& text, const std::string& name) { checkJsonLimits(text, name); }

// ---- contacts and latches

const MechTypeDecl& contactParameters() { return contact::pairType(); }

const std::vector<ContactShapeDecl>& contactShapeDecls() { return contact::shapeDecls(); }

const ContactShapeDecl* contactShapeDecl(const std::string& shape) { return contact::findShapeDecl(shape); }

std::vector<std::string> contactShapes() {
  std::vector<std::string> out;
  for (const ContactShapeDecl& d : contact::shapeDecls())
    if (d.name != "mesh") out.push_back(d.name);
  return out;
}

std::map<std::string, double> contactDefaultSizes(const std::string& shape, const ContactSizeBasis& b,
                                                  const std::map<std::string, double>& keep) {
  return contact::defaultSizes(shape, b, keep);
}

bool contactPairSupported(const std::string& a, const std::string& b) {
  contact::Shape sa, sb;
  for (const auto& [name, shape] : {std::pair{&a, &sa}, std::pair{&b, &sb}}) {
    ContactShapeDef d;
    d.shape = *name;
    d.size = contact::defaultSizes(*name, {});
    if (*name == "mesh") {  // one triangle stands for any
      d.vertices = {Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}};
      d.triangles = {{0, 1, 2}};
    }
    if (contact::shapeOf(d, *shape)) return false;
  }
  return contact::supported(sa.kind, sb.kind);
}

namespace {

// `m`'s parts and flexible bodies with their markers alone (nothing else a
// run would refuse) and `set` holding the one object: validateMechanism
// then reports that object's problems or the parts'.
template <class Set>
void checkOne(const Mechanism& m, const std::string& id, const std::string& file, Set set) {
  Mechanism t;
  for (const PartDef& p : m.parts) {
    PartDef q;
    q.id = p.id;
    q.ground = p.ground;
    q.markers = p.markers;
    t.parts.push_back(std::move(q));
  }
  t.flexible_bodies = m.flexible_bodies;
  set(t);
  try {
    validateMechanism(t, file);
  } catch (const ProjectError& e) {
    if (e.object() == id) throw;
  }
}

}  // namespace

void checkContact(const Mechanism& m, const ContactDef& pair, const std::string& file) {
  checkOne(m, pair.id, file, [&](Mechanism& t) { t.contacts = {pair}; });
}

void checkLatch(const Mechanism& m, const LatchDef& latch, const std::string& file) {
  checkOne(m, latch.id, file, [&](Mechanism& t) { t.latches = {latch}; });
}

namespace {

BuildOptions buildOptions(const Tuning& t) {
  BuildOptions o;
  o.lumpFixedJoints = t.lumpFixedJoints;
  o.forceDense = t.forceDense;
  return o;
}

std::vector<std::string> notesOf(System& sys) {
  if (MechanismElement* me = mechanismOf(sys)) return me->multibody().messages();
  return {};
}

}  // namespace

std::vector<std::string> check(const Project& project, const std::string& file) {
  const std::unique_ptr<System> sys = Compiler::compile(project, file);
  return notesOf(*sys);
}

std::vector<GeometryFinding> checkGeometry(const Project& project, const std::string& file) {
  return checkMechanismGeometry(project, file.empty() ? MeshReader{} : MeshReader(meshReaderFor(file)));
}

std::vector<CircuitFinding> checkCircuit(const Project& project) {
  // Sub-circuits are checked as the circuit they stand for (their insides in place).
  std::optional<Project> flat;
  return pm::checkCircuit(expandedView(project, flat));
}

std::vector<GeometryFinding> deadPointWarnings(const Project& project, const ResultStore& results) {
  return deadPointCrossings(project, results);
}

std::vector<std::string> deadPointChannels(const Project& project) { return pm::deadPointChannels(project); }

void checkSimulationSettings(const SimulationSettings& settings, const std::string& file) {
  validateSimulation(settings, file);
}

bool checkComponent(const Component& c) {
  const ComponentType* t = Registry::instance().find(c.type);
  if (!t || !t->create) return false;
  t->create(c);
  return true;
}

// ---- CompiledProject ---------------------------------------------------------

struct CompiledProject::Impl {
  Impl(const Project& p, const std::string& f, const Tuning& t) : sim(p, f, buildOptions(t)), file(f) {}
  Simulation sim;
  std::string file;
};

CompiledProject::CompiledProject(const Project& project, const std::string& file, const Tuning& tuning)
    : impl_(std::make_unique<Impl>(project, file, tuning)) {}
CompiledProject::~CompiledProject() = default;

const SimulationSettings& CompiledProject::settings() const { return impl_->sim.settings(); }
std::vector<ChannelInfo> CompiledProject::channels() const { return impl_->sim.channels(); }

std::vector<std::string> CompiledProject::channelNames() const {
  std::vector<std::string> names;
  for (const auto& c : channels()) names.push_back(c.name);
  return names;
}

int CompiledProject::states() const { return impl_->sim.system().size(); }
int CompiledProject::rootFunctions() const { return impl_->sim.system().numRoots(); }
int CompiledProject::nodes() const { return static_cast<int>(impl_->sim.system().nodes().size()); }
std::string CompiledProject::equations() const { return impl_->sim.system().describe(); }

std::optional<MechanismSummary> CompiledProject::mechanism() const {
  MechanismElement* me = mechanismOf(impl_->sim.system());
  if (!me) return std::nullopt;
  const auto& mb = me->multibody();
  MechanismSummary s;
  s.parts = static_cast<int>(mb.parts().size());
  for (const auto& p : mb.parts())
    if (p.lumped) {
      ++s.lumped;
      const std::string& c = mb.bodies()[p.body].id;
      if (std::find(s.carriers.begin(), s.carriers.end(), c) == s.carriers.end()) s.carriers.push_back(c);
    }
  s.dof = mb.degreesOfFreedom();
  s.notes = mb.messages();
  return s;
}

struct NetMap::Impl {
  std::unique_ptr<System> system;
};

NetMap::NetMap(const Project& project, const std::string& file)
    : impl_(std::make_unique<Impl>(Impl{Compiler::compile(project, file)})) {
  for (const Node& n : impl_->system->nodes()) nets_.push_back({n.name, n.members, n.kind == NodeKind::Boundary});
}
NetMap::~NetMap() = default;

bool NetMap::boundaryPressure(int net, double t, double& p) const {
  const auto& nodes = impl_->system->nodes();
  if (net < 0 || net >= static_cast<int>(nodes.size()) || !nodes[net].boundary) return false;
  double T = 0.0;
  nodes[net].boundary(t, p, T);
  return true;
}

void CompiledProject::setOutputRows(OutputRows where) { impl_->sim.setOutputRows(where); }

void CompiledProject::checkOutputSize(const RowConsumer& out) const {
  validateOutputSize(settings(), out.keptCount(channels()), impl_->file, out.keptWhere());
}

RunResult CompiledProject::run(ResultStore& out, RunControl* control) { return stream(*this, out, control); }

// ---- stream ----------------------------------------------------------------

RunResult stream(CompiledProject& compiled, RowConsumer& consumer, RunControl* control) {
  compiled.checkOutputSize(consumer);  // before a byte of the run is spent
  return compiled.impl_->sim.run(consumer, nullptr, control);
}

// ---- analyses --------------------------------------------------------------

AnalysisReport analyse(const Project& project, const std::string& file, MechanismAnalysis kind, ResultStore& out,
                       const Tuning& tuning) {
  return runMechanismAnalysis(project, file, kind, out, buildOptions(tuning));
}

ModalResult modal(const Project& project, const std::string& file, const ModalOptions& options, const Tuning& tuning) {
  return runModalAnalysis(project, file, options, buildOptions(tuning));
}

KeyResults keyResults(const Project& project, const ResultStore& results, const KeyResultOptions& options) {
  return computeKeyResults(project, results, options);
}

std::vector<std::string> keyResultChannels(const Project& project) { return pm::keyResultChannels(project); }

AirConstants airConstants() { return {gas::R, gas::kappa, gas::rho0}; }

}  // namespace pm::engine
