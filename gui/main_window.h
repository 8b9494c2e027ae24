#pragma once

#include <QMainWindow>

namespace pm::gui {

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  bool openProject(const QString& path);
};

}  // namespace pm::gui
