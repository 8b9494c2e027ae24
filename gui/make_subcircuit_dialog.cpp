#include "make_subcircuit_dialog.h"

#include "document.h"
#include "model/component_type.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace pm::gui {

namespace {

QString domainText(const Project& p, const PortRef& r) {
  const Component* c = p.find(r.component);
  const ComponentType* t = c ? Registry::instance().find(c->type) : nullptr;
  const PortDecl* d = t ? t->port(r.port) : nullptr;
  return d ? QString::fromUtf8(domainName(d->domain)) : QString();
}

}  // namespace

MakeSubcircuitDialog::MakeSubcircuitDialog(Document* doc, std::set<std::string> ids, QWidget* parent)
    : QDialog(parent), doc_(doc), ids_(std::move(ids)), plan_(planSubcircuit(doc->project(), ids_)) {
  setObjectName("makeSubcircuitDialog");
  setWindowTitle(tr("Make Sub-circuit"));
  const Project& p = doc->project();
  auto* lay = new QVBoxLayout(this);
  QStringList names;
  for (const Component& c : p.components)
    if (ids_.count(c.id)) names << QString::fromStdString(c.label.empty() ? c.id : c.id + " (" + c.label + ")");
  auto* intro = new QLabel(tr("%1 component(s) become one block: %2.").arg(ids_.size()).arg(names.join(", ")));
  intro->setWordWrap(true);
  lay->addWidget(intro);
  auto* form = new QFormLayout;
  type_ = new QLineEdit(QString::fromStdString(freshSubcircuitType(p)));
  type_->setObjectName("subcircuitType");
  type_->setToolTip(tr("The new component type's name: letters, digits and '_'"));
  instance_ = new QLineEdit(QString::fromStdString(freshInstanceId(p, ids_)));
  instance_->setObjectName("subcircuitInstance");
  instance_->setToolTip(tr("The block's id in this circuit; its inner components run as <id>.<inner id>"));
  form->addRow(tr("Type name:"), type_);
  form->addRow(tr("Instance id:"), instance_);
  lay->addLayout(form);

  table_ = new QTableWidget(int(plan_.ports.size() + plan_.inputs.size()), 2);
  table_->setObjectName("subcircuitPorts");
  table_->setHorizontalHeaderLabels({tr("External name"), tr("Stands for")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  int row = 0;
  const auto addRow = [&](const std::string& name, const QString& what) {
    table_->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(name)));
    auto* w = new QTableWidgetItem(what);
    w->setFlags(w->flags() & ~Qt::ItemIsEditable);
    table_->setItem(row++, 1, w);
  };
  for (const BoundaryPort& b : plan_.ports)
    addRow(b.name, tr("port %1 (%2)").arg(QString::fromStdString(b.inner.str()), domainText(p, b.inner)));
  for (const BoundaryInput& b : plan_.inputs)
    addRow(b.name, tr("input %1, fed by %2").arg(QString::fromStdString(b.inner.str()), QString::fromStdString(b.source)));
  table_->resizeColumnsToContents();
  lay->addWidget(new QLabel(tr("External ports and inputs (the lines and signals crossing the selection's boundary):")));
  lay->addWidget(table_, 1);

  exposable_ = exposableParams(p, ids_);
  params_ = new QTableWidget(int(exposable_.size()), 2);
  params_->setObjectName("subcircuitParameters");
  params_->setHorizontalHeaderLabels({tr("Expose as"), tr("Inner parameter (value)")});
  params_->horizontalHeader()->setStretchLastSection(true);
  params_->verticalHeader()->hide();
  for (size_t i = 0; i < exposable_.size(); ++i) {
    const ExposedParam& x = exposable_[i];
    auto* name = new QTableWidgetItem(QString::fromStdString(x.name));
    name->setFlags(name->flags() | Qt::ItemIsUserCheckable);
    name->setCheckState(Qt::Unchecked);
    params_->setItem(int(i), 0, name);
    const Component* c = p.find(x.inner.component);
    const ComponentType* t = Registry::instance().find(c->type);
    const ParamDecl* d = t->param(x.inner.port);
    auto* what = new QTableWidgetItem(tr("%1 = %2 %3")
                                          .arg(QString::fromStdString(x.inner.str()))
                                          .arg(paramValue(*c, *t, d->name))
                                          .arg(QString::fromStdString(d->unit)));
    what->setToolTip(QString::fromStdString(d->doc));
    what->setFlags(what->flags() & ~Qt::ItemIsEditable);
    params_->setItem(int(i), 1, what);
  }
  params_->resizeColumnsToContents();
  lay->addWidget(new QLabel(tr("Parameters each block may set (ticked; the rest keep the inside's values):")));
  lay->addWidget(params_, 1);

  message_ = new QLabel;
  message_->setObjectName("subcircuitMessage");
  message_->setWordWrap(true);
  message_->setStyleSheet("color: #b00020");
  lay->addWidget(message_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  lay->addWidget(buttons);
  resize(600, 560);
}

QString MakeSubcircuitDialog::message() const { return message_->text(); }

SubcircuitPlan MakeSubcircuitDialog::plan() const {
  SubcircuitPlan out = plan_;
  int row = 0;
  for (BoundaryPort& b : out.ports) b.name = table_->item(row++, 0)->text().trimmed().toStdString();
  for (BoundaryInput& b : out.inputs) b.name = table_->item(row++, 0)->text().trimmed().toStdString();
  for (size_t i = 0; i < exposable_.size(); ++i) {
    const QTableWidgetItem* item = params_->item(int(i), 0);
    if (item->checkState() != Qt::Checked) continue;
    out.params.push_back(exposable_[i]);
    out.params.back().name = item->text().trimmed().toStdString();
  }
  return out;
}

void MakeSubcircuitDialog::accept() {
  const std::string type = type_->text().trimmed().toStdString();
  const std::string instance = instance_->text().trimmed().toStdString();
  const SubcircuitPlan edited = plan();
  std::string why;
  doc_->edit(tr("Make sub-circuit %1 (%2)").arg(QString::fromStdString(instance), QString::fromStdString(type)),
             [&](Project& p) { why = makeSubcircuit(p, ids_, type, instance, edited, doc_->file().toStdString()); });
  if (!why.empty()) {
    message_->setText(QString::fromStdString(why));
    return;
  }
  emit made(QString::fromStdString(instance));
  QDialog::accept();
}

}  // namespace pm::gui
