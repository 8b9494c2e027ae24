// pneumech-report: runs a project and paints its PDF report. `pneumech
// report` starts it (same options), so that the command line program itself
// loads no Qt Gui, Widgets, OpenGL or OpenSceneGraph library; it paints on
// the "offscreen" platform, so it works without a display.
#include "cli_run.h"
#include "report_export.h"
#include "study_summary.h"

#include <QApplication>

#include <iostream>
#include <optional>
#include <thread>

using namespace pm;

namespace {

// The study's variants (an optimisation's evaluations) on this machine's
// cores, then its report; exit 3 when every variant failed, as `pneumech study`.
int studyReport(const cli::ReportOptions& o) {
  std::vector<std::string> sets = o.sets;
  if (cli::gTimeLimit > 0.0) sets.push_back("simulation.wall_time_limit=" + studies::valueText(cli::gTimeLimit));
  const studies::StudyInput in = studies::loadStudy(o.project, o.studyName, sets);
  const studies::StudySetup setup = studies::prepareStudy(in.project, in.projectFile, in.study);
  const int jobs = o.jobs > 0 ? o.jobs : int(std::max(1u, std::thread::hardware_concurrency()));
  studies::LocalEvaluator evaluator(setup, jobs);
  std::vector<std::vector<double>> points;
  std::vector<studies::VariantResult> results;
  int chosen = -1;
  QString why;
  if (setup.study.hasOptimisation) {
    const studies::OptimisationResult r = studies::optimise(setup, evaluator);
    points = r.points, results = r.results;
    if (r.found) {
      chosen = int(r.best);
      why = QStringLiteral("The optimiser's best (%1): ").arg(QString::fromStdString(r.status));
    }
  } else {
    points = studies::studyVariants(setup.study);
    results = evaluator.evaluate(points);
  }
  const gui::StudySummary summary = gui::summarizeStudy(setup, points, results, chosen, why);
  QString error;
  if (!gui::exportStudyReport(in.project, summary, QString::fromStdString(o.pdf), &error,
                              QString::fromStdString(in.projectFile))) {
    std::cerr << "pneumech: " << o.pdf << ": " << error.toStdString() << "\n";
    return 1;
  }
  size_t failed = 0;
  for (const auto& r : results) failed += r.ok ? 0 : 1;
  for (size_t i = 0; i < results.size(); ++i)
    if (!results[i].ok)
      std::cerr << "pneumech: study " << setup.study.name << ": variant " << i << " failed: " << results[i].message << "\n";
  if (!o.quiet) std::cout << "Wrote the report of study " << setup.study.name << " (" << results.size() << " variants) to " << o.pdf << "\n";
  return !results.empty() && failed == results.size() ? 3 : 0;
}

int report(const cli::ReportOptions& o) {
  Project pr;
  ResultStore results;
  ReportSettings settings;
  // The application object comes before the run: a scripted controller
  // would otherwise make a plain QCoreApplication of its own.
  if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  int argc = 1;
  char name[] = "pneumech";
  char* argv[] = {name, nullptr};
  QApplication qapp(argc, argv);
  if (o.wantsStudy()) return studyReport(o);
  if (int rc = cli::runForResults(o.project, o.sets, pr, results, settings)) return rc;
  QString error;
  if (!gui::exportReport(pr, results, QString::fromStdString(o.pdf), &error, QString::fromStdString(o.project))) {
    std::cerr << "pneumech: " << o.pdf << ": " << error.toStdString() << "\n";
    return 1;
  }
  if (!o.quiet) std::cout << "Wrote report " << o.pdf << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"PneuMech Studio report: run a project and write its PDF report (headless; `pneumech report`)"};
  app.set_version_flag("--version", std::string("pneumech-report ") + PM_VERSION);
  cli::ReportOptions o;
  cli::addReportOptions(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  cli::startBackstop(cli::gTimeLimit);
  try {
    return report(o);
  } catch (const ProjectError& e) {
    std::cerr << "pneumech: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pneumech: " << e.what() << "\n";
    return 1;
  }
}
