// pneumech-studio: the desktop application.
//   pneumech-studio [--run] [--user-lib DIR ...] [project.pneumech.json]
// Opens the project given (as when a file is double-clicked), else shows the
// start page. --run starts the simulation as soon as the project is open.
#include "engine/engine.h"
#include "library_folder.h"
#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QScreen>
#include <QTimer>

#include <cstdio>
#include <exception>

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
  QCommandLineOption userLib("user-lib", "User component library folder (repeatable; docs/user-components.md).", "dir");
  cli.addOption(userLib);
  cli.addPositionalArgument("project", "Project file to open (*.pneumech.json).", "[project]");
  cli.process(app);

  // Before the window: its library panel lists the types registered. A bad
  // file is reported; the folder's good components are registered anyway.
  // The folder is the one chosen in Edit > Preferences, else the core's
  // default (engine::userComponentFolder()).
  QString problem;
  pm::gui::library_folder::loadAtStart(&problem);
  if (!problem.isEmpty()) std::fprintf(stderr, "pneumech-studio: %s\n", qPrintable(problem));
  for (const QString& dir : cli.values(userLib)) {
    try {
      pm::engine::loadUserLibrary(dir.toStdString());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "pneumech-studio: %s\n", e.what());
    }
  }
  pm::gui::MainWindow w;
  // The last session's speed and arrangement; the project's plots on opening.
  const bool remembered = w.rememberSessions();
  bool opened = false;
  if (!cli.positionalArguments().isEmpty()) opened = w.openProject(cli.positionalArguments().first());
  if (const QScreen* screen = QGuiApplication::primaryScreen(); screen && !remembered) {
    const QRect avail = screen->availableGeometry();
    w.resize(avail.size().boundedTo(QSize(1600, 1000)));
    w.move(avail.topLeft());
  }
  w.show();
  QTimer::singleShot(0, &w, [&w] { w.offerRecovery(); });  // what a crashed studio left unsaved
  if (opened && cli.isSet(run)) QTimer::singleShot(0, &w, &pm::gui::MainWindow::runSimulation);
  return app.exec();
}
