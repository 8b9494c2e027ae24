#include "subcircuit_interface_panel.h"

#include "document.h"
#include "subcircuit_interface.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace pm::gui {

namespace {

QTableWidget* table(const char* name, const QStringList& headers) {
  auto* t = new QTableWidget(0, int(headers.size()));
  t->setObjectName(name);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->hide();
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
  t->horizontalHeader()->setStretchLastSection(true);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setSelectionMode(QAbstractItemView::SingleSelection);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  return t;
}

QPushButton* button(const QString& text, const char* name, const QString& tip) {
  auto* b = new QPushButton(text);
  b->setObjectName(name);
  b->setToolTip(tip);
  return b;
}

// The selected row's first cell (a port's or parameter's name), "" when none.
std::string selectedName(const QTableWidget* t) {
  const int row = t->currentRow();
  return row >= 0 && t->item(row, 0) && t->item(row, 0)->isSelected() ? t->item(row, 0)->text().toStdString()
                                                                       : std::string();
}

}  // namespace

SubcircuitInterfacePanel::SubcircuitInterfacePanel(Document* inside, QWidget* parent)
    : QWidget(parent), inside_(inside), type_(inside->subcircuitType()) {
  setObjectName("subcircuitInterface");
  ports_ = table("interfacePorts", {tr("External port"), tr("Inner port")});
  portChoice_ = new QComboBox;
  portChoice_->setObjectName("interfacePortChoice");
  portName_ = new QLineEdit;
  portName_->setObjectName("interfacePortName");
  portName_->setPlaceholderText(tr("name"));
  params_ = table("interfaceParameters", {tr("Parameter"), tr("Sets inside")});
  paramChoice_ = new QComboBox;
  paramChoice_->setObjectName("interfaceParameterChoice");
  paramName_ = new QLineEdit;
  paramName_->setObjectName("interfaceParameterName");
  paramName_->setPlaceholderText(tr("name"));
  auto* exposePortB = button(tr("Expose"), "interfaceExposePort",
                             tr("Make the inner port chosen an external port of every block of this type"));
  auto* removePortB = button(tr("Remove"), "interfaceRemovePort",
                             tr("Take the selected external port back (the lines to it outside go)"));
  auto* exposeParamB = button(tr("Expose"), "interfaceExposeParameter",
                              tr("Make the inner parameter chosen a parameter of every block (default: its value inside)"));
  auto* removeParamB = button(tr("Remove"), "interfaceRemoveParameter",
                              tr("Take the selected parameter back (the blocks' values of it go)"));

  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  const auto section = [&](const QString& title, QTableWidget* t, QComboBox* choice, QLineEdit* name,
                           QPushButton* expose, QPushButton* remove) {
    auto* head = new QLabel("<b>" + title + "</b>");
    lay->addWidget(head);
    lay->addWidget(t, 1);
    name->setMinimumWidth(90);
    auto* row = new QHBoxLayout;
    row->addWidget(choice, 3);
    row->addWidget(name, 2);
    row->addWidget(expose);
    row->addWidget(remove);
    lay->addLayout(row);
  };
  section(tr("External ports"), ports_, portChoice_, portName_, exposePortB, removePortB);
  section(tr("Exposed parameters"), params_, paramChoice_, paramName_, exposeParamB, removeParamB);

  // A choice proposes its name; the user may type another.
  connect(portChoice_, &QComboBox::currentIndexChanged, this,
          [this] { portName_->setText(portChoice_->currentData().toString()); });
  connect(paramChoice_, &QComboBox::currentIndexChanged, this,
          [this] { paramName_->setText(paramChoice_->currentData().toString()); });
  connect(exposePortB, &QPushButton::clicked, this, &SubcircuitInterfacePanel::exposePort);
  connect(removePortB, &QPushButton::clicked, this, &SubcircuitInterfacePanel::removePort);
  connect(exposeParamB, &QPushButton::clicked, this, &SubcircuitInterfacePanel::exposeParameter);
  connect(removeParamB, &QPushButton::clicked, this, &SubcircuitInterfacePanel::removeParameter);
  connect(inside_, &Document::changed, this, &SubcircuitInterfacePanel::refresh);
  refresh();
}

void SubcircuitInterfacePanel::refresh() {
  const Project& p = inside_->outer()->project();
  const auto it = p.userComponents.find(type_);
  if (it == p.userComponents.end()) return;
  const nlohmann::json& def = it->second;
  const auto fill = [](QTableWidget* t, const nlohmann::json& list, const char* ref) {
    t->setRowCount(0);
    for (const nlohmann::json& x : list) {
      const int r = t->rowCount();
      t->insertRow(r);
      t->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(x.value("name", ""))));
      QStringList inner;
      if (x.contains(ref) && x.at(ref).is_string()) inner << QString::fromStdString(x.at(ref).get<std::string>());
      if (x.contains(ref) && x.at(ref).is_array())
        for (const nlohmann::json& s : x.at(ref)) inner << QString::fromStdString(s.get<std::string>());
      t->setItem(r, 1, new QTableWidgetItem(inner.join(", ")));
    }
  };
  fill(ports_, def.value("ports", nlohmann::json::array()), "connect");
  fill(params_, def.value("parameters", nlohmann::json::array()), "targets");
  const auto choices = [](QComboBox* box, const std::vector<InterfaceCandidate>& list) {
    const QString was = box->currentText();
    QSignalBlocker block(box);
    box->clear();
    for (const InterfaceCandidate& c : list)
      box->addItem(QString::fromStdString(c.inner.str()), QString::fromStdString(c.name));
    box->setCurrentIndex(std::max(0, box->findText(was)));
  };
  choices(portChoice_, portCandidates(p, type_));
  choices(paramChoice_, parameterCandidates(p, type_));
  portName_->setText(portChoice_->currentData().toString());
  paramName_->setText(paramChoice_->currentData().toString());
}

void SubcircuitInterfacePanel::apply(const QString& text, const std::function<std::string(Project&)>& change) {
  std::string why;
  inside_->outer()->edit(text + tr(" (in %1)").arg(QString::fromStdString(type_)), [&](Project& p) {
    Project before = p;
    why = change(p);
    if (!why.empty()) p = std::move(before);
  });
  if (!why.empty()) emit statusMessage(QString::fromStdString(why));
}

// "<inner id>.<name>" of a combo entry.
static PortRef innerRef(const QComboBox* box) {
  const std::string s = box->currentText().toStdString();
  const auto dot = s.rfind('.');
  return dot == std::string::npos ? PortRef{} : PortRef{s.substr(0, dot), s.substr(dot + 1)};
}

void SubcircuitInterfacePanel::exposePort() {
  const PortRef inner = innerRef(portChoice_);
  const std::string name = portName_->text().trimmed().toStdString();
  const std::string file = inside_->file().toStdString();
  apply(tr("Expose port %1").arg(QString::fromStdString(name)),
        [&](Project& p) { return gui::exposePort(p, type_, name, inner, file); });
}

void SubcircuitInterfacePanel::removePort() {
  const std::string name = selectedName(ports_);
  if (name.empty()) {
    emit statusMessage(tr("Select the external port to take back first"));
    return;
  }
  const std::string file = inside_->file().toStdString();
  apply(tr("Remove port %1").arg(QString::fromStdString(name)),
        [&](Project& p) { return gui::removePort(p, type_, name, file); });
}

void SubcircuitInterfacePanel::exposeParameter() {
  const PortRef inner = innerRef(paramChoice_);
  const std::string name = paramName_->text().trimmed().toStdString();
  const std::string file = inside_->file().toStdString();
  apply(tr("Expose parameter %1").arg(QString::fromStdString(name)),
        [&](Project& p) { return gui::exposeParameter(p, type_, name, inner, file); });
}

void SubcircuitInterfacePanel::removeParameter() {
  const std::string name = selectedName(params_);
  if (name.empty()) {
    emit statusMessage(tr("Select the parameter to take back first"));
    return;
  }
  const std::string file = inside_->file().toStdString();
  apply(tr("Remove parameter %1").arg(QString::fromStdString(name)),
        [&](Project& p) { return gui::removeParameter(p, type_, name, file); });
}

}  // namespace pm::gui
