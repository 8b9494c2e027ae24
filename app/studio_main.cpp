// pneumech-studio: the desktop application.
//   pneumech-studio [--run] [project.pneumech.json]
// --run starts the simulation as soon as the project is open.
#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("PneuMech Studio");
  QApplication::setOrganizationName("PneuMech");
  QApplication::setApplicationVersion(PM_VERSION);

  QCommandLineParser cli;
  cli.setApplicationDescription("PneuMech Studio: pneumatic circuit simulator");
  cli.addHelpOption();
  cli.addVersionOption();
  QCommandLineOption run("run", "Run the simulation after opening the project.");
  cli.addOption(run);
  cli.addPositionalArgument("project", "Project file to open (*.pneumech.json).", "[project]");
  cli.process(app);

  pm::gui::MainWindow w;
  bool opened = false;
  if (!cli.positionalArguments().isEmpty()) opened = w.openProject(cli.positionalArguments().first());
  w.show();
  if (opened && cli.isSet(run)) QTimer::singleShot(0, &w, &pm::gui::MainWindow::runSimulation);
  return app.exec();
}
