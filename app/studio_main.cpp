// pneumech-studio: the desktop application.
#include "main_window.h"

#include <QApplication>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("PneuMech Studio");
  QApplication::setOrganizationName("PneuMech");
  pm::gui::MainWindow w;
  const QStringList args = app.arguments();
  if (args.size() > 1) w.openProject(args.at(1));
  w.show();
  return app.exec();
}
