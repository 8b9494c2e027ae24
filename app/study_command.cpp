#include "study_command.h"

#include "cli_run.h"
#ifdef PM_HAVE_MPI
#include "study_mpi.h"
#endif

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

namespace pm::cli {

namespace {

using Clock = std::chrono::steady_clock;

// User + system time of every thread of this process.
double processCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Linux's scheduler statistics of the calling thread: seconds on a core and
// seconds runnable but waiting for one (false where /proc has none). On a
// shared machine the second is the other processes' share; what a thread's
// life holds beyond both is time it could not run: a lock, I/O, a page fault.
bool threadSchedstat(double* onCore, double* waiting) {
  std::FILE* f = std::fopen("/proc/thread-self/schedstat", "r");
  if (!f) return false;
  unsigned long long run = 0, delay = 0;
  const bool ok = std::fscanf(f, "%llu %llu", &run, &delay) == 2;
  std::fclose(f);
  *onCore = 1e-9 * static_cast<double>(run);
  *waiting = 1e-9 * static_cast<double>(delay);
  return ok;
}

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

int defaultJobs() { return std::max(1u, std::thread::hardware_concurrency()); }

// "\rstudy NAME: 37/100 variants, 1 failed" on a terminal.
struct Progress {
  std::string name;
  size_t total = 0, done = 0, failed = 0;
  bool show = false;
  void operator()(size_t, const studies::VariantResult& r) {
    ++done;
    if (!r.ok) ++failed;
    if (!show) return;
    if (total > 0)
      std::fprintf(stderr, "\rstudy %s: %zu/%zu variants, %zu failed", name.c_str(), done, total, failed);
    else
      std::fprintf(stderr, "\rstudy %s: %zu evaluations, %zu failed", name.c_str(), done, failed);
    if (done == total) std::fputc('\n', stderr);
    std::fflush(stderr);
  }
};

std::string jsonPathFor(const std::string& csv) {
  const std::string ext = ".csv";
  if (csv.size() > ext.size() && csv.compare(csv.size() - ext.size(), ext.size(), ext) == 0)
    return csv.substr(0, csv.size() - ext.size()) + ".json";
  return csv + ".json";
}

void writeTable(const studies::StudySetup& setup, const std::vector<std::vector<double>>& points,
                const std::vector<studies::VariantResult>& results, const std::string& csv) {
  engine::writeTextFile(csv, studies::tableCsv(setup, points, results));
  engine::writeTextFile(jsonPathFor(csv), studies::tableJson(setup, points, results).dump(1) + "\n");
}

// The 100-variant study of the seed 003 circuit the benchmark runs: bore,
// supply pressure and throttle opening, a Latin hypercube.
studies::StudyDefinition benchmarkStudy() {
  studies::StudyDefinition st;
  st.name = "benchmark";
  auto range = [](const char* path, double from, double to) {
    studies::StudyParameter p;
    p.path = path, p.from = from, p.to = to, p.isRange = true;
    return p;
  };
  st.parameters = {range("cyl1.bore", 0.025, 0.05), range("src.p", 401325, 801325), range("fc1.opening", 0.2, 1.0)};
  st.sampling = studies::Sampling::LatinHypercube;
  st.samples = 100;
  st.results = {"cyl1.extend_time", "cyl1.impact_speed", "air_per_cycle", "max(cyl1.pB)"};
  return st;
}

int benchmark(const StudyOptions& o) {
  const std::string path = o.project.empty() ? std::string(PM_SOURCE_DIR) + "/projects/seed003_meter_out.pneumech.json"
                                             : o.project;
  const Project base = engine::load(path);
  const studies::StudySetup setup = studies::prepareStudy(base, path, benchmarkStudy());
  const std::vector<std::vector<double>> points = studies::studyVariants(setup.study);
  std::vector<int> jobs = {1, 2};
  if (o.jobs > 2) jobs.push_back(o.jobs);
  std::string first;
  double t1 = 0.0;
  std::cout << "study benchmark: " << points.size() << " variants of " << path << " (" << defaultJobs()
            << " hardware threads";
  double load[3];
  if (getloadavg(load, 3) == 3) std::printf("; load average %.2f %.2f %.2f", load[0], load[1], load[2]);
  std::cout << ")" << std::endl;
  for (int j : jobs) {
    const auto start = Clock::now();
    const double cpu0 = processCpuSeconds();
    // Each worker's scheduler times at its last finished variant (the
    // calling thread works too: its times before the batch are taken off).
    struct Times {
      double onCore = 0.0, waiting = 0.0, life = 0.0;
    };
    std::map<std::thread::id, Times> threads;
    Times before;
    const bool sched = threadSchedstat(&before.onCore, &before.waiting);
    const auto done = [&](size_t, const studies::VariantResult&) {
      Times now;
      if (!threadSchedstat(&now.onCore, &now.waiting)) return;
      now.life = seconds(start);
      threads[std::this_thread::get_id()] = now;
    };
    const std::thread::id caller = std::this_thread::get_id();
    const std::vector<studies::VariantResult> r = studies::evaluateLocally(setup, points, j, sched ? done : studies::VariantDone{});
    const double t = seconds(start), cpu = processCpuSeconds() - cpu0;
    if (sched) {
      Times sum;
      for (auto& [id, x] : threads) {
        if (id == caller) x.onCore -= before.onCore, x.waiting -= before.waiting;
        sum.onCore += x.onCore, sum.waiting += x.waiting, sum.life += x.life;
      }
      std::printf("  --jobs %d: %zu threads lived %.2f s in all: %.2f s on a core, %.2f s waiting for a core (the "
                  "machine's other load), %.2f s neither (blocked: locks, I/O, page faults)\n",
                  j, threads.size(), sum.life, sum.onCore, sum.waiting, sum.life - sum.onCore - sum.waiting);
    }
    if (j == 1) t1 = t;
    size_t failed = 0;
    for (const auto& v : r) failed += v.ok ? 0 : 1;
    const std::string table = studies::tableCsv(setup, points, r);
    if (first.empty()) first = table;
    // CPU seconds too: on a busy machine the wall time says how many cores were free, the CPU time what a variant costs.
    std::printf("  --jobs %d: %.2f s wall, %.2f s CPU, %.2f variants/s, %.2fx the throughput of --jobs 1, %zu failed, "
                "table %s\n",
                j, t, cpu, points.size() / t, t1 / t, failed, table == first ? "identical" : "DIFFERENT");
    if (table != first) return 1;
  }
  return 0;
}

void summary(const StudyOptions& o, const studies::StudySetup& setup, const std::vector<studies::VariantResult>& results,
             double wall, int jobs, int ranks) {
  size_t failed = 0, feasible = 0;
  for (const auto& r : results) failed += r.ok ? 0 : 1, feasible += r.feasible ? 1 : 0;
  if (!o.quiet) {
    std::cout << "study " << setup.study.name << ": " << results.size() << " variants, " << failed << " failed";
    if (!setup.study.constraints.empty()) std::cout << ", " << feasible << " meet the constraints";
    std::cout << "; " << wall << " s wall, " << jobs << " job(s)";
    if (ranks > 1) std::cout << " on each of " << ranks << " MPI ranks";
    std::cout << "\nWrote " << o.out << " and " << jsonPathFor(o.out) << "\n";
  }
  // Failed variants are said whatever -q says (the table has their messages too).
  for (size_t i = 0; i < results.size(); ++i)
    if (!results[i].ok) std::cerr << "pneumech: study " << setup.study.name << ": variant " << i << " failed: " << results[i].message << "\n";
}

void optimisationSummary(const studies::StudySetup& setup, const studies::OptimisationResult& r) {
  const auto& st = setup.study;
  std::cout << "optimisation (" << st.optimisation.algorithm << "): " << r.points.size() << " evaluations ("
            << r.startEvaluations << " in the first batch), " << r.status << "\n";
  if (!r.found) {
    std::cout << "no variant met the constraints; the least infeasible is variant " << r.best << "\n";
    return;
  }
  std::cout << "best: variant " << r.best << ":";
  for (size_t k = 0; k < st.parameters.size(); ++k)
    std::cout << " " << st.parameters[k].path << "=" << studies::valueLabel(st.parameters[k], r.points[r.best][k]);
  std::cout << "; " << st.optimisation.objective << " = "
            << studies::valueText(studies::variantValue(setup, r.points[r.best], r.results[r.best], st.optimisation.objective))
            << "\n";
}

}  // namespace

void addStudyOptions(CLI::App& c, StudyOptions& o) {
  c.add_option("project", o.project, "project with a \"studies\" section, or a study file (\"format\": \"pneumech-study\")");
  c.add_option("--study", o.name, "the study to run (default: the project's only or first one)");
  c.add_option("--jobs,-j", o.jobs, "variants run at once (default: every core; 1 per rank under mpirun)")
      ->check(CLI::Range(1, 1024));
  c.add_option("--out,-o", o.out, "the table as CSV (default: STUDY.csv); its JSON goes beside it (.json)");
  c.add_option("--set", o.sets, "override a parameter of the project in SI before the study: ID.PARAM=VALUE")->take_all();
  c.add_option("--keep-results", o.keepResults,
               "write every variant's result channels to FOLDER/variant_ROW.csv (ROW: its row in the table)");
  c.add_flag("--quiet,-q", o.quiet, "print nothing but failed variants on success");
  c.add_flag("--benchmark", o.benchmark,
             "run a 100-variant study of the seed 003 example (or PROJECT) with --jobs 1 and 2 and print the throughput");
}

int runStudy(const StudyOptions& opts, int& argc, char**& argv) {
  if (opts.benchmark) return benchmark(opts);
  if (opts.project.empty()) throw ProjectError("study", "", "project", "give a project or study file (or --benchmark)");
  StudyOptions o = opts;
  std::vector<std::string> sets = o.sets;
  if (gTimeLimit > 0.0) sets.push_back("simulation.wall_time_limit=" + studies::valueText(gTimeLimit));
  const studies::StudyInput in = studies::loadStudy(o.project, o.name, sets);
  studies::StudySetup setup = studies::prepareStudy(in.project, in.projectFile, in.study);
  if (!o.keepResults.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.keepResults, ec);
    if (!std::filesystem::is_directory(o.keepResults))
      throw ProjectError("--keep-results", "", "", "cannot make folder '" + o.keepResults + "'");
    setup.keepFolder = o.keepResults;
  }
  if (o.out.empty()) o.out = setup.study.name + ".csv";
  engine::checkOutputFile(o.out);  // before spending the study
  engine::checkOutputFile(jsonPathFor(o.out));

  Progress progress;
  progress.name = setup.study.name;
  progress.show = !o.quiet && isatty(STDERR_FILENO);
  studies::VariantDone done = [&progress](size_t i, const studies::VariantResult& r) { progress(i, r); };
  const auto start = Clock::now();
  int ranks = 1, jobs = o.jobs;
#ifdef PM_HAVE_MPI
  std::unique_ptr<MpiEvaluator> mpi;
  if (launchedByMpi()) {
    if (jobs == 0) jobs = 1;
    progress.show = false;  // rank 0 sees only its own share finish
    mpi = std::make_unique<MpiEvaluator>(argc, argv, setup, jobs, done);
    ranks = mpi->size();
    if (mpi->rank() != 0) {
      mpi->serve();
      return 0;
    }
  }
#else
  (void)argc, (void)argv;
#endif
  if (jobs == 0) jobs = defaultJobs();
  studies::LocalEvaluator local(setup, jobs, done);
  studies::Evaluator* used = &local;
#ifdef PM_HAVE_MPI
  if (mpi) used = mpi.get();
#endif

  std::vector<std::vector<double>> points;
  std::vector<studies::VariantResult> results;
  std::optional<studies::OptimisationResult> opt;
  if (setup.study.hasOptimisation) {
    progress.total = 0;  // unknown: the optimiser decides
    opt = studies::optimise(setup, *used);
    points = opt->points;
    results = opt->results;
  } else {
    points = studies::studyVariants(setup.study);
    progress.total = points.size();
    results = used->evaluate(points);
  }
#ifdef PM_HAVE_MPI
  if (mpi) mpi->finish();
#endif
  writeTable(setup, points, results, o.out);
  summary(o, setup, results, seconds(start), jobs, ranks);
  if (opt && !o.quiet) optimisationSummary(setup, *opt);
  size_t failed = 0;
  for (const auto& r : results) failed += r.ok ? 0 : 1;
  return !results.empty() && failed == results.size() ? 3 : 0;
}

}  // namespace pm::cli
