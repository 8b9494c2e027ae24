// pneumech: the command line. Same core calls as the studio.
#include "cli_run.h"
#include "engine/user_folder.h"
#include "size_command.h"
#include "study_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include <unistd.h>

using namespace pm;

namespace {

using cli::gTimeLimit;
using cli::loadWithOverrides;
using cli::runForResults;

int info(const std::string& path, bool equations) {
  Project pr = engine::load(path);
  engine::CompiledProject sim(pr, path);
  std::cout << "Project: " << path << "\n  title: " << pr.meta.title << "\n  components: " << pr.components.size()
            << ", connections: " << pr.connections.size() << "\n  states: " << sim.states()
            << ", root functions: " << sim.rootFunctions() << ", nodes: " << sim.nodes() << "\n"
            << "  simulation: t_end " << pr.simulation.t_end << " s, output interval " << pr.simulation.output_interval
            << " s, rel_tol " << pr.simulation.rel_tol << "\n";
  if (const auto mech = sim.mechanism()) {
    // The user's parts; those welded into another body say where.
    std::cout << "  mechanism: " << mech->parts + 1 << " parts (incl. ground";
    if (mech->lumped > 0) {
      std::cout << "; " << mech->lumped << " lumped into ";
      for (size_t i = 0; i < mech->carriers.size(); ++i) std::cout << (i ? ", " : "") << mech->carriers[i];
      std::cout << " by fixed joints";
    }
    std::cout << "), " << mech->dof << " degree(s) of freedom\n";
    for (const auto& m : mech->notes) std::cout << "  note: " << m << "\n";
  }
  if (equations) {
    std::cout << "\n" << sim.equations();
  } else {
    const std::vector<ChannelInfo> written = sim.channels();
    std::cout << "\nChannels (" << written.size() << "):\n";
    for (const auto& c : written) std::cout << "  " << c.name << " [" << c.unit << "]\n";
  }
  return 0;
}

// A run's rows to its output file (none without -o) and to a store that
// keeps a few channels (none when null). What is written counts against
// the run's output-size limit as if held: a typo in output_interval must not
// fill the disk either.
class RunRows : public RowConsumer {
 public:
  RunRows(ResultStore* kept, ResultFile* file, size_t written) : kept_(kept), file_(file), written_(written) {}
  void setChannels(std::vector<ChannelInfo> channels) override {
    if (kept_) kept_->setChannels(channels);
    if (file_) file_->setChannels(std::move(channels));
  }
  void append(double t, const double* row) override {
    if (kept_) kept_->append(t, row);
    if (file_) file_->append(t, row);
    ++rows_;
  }
  size_t keptCount(const std::vector<ChannelInfo>& all) const override {
    if (file_) return written_ ? written_ : all.size();
    return kept_ ? kept_->keptCount(all) : 0;
  }
  size_t rows() const { return rows_; }

 private:
  ResultStore* kept_;
  ResultFile* file_;
  size_t written_;  // channels written (0: all)
  size_t rows_ = 0;
};

// `tEnd`: --t-end's value, or null without it.
int simulate(const std::string& path, const double* tEnd, const std::string& out, const std::vector<std::string>& sets,
             const std::vector<std::string>& channels, bool quiet, bool serialOutput) {
  Project pr = loadWithOverrides(path, sets, tEnd ? std::optional<double>(*tEnd) : std::nullopt);
  if (!out.empty()) engine::checkOutputFile(out);  // before spending the run
  engine::CompiledProject sim(pr, path);
  using Rows = engine::CompiledProject::OutputRows;
  sim.setOutputRows(serialOutput ? Rows::Solver : Rows::Auto);
  // What the assembly changed of the user's start, redundant joints: said before the run.
  if (const auto mech = sim.mechanism(); mech && !quiet)
    for (const auto& m : mech->notes) std::cerr << "pneumech: " << path << ": note: " << m << "\n";
  const std::vector<ChannelInfo> written = sim.channels();
  for (const auto& c : channels)  // check before spending the run
    if (std::none_of(written.begin(), written.end(), [&](const ChannelInfo& k) { return k.name == c; }))
      throw ProjectError("--channels", c, "", "no such result channel (`pneumech info " + path + "` lists them)");
  // Rows go to the output file as they come (written to a temporary, put
  // in place when the run has completed); held in memory are only the
  // channels the dead-point warning below reads.
  ResultStore checked;
  const std::vector<std::string> checkedNames = engine::deadPointChannels(pr);
  checked.keepOnly(checkedNames);
  std::unique_ptr<ResultFile> file;
  if (!out.empty()) file = std::make_unique<ResultFile>(out, channels);
  RunRows rows(checkedNames.empty() ? nullptr : &checked, file.get(), channels.size());
  RunResult r = engine::stream(sim, rows);  // throws ProjectError first when the rows x channels kept are too many
  if (!r.ok()) {
    std::cerr << "pneumech: " << path << ": simulation " << (r.status == RunStatus::Cancelled ? "cancelled" : "failed")
              << ": " << r.message << "\n";
    return 3;
  }
  // A result no machine could give (a cylinder driving its linkage over a
  // dead point) is said, whatever -q says.
  for (const GeometryFinding& f : engine::deadPointWarnings(pr, checked))
    std::cerr << "pneumech: " << path << ": warning: " << f.message << "\n";
  if (file) file->close();
  // With "-o -" the CSV is on standard output: the summary goes to stderr.
  std::ostream& info = out == "-" ? std::cerr : std::cout;
  if (!quiet) {
    info << "Simulated " << r.stats.tReached << " s in " << r.stats.wallSeconds << " s wall (real-time factor "
         << r.stats.realTimeFactor() << "), " << r.stats.steps << " steps, " << r.stats.residualEvals
         << " residual evaluations, " << r.stats.jacobianEvals << " Jacobians, " << r.stats.events << " events.\n";
    info << "Coupling: " << r.stats.coupling;
    if (r.stats.coupling == "cosimulation")
      info << " (exchange interval " << r.stats.exchangeInterval << " s, " << r.stats.exchanges << " exchanges; "
           << r.stats.stepsPneumatic << " pneumatic + " << r.stats.stepsMechanical << " mechanical steps)";
    info << "\nResult rows: " << (r.stats.outputThread ? "output thread" : "solver thread") << "\n";
    if (!out.empty()) info << "Wrote " << rows.rows() << " rows to " << out << "\n";
  }
  return 0;
}

int analyse(const std::string& path, MechanismAnalysis kind, const std::string& out, const std::vector<std::string>& sets,
            bool quiet) {
  Project pr = loadWithOverrides(path, sets);
  if (!out.empty()) engine::checkOutputFile(out);
  ResultStore results;
  AnalysisReport rep;
  try {
    rep = engine::analyse(pr, path, kind, results);
  } catch (const ProjectError&) {
    throw;
  } catch (const std::exception& e) {
    std::cerr << "pneumech: " << path << ": analysis failed " << e.what() << "\n";
    return 3;
  }
  if (!out.empty()) results.writeCsv(out);
  // With "-o -" the CSV is on standard output: the summary goes to stderr.
  std::ostream& info = out == "-" ? std::cerr : std::cout;
  if (!quiet) {
    info << "Mechanism: " << rep.dof << " degree(s) of freedom\n";
    for (const auto& m : rep.messages) info << "note: " << m << "\n";
    if (out.empty() && results.rows() > 0) {
      // A static result is one row: print it.
      const auto chans = results.channels();
      for (size_t c = 0; c < chans.size(); ++c)
        info << "  " << chans[c].name << " = " << results.column(static_cast<int>(c)).back() << " " << chans[c].unit << "\n";
    }
    if (!out.empty()) info << "Wrote " << results.rows() << " rows to " << out << "\n";
  }
  return 0;
}

// `pneumech modal`: the table on standard output (or -o FILE: .json gives
// everything with the mode shapes, else the CSV table).
int modal(const std::string& path, const std::vector<std::string>& sets, double at, bool atStatic,
          double maxFrequency, int modes, const std::string& solver, bool oscillating, const std::string& out,
          bool json) {
  Project pr = loadWithOverrides(path, sets);
  if (!out.empty()) engine::checkOutputFile(out);
  ModalOptions opt;
  opt.at = at;
  opt.staticEquilibrium = atStatic;
  opt.maxOmega = maxFrequency > 0 ? 2 * M_PI * maxFrequency : 0.0;
  opt.modes = modes;
  opt.oscillatingOnly = oscillating;
  opt.solver = solver == "dense" ? ModalSolver::Dense : solver == "sparse" ? ModalSolver::Sparse : ModalSolver::Auto;
  ModalResult r;
  try {
    r = engine::modal(pr, path, opt);
  } catch (const ProjectError&) {
    throw;
  } catch (const std::exception& e) {
    std::cerr << "pneumech: " << path << ": modal analysis failed: " << e.what() << "\n";
    return 3;
  }
  const bool jsonFile = json || (out.size() > 5 && out.substr(out.size() - 5) == ".json");
  const std::string text = jsonFile ? r.json() : r.tableCsv();
  if (out.empty()) std::cout << r.text();
  else if (out == "-") std::cout << text;
  else {
    engine::writeTextFile(out, text);
    std::cout << r.text() << "Wrote " << r.modes.size() << " modes to " << out << "\n";
  }
  return 0;
}

int keyResults(const std::string& path, const std::vector<std::string>& sets, double cpm, bool json) {
  Project pr;
  ResultStore results;
  ReportSettings settings;
  if (int rc = runForResults(path, sets, pr, results, settings)) return rc;
  KeyResultOptions opt;
  opt.cyclesPerMinute = cpm > 0 ? cpm : settings.cyclesPerMinute;
  const KeyResults kr = engine::keyResults(pr, results, opt);
  std::cout << (json ? kr.toJson().dump(2) + "\n" : kr.toText());
  return 0;
}

// `report` paints with Qt Gui (and OpenSceneGraph for the 3D snapshot):
// it is the pneumech-report program next to this one, which takes the same
// arguments, so that no other command loads those libraries.
int report(int argc, char** argv) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path exe = (ec ? std::filesystem::path(argv[0]) : self).parent_path() / "pneumech-report";
  std::vector<char*> args{const_cast<char*>("pneumech-report")};
  int first = 1;
  while (first < argc && std::strcmp(argv[first], "report") != 0) ++first;
  for (int i = first + 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  std::fflush(stdout);
  execv(exe.c_str(), args.data());
  std::cerr << "pneumech: report: cannot start " << exe.string() << " (" << std::strerror(errno)
            << "): the PDF report is painted by that program, installed with the studio\n";
  return 1;
}

// What the studio's Check says, without running: the compile's errors
// (exit 2), its notes, the circuit's wiring (circuit_checks.h) and the
// mechanism's geometry (geometry_checks.h).
int check(const std::string& path, const std::vector<std::string>& sets) {
  Project pr = loadWithOverrides(path, sets);
  const std::vector<std::string> notes = engine::check(pr, path);  // throws ProjectError: exit 2
  int n = 0;
  for (const auto& m : notes) std::cout << "note: " << m << "\n";
  for (const CircuitFinding& f : engine::checkCircuit(pr)) {
    std::cout << "warning: " << f.message << "\n";
    ++n;
  }
  for (const GeometryFinding& f : engine::checkGeometry(pr, path)) {
    std::cout << "warning: " << f.message << "\n";
    ++n;
  }
  if (n == 0) std::cout << path << ": no problems found\n";
  else std::cout << path << ": " << n << " warning(s)\n";
  return 0;
}

int types() {
  std::cout << Registry::instance().reference();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"PneuMech Studio command line: simulate pneumatic circuits headless"};
  app.set_version_flag("--version", std::string("pneumech ") + PM_VERSION);
  app.require_subcommand(1);

  std::string project, out;
  double tEnd = 0.0;
  std::vector<std::string> sets, channels;
  bool quiet = false;
  auto* sim = app.add_subcommand("simulate", "run a project and write results as CSV");
  sim->add_option("project", project, "project file (.pneumech.json)")->required();
  CLI::Option* tEndOption = sim->add_option("--t-end", tEnd, "end time [s], overrides the project's");
  sim->add_option("--out,-o", out, "CSV file to write (\"-\": standard output): time [s], then <id>.<quantity> [unit] columns");
  sim->add_option("--set", sets, "override a parameter in SI: ID.PARAM=VALUE (repeatable)")->take_all();
  sim->add_option("--channels", channels, "channels to write (default: all)")->take_all();
  sim->add_flag("--quiet,-q", quiet, "print nothing on success");
  bool serialOutput = false;
  sim->add_flag("--serial-output", serialOutput, "compute the result rows on the solver's thread (default: a second one)");

  auto* inf = app.add_subcommand("info", "describe a project: components, states, channels");
  std::string infoProject;
  bool eq = false;
  inf->add_option("project", infoProject, "project file")->required();
  inf->add_flag("--equations", eq, "print every state and equation with its owner, and the Jacobian sparsity");

  auto* eqs = app.add_subcommand("equations", "print the equations the engine generated (same as info --equations)");
  std::string eqProject;
  eqs->add_option("project", eqProject, "project file")->required();

  auto* typesCmd = app.add_subcommand("types", "list the component library with parameters and units");

  std::string stProject, stOut, kinProject, kinOut;
  std::vector<std::string> stSets, kinSets;
  bool throughTime = false;
  auto* st = app.add_subcommand("static", "static equilibrium of the project's mechanism (seed 004 sec. 3)");
  st->add_option("project", stProject, "project file")->required();
  st->add_option("--out,-o", stOut, "CSV file to write (\"-\": standard output; default: print the values)");
  st->add_option("--set", stSets, "override a parameter in SI: ID.PARAM=VALUE (repeatable)")->take_all();
  st->add_flag("--through-time", throughTime, "quasi-static: equilibrium at every output time up to t_end");
  st->add_flag("--quiet,-q", quiet, "print nothing on success");
  auto* kin = app.add_subcommand("kinematic", "kinematic analysis of a fully driven mechanism, 0 to t_end");
  kin->add_option("project", kinProject, "project file")->required();
  kin->add_option("--out,-o", kinOut, "CSV file to write (\"-\": standard output)");
  kin->add_option("--set", kinSets, "override a parameter in SI: ID.PARAM=VALUE (repeatable)")->take_all();
  kin->add_flag("--quiet,-q", quiet, "print nothing on success");

  std::string resProject;
  std::vector<std::string> resSets;
  double cpm = 0;
  bool resJson = false;
  auto* res = app.add_subcommand("results", "run a project and print its key results (stroke times, impact, air)");
  res->add_option("project", resProject, "project file")->required();
  res->add_option("--set", resSets, "override a parameter in SI: ID.PARAM=VALUE (repeatable)")->take_all();
  res->add_option("--cycles-per-minute", cpm, "rate for the air consumption per minute (default: the project's report "
                                              "setting, else the run repeated back to back)");
  res->add_flag("--json", resJson, "print JSON instead of the table");
  auto* rep = app.add_subcommand("report", "run a project and write its PDF report (headless)");
  cli::ReportOptions repOptions;  // parsed here for --help and errors; pneumech-report parses them again
  cli::addReportOptions(*rep, repOptions);

  std::string modProject, modOut;
  std::vector<std::string> modSets;
  double modAt = 0.0, modMaxF = 0.0;
  int modModes = 0;
  std::string modSolver = "auto";
  bool modJson = false, modStatic = false, modOscillating = false;
  auto* mod = app.add_subcommand("modal", "modes of the whole machine (mechanism, flexible bodies, chambers, controllers) "
                                          "linearised at the state a run reaches at --at T (default 0: the start), "
                                          "or with --static at the static equilibrium");
  mod->add_option("project", modProject, "project file")->required();
  mod->add_option("--at", modAt, "operating point: the run's state at this time [s] (default 0)");
  mod->add_flag("--static", modStatic,
                "operating point: the static equilibrium under gravity, supply pressures and springs (all rates "
                "zero), found by Newton from the state at --at (whose inputs and valve positions it keeps); "
                "an equilibrium that is not unique is taken nearest that state");
  mod->add_option("--max-frequency", modMaxF, "leave out modes above this natural frequency [Hz]");
  mod->add_option("--modes", modModes, "report the lowest N modes (default: all with the dense solver; with the "
                                       "sparse one those below --max-frequency, else 30)")
      ->check(CLI::PositiveNumber);
  mod->add_option("--solver", modSolver, "dense (every mode, cost ~ states^3), sparse (the lowest modes by "
                                         "shift-invert Arnoldi) or auto (dense up to 400 states; default)")
      ->check(CLI::IsMember({"auto", "dense", "sparse"}));
  mod->add_flag("--oscillating", modOscillating,
                "report the oscillating modes only (the sparse solver then finds them alone, by shifts on the "
                "imaginary axis, without the real roots: every one with damping ratio up to 0.6 above 0.11 Hz)");
  mod->add_option("--out,-o", modOut, "file to write: the CSV table, or JSON with the mode shapes when the name "
                                       "ends in .json (\"-\": standard output)");
  mod->add_flag("--json", modJson, "JSON instead of CSV for -o");
  mod->add_option("--set", modSets, "override a parameter in SI: ID.PARAM=VALUE (repeatable)")->take_all();

  std::string chkProject;
  std::vector<std::string> chkSets;
  auto* chk = app.add_subcommand("check", "check a project without running it: errors (exit 2), notes, and the "
                                          "mechanism's geometry (attached cylinders' stroke, dead points, inertia)");
  chk->add_option("project", chkProject, "project file")->required();
  chk->add_option("--set", chkSets, "override a parameter in SI: ID.PARAM=VALUE (repeatable)")->take_all();

  cli::StudyOptions studyOptions;
  auto* study = app.add_subcommand("study", "run a parameter study or optimisation on every core (or MPI ranks under "
                                            "mpirun) and write its table as CSV and JSON");
  cli::addStudyOptions(*study, studyOptions);
  cli::SizeOptions sizeOptions;
  auto* sizeCmd = app.add_subcommand("size", "sizing assistant: the catalogue cylinder and valve that make the move in "
                                             "the required time (docs/sizing.md)");
  cli::addSizeOptions(*sizeCmd, sizeOptions);

  for (CLI::App* c : {sim, st, kin, res, study, mod}) cli::addTimeLimitOption(*c);
  std::vector<std::string> userLibs;
  for (CLI::App* c : {sim, inf, eqs, typesCmd, st, kin, res, chk, mod})
    c->add_option("--user-lib", userLibs, "user component library folder (repeatable; docs/user-components.md)")
        ->expected(1)
        ->allow_extra_args(false);

  std::vector<std::string> catalogueDirs;
  for (CLI::App* c : {sim, st, kin, res, chk, study, sizeCmd})
    c->add_option("--catalogue", catalogueDirs, "a company's catalogue folder beside the shipped one (repeatable; docs/catalogue.md)")
        ->expected(1)
        ->allow_extra_args(false);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (rep->parsed()) return report(argc, argv);
  // A study's --time-limit is each variant's (a slow variant fails, the study goes on).
  if (!study->parsed()) cli::startBackstop(gTimeLimit);
  try {
    std::string problem;  // the user's folder: a bad file there is reported, not fatal
    engine::loadUserComponentFolder(&problem);
    if (!problem.empty()) std::fprintf(stderr, "warning: %s\n", problem.c_str());
    for (const std::string& dir : userLibs) engine::loadUserLibrary(dir);
    for (const std::string& dir : catalogueDirs) catalogue::addFolder(dir);
    if (study->parsed()) return cli::runStudy(studyOptions, argc, argv);
    if (sizeCmd->parsed()) return cli::runSize(sizeOptions);
    if (sim->parsed())
      return simulate(project, tEndOption->count() > 0 ? &tEnd : nullptr, out, sets, channels, quiet, serialOutput);
    if (inf->parsed()) return info(infoProject, eq);
    if (eqs->parsed()) return info(eqProject, true);
    if (st->parsed())
      return analyse(stProject, throughTime ? MechanismAnalysis::QuasiStatic : MechanismAnalysis::Static, stOut, stSets, quiet);
    if (res->parsed()) return keyResults(resProject, resSets, cpm, resJson);
    if (chk->parsed()) return check(chkProject, chkSets);
    if (mod->parsed()) return modal(modProject, modSets, modAt, modStatic, modMaxF, modModes, modSolver, modOscillating, modOut,
                                      modJson);
    if (kin->parsed()) return analyse(kinProject, MechanismAnalysis::Kinematic, kinOut, kinSets, quiet);
    return types();
  } catch (const ProjectError& e) {
    std::cerr << "pneumech: " << e.what() << "\n";
    return 2;
  } catch (const WriteRefused& e) {
    std::cerr << "pneumech: refused to write " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pneumech: " << e.what() << "\n";
    return 1;
  }
}
