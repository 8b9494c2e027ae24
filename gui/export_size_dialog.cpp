#include "export_size_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSpinBox>

namespace pm::gui {

ExportSizeDialog::ExportSizeDialog(QSize initial, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Picture Size"));
  auto* form = new QFormLayout(this);
  auto spin = [](int v, const char* name) {
    auto* b = new QSpinBox;
    b->setObjectName(name);
    // Up to 8000 px a side: a 256 MB image, the most QImage should be asked for.
    b->setRange(100, 8000);
    b->setSuffix(" px");
    b->setValue(v);
    return b;
  };
  w_ = spin(initial.width(), "width");
  h_ = spin(initial.height(), "height");
  form->addRow(tr("Width:"), w_);
  form->addRow(tr("Height:"), h_);
  auto* reset = new QPushButton(tr("On-Screen Size"));
  connect(reset, &QPushButton::clicked, this, [this, initial] {
    w_->setValue(initial.width());
    h_->setValue(initial.height());
  });
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->addButton(reset, QDialogButtonBox::ResetRole);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

QSize ExportSizeDialog::size() const { return {w_->value(), h_->value()}; }

}  // namespace pm::gui
