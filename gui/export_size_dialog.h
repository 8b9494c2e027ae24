// The size of an exported picture (plot pane PNG/SVG): width and height in
// pixels, the on-screen size first.
#pragma once

#include <QDialog>
#include <QSize>

class QSpinBox;

namespace pm::gui {

class ExportSizeDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ExportSizeDialog(QSize initial, QWidget* parent = nullptr);
  QSize size() const;
  QSpinBox* widthBox() const { return w_; }
  QSpinBox* heightBox() const { return h_; }

 private:
  QSpinBox* w_;
  QSpinBox* h_;
};

}  // namespace pm::gui
