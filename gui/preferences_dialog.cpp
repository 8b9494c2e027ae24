#include "preferences_dialog.h"

#include "library_folder.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace pm::gui {

PreferencesDialog::PreferencesDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Preferences"));
  setObjectName("preferencesDialog");
  folder_ = new QLineEdit(library_folder::current(), this);
  folder_->setObjectName("libraryFolder");
  folder_->setMinimumWidth(360);
  folder_->setToolTip(tr("The folder of your own component types (*.json, docs/user-components.md); they are listed "
                         "in the library, marked (user)"));
  browse_ = new QToolButton(this);
  browse_->setObjectName("libraryFolderBrowse");
  browse_->setText(tr("Browse..."));
  connect(browse_, &QToolButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("User component library folder"), folder_->text());
    if (!dir.isEmpty()) folder_->setText(dir);
  });
  auto* row = new QHBoxLayout;
  row->addWidget(folder_, 1);
  row->addWidget(browse_);
  auto* form = new QFormLayout;
  auto* label = new QLabel(tr("User component &library folder:"), this);
  label->setBuddy(folder_);  // Alt+L
  form->addRow(label, row);
  error_ = new QLabel(this);
  error_->setObjectName("preferencesError");
  error_->setWordWrap(true);
  error_->setStyleSheet("color: #b00020");
  error_->hide();
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(error_);
  layout->addStretch(1);
  layout->addWidget(buttons);
}

QString PreferencesDialog::errorText() const { return error_->isVisible() ? error_->text() : QString(); }

void PreferencesDialog::accept() {
  // OK on the folder as it was reads it again (files added since); on a
  // default folder that does not exist it changes nothing.
  const bool unchanged = folder_->text().trimmed() == library_folder::current();
  if (unchanged && !QFileInfo(library_folder::current()).isDir()) {
    error_->hide();
    QDialog::accept();
    return;
  }
  QString error, problem;
  if (!library_folder::choose(folder_->text(), &error, &problem)) {
    error_->setText(error);
    error_->show();
    folder_->setFocus();
    return;  // stays open: the user mends the path or cancels
  }
  error_->hide();
  emit libraryChanged(library_folder::current(), problem);
  QDialog::accept();
}

}  // namespace pm::gui
