#include "project_properties_dialog.h"

#include "document.h"
#include "units.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace pm::gui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
std::string s(const QString& t) { return t.trimmed().toStdString(); }
}  // namespace

ProjectPropertiesDialog::ProjectPropertiesDialog(const Metadata& meta, const QString& projectDir, QWidget* parent)
    : QDialog(parent), projectDir_(projectDir) {
  setWindowTitle(tr("Project Properties"));
  auto* top = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  title_ = new QLineEdit(q(meta.title));
  title_->setPlaceholderText(tr("the report's title, e.g. \"Tool changer, cell 3\""));
  customer_ = new QLineEdit(q(meta.customer));
  author_ = new QLineEdit(q(meta.author));
  author_->setPlaceholderText(tr("who prepared the report"));
  description_ = new QPlainTextEdit(q(meta.description));
  description_->setPlaceholderText(tr("the machine and its task, as the customer reads it on the title page"));
  description_->setTabChangesFocus(true);
  notes_ = new QPlainTextEdit(q(meta.notes));
  notes_->setPlaceholderText(tr("technical notes for engineers (sources, assumptions, tests): not in the report"));
  notes_->setTabChangesFocus(true);
  logo_ = new QLineEdit(q(meta.logo));
  logo_->setPlaceholderText(tr("image file, relative to the project file"));
  auto* browse = new QPushButton(tr("Browse..."));
  browse->setObjectName("browseLogo");
  browse->setAutoDefault(false);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, tr("Logo"), projectDir_, tr("Images (*.png *.jpg *.jpeg *.svg)"));
    if (f.isEmpty()) return;
    const QString rel = projectDir_.isEmpty() ? f : QDir(projectDir_).relativeFilePath(f);
    logo_->setText(rel.startsWith("..") ? f : rel);
  });
  auto* logoRow = new QHBoxLayout;
  logoRow->addWidget(logo_, 1);
  logoRow->addWidget(browse);
  cycleTime_ = new QLineEdit(meta.requiredCycleTime > 0 ? units::formatNumber(meta.requiredCycleTime) : QString());
  cycleTime_->setPlaceholderText(tr("not stated"));
  cycleTime_->setToolTip(tr("The customer's required cycle time in seconds; the report's conclusion checks it"));
  auto* cycleRow = new QHBoxLayout;
  cycleRow->addWidget(cycleTime_, 1);
  cycleRow->addWidget(new QLabel(tr("s")));
  form->addRow(tr("&Title:"), title_);
  form->addRow(tr("&Customer:"), customer_);
  form->addRow(tr("&Prepared by:"), author_);
  form->addRow(tr("&Description:"), description_);
  // Rows holding a layout get no buddy from addRow: give the labels one.
  auto* logoLabel = new QLabel(tr("&Logo:"));
  logoLabel->setBuddy(logo_);
  auto* cycleLabel = new QLabel(tr("&Required cycle time:"));
  cycleLabel->setBuddy(cycleTime_);
  form->addRow(logoLabel, logoRow);
  form->addRow(cycleLabel, cycleRow);
  form->addRow(tr("Technical &notes:"), notes_);
  top->addLayout(form, 1);
  message_ = new QLabel;
  message_->setObjectName("message");
  message_->setWordWrap(true);
  top->addWidget(message_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    Metadata m;
    QString error;
    if (!read(&m, &error)) {
      message_->setText("<span style='color:#b00000'>" + error.toHtmlEscaped() + "</span>");
      return;
    }
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  top->addWidget(buttons);
  resize(640, 560);
}

bool ProjectPropertiesDialog::read(Metadata* meta, QString* error) const {
  Metadata m;
  m.title = s(title_->text());
  m.customer = s(customer_->text());
  m.author = s(author_->text());
  m.description = s(description_->toPlainText());
  Metadata& p = m;
  p.notes = s(notes_->toPlainText());
  p.logo = s(logo_->text());
  const QString ct = cycleTime_->text().trimmed();
  if (!ct.isEmpty()) {
    bool ok = false;
    p.requiredCycleTime = ct.toDouble(&ok);
    if (!ok || !(p.requiredCycleTime > 0) || !std::isfinite(p.requiredCycleTime)) {
      *error = tr("Required cycle time: \"%1\" is not a positive number of seconds (leave it empty when there is none).")
                   .arg(ct);
      return false;
    }
  }
  if (!p.logo.empty()) {
    const QString logo = q(p.logo);
    const QString path = QFileInfo(logo).isRelative() && !projectDir_.isEmpty() ? QDir(projectDir_).filePath(logo) : logo;
    if (QImageReader(path).size().isEmpty()) {
      *error = tr("Logo: cannot read the image %1.").arg(path);
      return false;
    }
  }
  *meta = m;
  return true;
}

ProjectPropertiesDialog* openProjectProperties(QWidget* parent, Document* doc) {
  const QString dir = doc->file().isEmpty() ? QString() : QFileInfo(doc->file()).absolutePath();
  auto* d = new ProjectPropertiesDialog(doc->project().meta, dir, parent);
  d->setAttribute(Qt::WA_DeleteOnClose);
  QObject::connect(d, &QDialog::accepted, doc, [doc, d] {
    Metadata m;
    QString error;
    if (!d->read(&m, &error)) return;  // OK checked it
    doc->edit(QObject::tr("Project properties"), [&](Project& p) { p.meta = m; });
  });
  d->open();
  return d;
}

}  // namespace pm::gui
