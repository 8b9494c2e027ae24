#include "main_window.h"

namespace pm::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) { setWindowTitle("PneuMech Studio"); }

bool MainWindow::openProject(const QString&) { return false; }

}  // namespace pm::gui
