#include "contact_dialog.h"

#include "contact_editing.h"
#include "document.h"
#include "engine/engine.h"
#include "mechanism_editing.h"
#include "mechanism_view.h"
#include "mesh_import.h"
#include "selection_model.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>

namespace pm::gui {

namespace {

const char* kSide[2] = {"i", "j"};

}  // namespace

ContactDialog::ContactDialog(Document* doc, SelectionModel* selection, MechanismView* view, const QString& partI,
                             const QString& partJ, QWidget* parent)
    : QDialog(parent), doc_(doc), selection_(selection), view_(view) {
  setObjectName("addContactDialog");
  setWindowTitle(tr("Add Contact"));
  setAttribute(Qt::WA_DeleteOnClose);
  const Project& p = doc_->project();
  QStringList bodies;
  for (const PartDef& q : p.mechanism.parts) bodies << QString::fromStdString(q.id);
  for (const FlexibleBodyDef& b : p.mechanism.flexible_bodies) bodies << QString::fromStdString(b.id);

  auto* form = form_ = new QFormLayout;
  id_ = new QLineEdit(QString::fromStdString(freshObjectId(p, "contact")));
  id_->setObjectName("dlg_id");
  form->addRow(tr("Id"), id_);
  const QString wanted[2] = {partI, partJ};
  for (int side = 0; side < 2; ++side) {
    part_[side] = new QComboBox;
    part_[side]->setObjectName(QString("dlg_%1_part").arg(kSide[side]));
    part_[side]->addItems(bodies);
    const int at = int(bodies.indexOf(wanted[side]));
    part_[side]->setCurrentIndex(at >= 0 ? at : std::min(side, int(bodies.size()) - 1));
    pick_[side] = new QPushButton(tr("Pick in 3D"));
    pick_[side]->setObjectName(QString("dlg_%1_pick").arg(kSide[side]));
    pick_[side]->setToolTip(tr("Click a marker (or a part) in the 3D view for this side"));
    pick_[side]->setEnabled(view_ != nullptr);
    connect(pick_[side], &QPushButton::clicked, this, [this, side] { startPick(side); });
    auto* partRow = new QHBoxLayout;
    partRow->addWidget(part_[side], 1);
    partRow->addWidget(pick_[side]);
    shape_[side] = new QComboBox;
    shape_[side]->setObjectName(QString("dlg_%1_shape").arg(kSide[side]));
    shape_[side]->setMinimumContentsLength(28);
    marker_[side] = new QComboBox;
    marker_[side]->setObjectName(QString("dlg_%1_marker").arg(kSide[side]));
    marker_[side]->setToolTip(tr("The marker the shape sits on: the shape is centred in its axes"));
    form->addRow(side == 0 ? tr("I part") : tr("J part"), partRow);
    form->addRow(side == 0 ? tr("I shape") : tr("J shape"), shape_[side]);
    form->addRow(side == 0 ? tr("I marker") : tr("J marker"), marker_[side]);
    sizeRow_[side] = new QWidget;
    sizeRow_[side]->setObjectName(QString("dlg_%1_sizes").arg(kSide[side]));
    new QHBoxLayout(sizeRow_[side]);
    sizeRow_[side]->layout()->setContentsMargins(0, 0, 0, 0);
    form->addRow(side == 0 ? tr("I size") : tr("J size"), sizeRow_[side]);
    connect(part_[side], &QComboBox::currentIndexChanged, this, [this, side] {
      typed_[side].clear();  // another body: its own drawn sizes
      fillShapes(side);
    });
    connect(shape_[side], &QComboBox::currentIndexChanged, this, [this, side] {
      markUnsupported();
      showMeshRow();
      fillMarkers(side);
      fillSizes(side);
    });
  }
  if (view_) {
    connect(view_, &MechanismView::markerPicked, this, &ContactDialog::onPicked);
    connect(view_, &MechanismView::markerPickCancelled, this, &ContactDialog::onPickCancelled);
  }
  // The mesh's file and units (shown when a side takes a mesh).
  meshRow_ = new QWidget;
  auto* meshLay = new QHBoxLayout(meshRow_);
  meshLay->setContentsMargins(0, 0, 0, 0);
  meshFile_ = new QLineEdit;
  meshFile_->setObjectName("dlg_mesh_file");
  meshFile_->setPlaceholderText(tr("STL or OBJ, in the project's folder"));
  auto* browse = new QPushButton(tr("Browse..."));
  browse->setObjectName("dlg_mesh_browse");
  connect(browse, &QPushButton::clicked, this, &ContactDialog::browseMesh);
  meshUnit_ = new QComboBox;
  meshUnit_->setObjectName("dlg_mesh_unit");
  meshUnit_->addItem(tr("file in mm"), 0.001);
  meshUnit_->addItem(tr("file in m"), 1.0);
  meshLay->addWidget(meshFile_, 1);
  meshLay->addWidget(browse);
  meshLay->addWidget(meshUnit_);
  form->addRow(tr("Mesh file"), meshRow_);
  auto* note = new QLabel(tr("The normal force pushes J's part away from I's. A shape sits in the axes of the marker "
                             "chosen (\"at the shape\": the one at the drawn shape's centre, added where there is "
                             "none). Pick in 3D: click a marker or a part in the 3D view."));
  note->setWordWrap(true);
  note->setStyleSheet("QLabel { color: #3a4a5c; }");
  form->addRow(note);

  // The parameters, as the property form shows them (display units).
  auto* box = new QGroupBox(tr("Contact parameters"));
  auto* pform = new QFormLayout(box);
  std::vector<EditField> fields;
  appendParamFields(fields, engine::contactParameters(), {});
  for (const EditField& f : fields) {
    const std::string name = f.key.substr(6);  // "param."
    auto* e = new QLineEdit(f.value);
    e->setObjectName(QString::fromStdString("dlg_" + f.key));
    e->setToolTip(f.tip);
    pform->addRow(f.unit.isEmpty() ? f.label : QString("%1 [%2]").arg(f.label, f.unit), e);
    params_[name] = e;
    initial_[name] = f.value;
  }

  message_ = new QLabel;
  message_->setObjectName("dlg_message");
  message_->setWordWrap(true);
  message_->setStyleSheet("QLabel { color: #a40000; }");
  message_->hide();
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::Ok), &QPushButton::clicked, this, [this] {
    const QString err = add();
    message_->setText(err);
    message_->setVisible(!err.isEmpty());
    if (err.isEmpty()) accept();
  });
  auto* lay = new QVBoxLayout(this);
  lay->addLayout(form);
  lay->addWidget(box);
  lay->addWidget(message_);
  lay->addWidget(buttons);
  fillShapes(0);
  fillShapes(1);
  showMeshRow();
}

QLineEdit* ContactDialog::paramEdit(const std::string& name) const {
  auto it = params_.find(name);
  return it == params_.end() ? nullptr : it->second;
}

QLineEdit* ContactDialog::sizeEdit(int side, const std::string& name) const {
  auto it = sizes_[side].find(name);
  return it == sizes_[side].end() ? nullptr : it->second;
}

QString ContactDialog::message() const { return message_->text(); }

bool ContactDialog::flexible(int side) const {
  return doc_->project().mechanism.flexibleBody(part_[side]->currentText().toStdString()) != nullptr;
}

void ContactDialog::fillShapes(int side) {
  QComboBox* c = shape_[side];
  {
    const QSignalBlocker blockMarkers(marker_[side]);
    marker_[side]->clear();  // another body: its own markers, "at the shape" first
    const QSignalBlocker block(c);
    c->clear();
    const Mechanism& m = doc_->project().mechanism;
    const std::string part = part_[side]->currentText().toStdString();
    options_[side] = flexible(side) ? flexibleShapeOptions(m, part) : contactShapeOptions(m, part);
    for (const ContactShapeOption& o : options_[side]) c->addItem(o.label, QString::fromStdString(o.shape.shape));
    // The core takes a mesh on a part that cannot move only.
    if (partCannotMove(m, part)) c->addItem(tr("Mesh from STL/OBJ file..."), kMeshChoice);
    // I: the first shape; J: the first one the core can pair with I's.
    c->setCurrentIndex(c->count() > 0 ? 0 : -1);
    if (side == 1)
      for (int k = 0; k < c->count(); ++k)
        if (engine::contactPairSupported(shape_[0]->currentData().toString().toStdString(),
                                         c->itemData(k).toString().toStdString())) {
          c->setCurrentIndex(k);
          break;
        }
  }
  markUnsupported();
  showMeshRow();
  fillMarkers(side);
  fillSizes(side);
}

// The body's markers; on a part, first "at the shape": the marker the
// option names, or one placed at the drawn shape's centre (a mesh: at the
// part frame). The marker chosen stays while it is offered.
void ContactDialog::fillMarkers(int side) {
  QComboBox* c = marker_[side];
  const QString kept = c->currentIndex() >= 0 ? c->currentData().toString() : QString();
  const QSignalBlocker block(c);
  c->clear();
  const Mechanism& m = doc_->project().mechanism;
  const std::string part = part_[side]->currentText().toStdString();
  if (!flexible(side)) {
    const int k = shape_[side]->currentIndex();
    QString where = tr("a new marker at its centre");
    if (shape_[side]->currentData() == kMeshChoice) where = tr("the part frame");
    else if (k >= 0 && k < int(options_[side].size()) && !options_[side][size_t(k)].drawn) where = tr("the part frame");
    else if (k >= 0 && k < int(options_[side].size()) && !options_[side][size_t(k)].shape.marker.empty())
      where = QString::fromStdString(options_[side][size_t(k)].shape.marker).section('.', 1);
    c->addItem(tr("at the shape (%1)").arg(where), QString());
  }
  for (const QString& id : bodyMarkers(m, part)) c->addItem(id, id);
  const int at = c->findData(kept);
  c->setCurrentIndex(at >= 0 ? at : (c->count() > 0 ? 0 : -1));
}

// The fields of the sizes the shape chosen takes, valued from its option
// (a mesh's come from its file; a plane has none) or, for a size the user
// typed on this side before (by name: a sphere's radius stays a
// cylinder's), what was typed; after the marker box in the tab order. Each
// label and field tells what the size measures (the core's declaration).
void ContactDialog::fillSizes(int side) {
  QWidget* row = sizeRow_[side];
  qDeleteAll(row->findChildren<QWidget*>(Qt::FindDirectChildrenOnly));
  sizes_[side].clear();
  sizeFields_[side].clear();
  const int k = shape_[side]->currentIndex();
  const bool sized = shape_[side]->currentData() != kMeshChoice && k >= 0 && k < int(options_[side].size());
  if (sized) sizeFields_[side] = contactSizeFields(kSide[side], options_[side][size_t(k)].shape);
  auto* lay = static_cast<QHBoxLayout*>(row->layout());
  QWidget* previous = marker_[side];
  for (const EditField& f : sizeFields_[side]) {
    auto* label = new QLabel(QString("%1 [%2]").arg(f.label, f.unit), row);
    const std::string name = f.key.substr(f.key.rfind('.') + 1);
    auto typed = typed_[side].find(name);
    auto* e = new QLineEdit(typed == typed_[side].end() ? f.value : typed->second, row);
    e->setObjectName(QString::fromStdString("dlg_" + f.key));
    connect(e, &QLineEdit::textEdited, this, [this, side, name](const QString& text) {
      typed_[side][name] = text;
      labelShapes(side);
    });
    e->setMinimumWidth(e->fontMetrics().horizontalAdvance("0000.000 mm"));
    label->setToolTip(f.tip);
    e->setToolTip(f.tip);
    label->setBuddy(e);
    lay->addWidget(label);
    lay->addWidget(e, 1);
    sizes_[side][name] = e;
    setTabOrder(previous, e);
    previous = e;
  }
  if (sized && sizeFields_[side].empty())  // a plane: what it is, as the core declares it
    if (const engine::ContactShapeDecl* d = engine::contactShapeDecl(options_[side][size_t(k)].shape.shape))
      lay->addWidget(new QLabel(
          tr("none: a %1 is %2").arg(QString::fromStdString(d->name), QString::fromStdString(d->description)), row));
  labelShapes(side);
  // Shown now, not at the layout's queued show: typed into at once.
  for (QWidget* w : row->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) w->show();
  form_->setRowVisible(row, sized);
  if (isVisible()) {  // room for the fields (and the wrapped note) at once
    layout()->activate();
    resize(size().expandedTo(sizeHint()));
  }
}

// Each shape's item says the sizes its fields show: the drawn ones, or
// with "(typed)" those the user typed (a size that does not read keeps the
// drawn one; adding says why).
void ContactDialog::labelShapes(int side) {
  for (size_t k = 0; k < options_[side].size(); ++k) {
    const ContactShapeOption& o = options_[side][k];
    ContactShapeDef s = o.shape;
    for (const EditField& f : contactSizeFields(kSide[side], o.shape)) {
      auto it = typed_[side].find(f.key.substr(f.key.rfind('.') + 1));
      if (it != typed_[side].end() && it->second.trimmed() != f.value) applyContactSize(s, f, it->second.trimmed(), {});
    }
    shape_[side]->setItemText(int(k), contactShapeLabel(o, s.size, s.size != o.shape.size));
  }
}

// J's shapes the core cannot pair with I's are greyed out.
void ContactDialog::markUnsupported() {
  auto* model = qobject_cast<QStandardItemModel*>(shape_[1]->model());
  if (!model) return;
  const std::string a = shape_[0]->currentData().toString().toStdString();
  for (int k = 0; k < model->rowCount(); ++k)
    model->item(k)->setEnabled(engine::contactPairSupported(a, shape_[1]->itemData(k).toString().toStdString()));
}

void ContactDialog::showMeshRow() {
  const bool mesh = shape_[0]->currentData() == kMeshChoice || shape_[1]->currentData() == kMeshChoice;
  meshRow_->setEnabled(mesh);
  form_->setRowVisible(meshRow_, mesh);
}

void ContactDialog::browseMesh() {
  QString err;
  const QString rel = chooseProjectMesh(this, doc_->file(), &err);
  message_->setText(err);
  message_->setVisible(!err.isEmpty());
  if (!rel.isEmpty()) meshFile_->setText(rel);
}

void ContactDialog::startPick(int side) {
  if (!view_) return;
  picking_ = side;
  hide();
  view_->beginMarkerPick(tr("Add Contact: click the %1 side's marker or part (Esc: back to the dialog)")
                             .arg(side == 0 ? "I" : "J"),
                         this, true);
}

void ContactDialog::onPicked(const QString& ref) {
  if (picking_ < 0) return;
  const int side = picking_;
  picking_ = -1;
  if (view_->pickOwner() == this) takePick(side, ref.section('.', 0, 0), ref.contains('.') ? ref.section('.', 1) : QString());
  show();
  raise();
  activateWindow();
}

void ContactDialog::onPickCancelled() {
  if (picking_ < 0) return;
  picking_ = -1;
  show();
}

void ContactDialog::takePick(int side, const QString& body, const QString& marker) {
  const int at = part_[side]->findText(body);
  if (at < 0) return;
  if (part_[side]->currentIndex() != at) part_[side]->setCurrentIndex(at);  // refills the shapes
  if (marker.isEmpty()) return;
  // A shape centred on the marker, when the body has one (J's: one the core
  // pairs with I's); else the shape chosen moves onto it.
  const std::string ref = (body + "." + marker).toStdString();
  for (size_t k = 0; k < options_[side].size(); ++k)
    if (options_[side][k].shape.marker == ref &&
        (side == 0 || engine::contactPairSupported(shape_[0]->currentData().toString().toStdString(),
                                                   options_[side][k].shape.shape))) {
      shape_[side]->setCurrentIndex(int(k));
      break;
    }
  marker_[side]->setCurrentIndex(marker_[side]->findData(marker));
}

QString ContactDialog::add() {
  Project changed = doc_->project();
  ContactDef c;
  c.id = id_->text().trimmed().toStdString();
  if (QString err = checkNewId(changed, c.id); !err.isEmpty()) return err;
  std::string parts[2];
  for (int side = 0; side < 2; ++side) parts[side] = part_[side]->currentText().toStdString();
  if (parts[0] == parts[1]) return tr("I and J are the same part: a contact is between two parts");
  for (int side = 0; side < 2; ++side) {
    const std::string marker = marker_[side]->currentData().toString().toStdString();
    if (shape_[side]->currentData() == kMeshChoice) {
      if (doc_->file().isEmpty()) return tr("Save the project first: a mesh file is read from its folder");
      ContactShapeDef& s = side == 0 ? c.i : c.j;
      const QString folder = QFileInfo(doc_->file()).absolutePath();
      if (QString err = placeMeshShape(changed.mechanism, parts[side], folder.toStdString(),
                                       meshFile_->text().trimmed().toStdString(), meshUnit_->currentData().toDouble(),
                                       kSide[side], &s, marker);
          !err.isEmpty())
        return err;
      continue;
    }
    const int k = shape_[side]->currentIndex();
    if (k < 0 || k >= int(options_[side].size()))
      return tr("part %1 has no shape for a contact: give it display geometry or a marker")
          .arg(QString::fromStdString(parts[side]));
    if (flexible(side) && marker.empty())
      return tr("%1.marker: flexible body %2 has no marker: add one in its form")
          .arg(kSide[side], QString::fromStdString(parts[side]));
    ContactShapeDef& s = side == 0 ? c.i : c.j;
    s = placeContactShape(changed.mechanism, parts[side], options_[side][size_t(k)], marker);
    // The sizes typed (those left as shown keep the option's exact value).
    for (const EditField& f : sizeFields_[side]) {
      const QString text = sizes_[side].at(f.key.substr(f.key.rfind('.') + 1))->text().trimmed();
      if (text == f.value) continue;
      if (QString err = applyContactSize(s, f, text, QString::fromStdString(c.id + "." + f.key)); !err.isEmpty())
        return err;
    }
  }
  // The parameters typed (those left at their defaults stay unset), then
  // the pair as a whole.
  std::vector<EditField> fields;
  appendParamFields(fields, engine::contactParameters(), {});
  for (const EditField& f : fields) {
    const std::string name = f.key.substr(6);
    const QLineEdit* edit = params_.at(name);
    if (edit->text().trimmed() == initial_[name]) continue;
    const QString where = QString::fromStdString(c.id + "." + f.key);
    if (QString err = applyParamField(engine::contactParameters(), c.params, name, f, edit->text(), where); !err.isEmpty())
      return err;
  }
  changed.mechanism.contacts.push_back(c);
  if (QString err = checkContactPair(changed.mechanism, c); !err.isEmpty()) return err;
  doc_->edit(tr("Add contact %1").arg(QString::fromStdString(c.id)), [&](Project& q) { q = changed; });
  selection_->select(QString::fromStdString(c.id));
  return {};
}

}  // namespace pm::gui
