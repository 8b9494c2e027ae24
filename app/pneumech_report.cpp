// pneumech-report: runs a project and paints its PDF report. `pneumech
// report` starts it (same options), so that the command line program itself
// loads no Qt Gui, Widgets, OpenGL or OpenSceneGraph library; it paints on
// the "offscreen" platform, so it works without a display.
#include "cli_run.h"
#include "report_export.h"

#include <QApplication>

#include <iostream>

using namespace pm;

namespace {

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
