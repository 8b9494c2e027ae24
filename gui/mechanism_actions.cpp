#include "mechanism_actions.h"

#include "contact_dialog.h"
#include "flexible_body_editing.h"

#include "document.h"
#include "mechanism_editing.h"
#include "mechanism_view.h"
#include "part_shape_dialog.h"
#include "model/mechanism_types.h"
#include "selection_model.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <functional>
#include <map>

namespace pm::gui {

namespace {

// A small form dialog: fields named "dlg_<key>"; OK runs `accept`, which
// returns "" when done or the reason shown in the dialog (it stays open).
class ObjectDialog : public QDialog {
 public:
  ObjectDialog(QWidget* parent, const QString& name, const QString& title) : QDialog(parent) {
    setObjectName(name);
    setWindowTitle(title);
    setAttribute(Qt::WA_DeleteOnClose);
    form_ = new QFormLayout;
    message_ = new QLabel;
    message_->setObjectName("dlg_message");
    message_->setWordWrap(true);
    message_->setStyleSheet("QLabel { color: #a40000; }");
    message_->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::Ok), &QPushButton::clicked, this, [this] {
      const QString err = accept_ ? accept_() : QString();
      if (err.isEmpty()) QDialog::accept();
      message_->setText(err);
      message_->setVisible(!err.isEmpty());
    });
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(form_);
    lay->addWidget(message_);
    lay->addWidget(buttons);
  }
  QLineEdit* text(const QString& key, const QString& label, const QString& value) {
    auto* e = new QLineEdit(value);
    add(key, label, e);
    return e;
  }
  QComboBox* choice(const QString& key, const QString& label, const QStringList& items, const QString& current) {
    auto* c = new QComboBox;
    c->addItems(items);
    c->setCurrentIndex(std::max(0, int(items.indexOf(current))));
    add(key, label, c);
    return c;
  }
  QCheckBox* check(const QString& key, const QString& label, bool on) {
    auto* b = new QCheckBox;
    b->setChecked(on);
    add(key, label, b);
    return b;
  }
  QString value(const QString& key) const {
    QWidget* w = fields_.at(key);
    if (auto* e = qobject_cast<QLineEdit*>(w)) return e->text().trimmed();
    if (auto* c = qobject_cast<QComboBox*>(w)) return c->currentText();
    if (auto* b = qobject_cast<QCheckBox*>(w)) return b->isChecked() ? "1" : "0";
    return {};
  }
  std::string str(const QString& key) const { return value(key).toStdString(); }
  void onAccept(std::function<QString()> f) { accept_ = std::move(f); }

 private:
  void add(const QString& key, const QString& label, QWidget* w) {
    w->setObjectName("dlg_" + key);
    form_->addRow(label, w);
    fields_[key] = w;
  }
  QFormLayout* form_;
  QLabel* message_;
  std::map<QString, QWidget*> fields_;
  std::function<QString()> accept_;
};

QStringList typeNames(const std::vector<MechTypeDecl>& decls) {
  QStringList l;
  for (const MechTypeDecl& d : decls) l << QString::fromStdString(d.name);
  return l;
}

const char* kXyz[3] = {"x", "y", "z"};
const char* kRpy[3] = {"roll", "pitch", "yaw"};

}  // namespace

MechanismActions::MechanismActions(Document* doc, SelectionModel* selection, MechanismView* view, QWidget* dialogParent)
    : QObject(dialogParent), doc_(doc), selection_(selection), view_(view), parent_(dialogParent) {
  auto make = [this](const QString& text, const QString& name, const QString& tip, void (MechanismActions::*slot)()) {
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    a->setToolTip(tip);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  addPart_ = make(tr("Add Part..."), "actAddPart", tr("Add a rigid part to the mechanism"), &MechanismActions::onAddPart);
  addBeam_ = make(tr("Add Flexible Body"), "actAddFlexibleBody",
                  tr("Add a beam that bends (0.5 m aluminium bar, 10 elements) clamped to the ground at the origin; "
                     "edit its length, elements, section, material and damping in the form"),
                  &MechanismActions::onAddFlexibleBody);
  addMarker_ = make(tr("Add Marker..."), "actAddMarker", tr("Add a marker (a frame) to the selected part"),
                    &MechanismActions::onAddMarker);
  addJoint_ = make(tr("Add Joint..."), "actAddJoint", tr("Add a joint between two markers"), &MechanismActions::onAddJoint);
  addForce_ = make(tr("Add Force..."), "actAddForce", tr("Add a spring, damper or applied force"),
                   &MechanismActions::onAddForce);
  addLatch_ = make(tr("Add Latch..."), "actAddLatch",
                   tr("Add a latch: a joint between two markers that engages when they come within a capture "
                      "radius or a signal says so, or from the start"),
                   &MechanismActions::onAddLatch);
  addContact_ = make(tr("Add Contact..."), "actAddContact",
                     tr("Add a contact between two parts or flexible bodies: select the first, then the second (in the "
                        "3D view or the model tree), then Add Contact, or pick them in the 3D view from its dialog; "
                        "the shapes come from the parts' display geometry, on the marker you choose"),
                     &MechanismActions::onAddContact);
  addMotion_ = make(tr("Add Motion..."), "actAddMotion", tr("Drive a joint with a prescribed motion"),
                    &MechanismActions::onAddMotion);
  delete_ = make(tr("Delete"), "actDeleteObject", tr("Delete the selected mechanism object (and what depends on it)"),
                 &MechanismActions::onDelete);
  // Delete acts where the focus is: this action in the model tree and the
  // 3D view, the schematic's own Delete on the canvas.
  delete_->setShortcut(QKeySequence::Delete);
  delete_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  if (view_) view_->addAction(delete_);
  attach_ = make(tr("Attach Cylinder"), "actAttachCylinder",
                 tr("Attach the selected cylinder: click its barrel-end marker, then its rod-end marker in the 3D view"),
                 &MechanismActions::onAttach);
  detach_ = new QAction(tr("Detach Actuator"), this);
  detach_->setObjectName("actDetachCylinder");
  detach_->setToolTip(tr("The selected cylinder or semi-rotary actuator no longer acts on the mechanism"));
  connect(detach_, &QAction::triggered, this, [this] {
    const std::string id = selection_->current().toStdString();
    doc_->edit(tr("Detach %1").arg(selection_->current()), [&](Project& p) { clearAttachment(p, id); });
  });
  toolBar_ = new QToolBar;
  toolBar_->setObjectName("mechanismToolBar");
  toolBar_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  // Its buttons never widen the dock (the rest folds into the extension).
  toolBar_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  auto* addMenu = new QMenu(tr("Add"), toolBar_);
  addMenu->addActions({addPart_, addBeam_, addMarker_, addJoint_, addForce_, addMotion_, addContact_, addLatch_});
  auto* addButton = new QToolButton;
  addButton->setText(tr("Add"));
  addButton->setObjectName("mechanismAddButton");
  addButton->setMenu(addMenu);
  addButton->setPopupMode(QToolButton::InstantPopup);
  toolBar_->addWidget(addButton);
  toolBar_->addAction(delete_);
  toolBar_->addAction(attach_);
  toolBar_->addAction(detach_);
  connect(doc_, &Document::changed, this, &MechanismActions::updateEnabled);
  connect(selection_, &SelectionModel::changed, this, &MechanismActions::updateEnabled);
  connect(selection_, &SelectionModel::changed, this, &MechanismActions::notePart);
  if (view_) {
    connect(view_, &MechanismView::markerPicked, this, &MechanismActions::onMarkerPicked);
    connect(view_, &MechanismView::markerPickCancelled, this, &MechanismActions::onPickCancelled);
  }
  updateEnabled();
}

QList<QAction*> MechanismActions::actions() const {
  return {addPart_, addBeam_, addMarker_, addJoint_, addForce_, addMotion_, addContact_, addLatch_, delete_, attach_, detach_};
}

void MechanismActions::updateEnabled() {
  const Project& p = doc_->project();
  const std::string id = selection_->current().toStdString();
  const ObjectKind kind = objectKind(p, id);
  const int markers = int(markerRefs(p.mechanism).size());
  addMarker_->setEnabled(!p.mechanism.parts.empty());
  addJoint_->setEnabled(markers >= 2);
  addLatch_->setEnabled(markers >= 2);
  addContact_->setEnabled(p.mechanism.parts.size() + p.mechanism.flexible_bodies.size() >= 2);
  addForce_->setEnabled(markers >= 1);
  addMotion_->setEnabled(!drivableJoints(p.mechanism, false).isEmpty());
  delete_->setEnabled(kind != ObjectKind::None && kind != ObjectKind::Component);
  const Component* c = kind == ObjectKind::Component ? p.find(id) : nullptr;
  attach_->setEnabled(c && isCylinder(*c) && markers >= 2);
  detach_->setEnabled(c && isActuator(*c) && attachment(*c).is_object());
}

// ----------------------------------------------------------------- add

void MechanismActions::onAddPart() {
  auto* d = new PartShapeDialog(parent_, doc_->project(), doc_->file(), [this](const PartDef& part) {
    Project changed = doc_->project();
    if (QString err = checkNewId(changed, part.id); !err.isEmpty()) return err;
    changed.mechanism.parts.push_back(part);
    doc_->edit(tr("Add part %1").arg(QString::fromStdString(part.id)), [&](Project& q) { q = changed; });
    selection_->select(QString::fromStdString(part.id));
    return QString();
  });
  d->open();
}

void MechanismActions::onAddFlexibleBody() {
  Project changed = doc_->project();
  const std::string id = gui::addFlexibleBody(changed, gui::newBeamRoot(changed));
  doc_->edit(tr("Add flexible body %1").arg(QString::fromStdString(id)), [&](Project& q) { q = changed; });
  selection_->select(QString::fromStdString(id));
}

void MechanismActions::onAddMarker() {
  const Project& p = doc_->project();
  if (p.mechanism.parts.empty()) return;
  QStringList parts;
  for (const PartDef& q : p.mechanism.parts) parts << QString::fromStdString(q.id);
  // On the selected part, or the part of the selected marker.
  QString current = selection_->current().section('.', 0, 0);
  if (!parts.contains(current)) current = parts.front();
  auto* d = new ObjectDialog(parent_, "addMarkerDialog", tr("Add Marker"));
  QComboBox* part = d->choice("part", tr("Part"), parts, current);
  QLineEdit* id = d->text("id", tr("Id"), QString::fromStdString(freshMarkerId(*p.mechanism.part(current.toStdString()))));
  connect(part, &QComboBox::currentTextChanged, d, [this, id](const QString& name) {
    if (const PartDef* q = doc_->project().mechanism.part(name.toStdString()))
      id->setText(QString::fromStdString(freshMarkerId(*q)));
  });
  for (const char* a : kXyz) d->text(QString("position.") + a, tr("Position %1 [mm]").arg(a), "0");
  for (const char* a : kRpy) d->text(QString("orientation.") + a, tr("%1 [deg]").arg(a), "0");
  d->onAccept([this, d] {
    Project changed = doc_->project();
    const std::string partId = d->str("part"), markerId = d->str("id");
    if (QString err = checkNewMarkerId(changed.mechanism, partId, markerId); !err.isEmpty()) return err;
    MarkerDef mk;
    mk.id = markerId;
    findPart(changed.mechanism, partId)->markers.push_back(mk);
    const std::string ref = partId + "." + markerId;
    for (const char* group : {"position.", "orientation."})
      for (int k = 0; k < 3; ++k) {
        const QString key = QString(group) + (group[0] == 'p' ? kXyz[k] : kRpy[k]);
        if (QString err = applyField(changed, ref, key.toStdString(), d->value(key)); !err.isEmpty()) return err;
      }
    doc_->edit(tr("Add marker %1").arg(QString::fromStdString(ref)), [&](Project& q) { q = changed; });
    selection_->select(QString::fromStdString(ref));
    return QString();
  });
  d->open();
}

void MechanismActions::onAddJoint() {
  const Project& p = doc_->project();
  const QStringList markers = markerRefs(p.mechanism);
  if (markers.size() < 2) return;
  auto* d = new ObjectDialog(parent_, "addJointDialog", tr("Add Joint"));
  d->text("id", tr("Id"), QString::fromStdString(freshObjectId(p, "joint")));
  QComboBox* type = d->choice("type", tr("Type"), typeNames(jointTypes()), "revolute");
  const QString sel = selection_->current();
  QComboBox* i = d->choice("i", tr("I marker (moves)"), markers, markers.contains(sel) ? sel : markers.at(1));
  QComboBox* j = d->choice("j", tr("J marker"), markers, markers.front());
  // A coupler ties two joints' coordinates (a gear pair) instead of two markers.
  const QStringList coupled = drivableJoints(p.mechanism, false);
  QComboBox* j1 = d->choice("joint1", tr("Coupled joint 1"), coupled, coupled.value(0));
  QComboBox* j2 = d->choice("joint2", tr("Coupled joint 2"), coupled, coupled.value(1));
  auto byType = [=](const QString& t) {
    const bool coupler = t == "coupler";
    for (QComboBox* c : {i, j}) c->setEnabled(!coupler);
    for (QComboBox* c : {j1, j2}) c->setEnabled(coupler);
  };
  connect(type, &QComboBox::currentTextChanged, d, byType);
  byType(type->currentText());
  d->onAccept([this, d] {
    Project changed = doc_->project();
    JointDef j;
    j.id = d->str("id");
    j.type = d->str("type");
    if (QString err = checkNewId(changed, j.id); !err.isEmpty()) return err;
    if (j.type == "coupler") {
      j.joints = {d->str("joint1"), d->str("joint2")};
      if (j.joints[0].empty() || j.joints[1].empty()) return tr("a coupler needs two revolute, translational or cylindrical joints");
      if (j.joints[0] == j.joints[1]) return tr("a coupler couples two different joints");
      changed.mechanism.joints.push_back(j);
      doc_->edit(tr("Add coupler %1").arg(QString::fromStdString(j.id)), [&](Project& q) { q = changed; });
      selection_->select(QString::fromStdString(j.id));
      return QString();
    }
    j.i = d->str("i");
    j.j = d->str("j");
    if (j.i == j.j) return tr("I and J must be different markers");
    if (j.i.substr(0, j.i.find('.')) == j.j.substr(0, j.j.find('.')))
      return tr("I and J are on the same part: a joint connects two parts");
    changed.mechanism.joints.push_back(j);
    doc_->edit(tr("Add joint %1").arg(QString::fromStdString(j.id)), [&](Project& q) { q = changed; });
    selection_->select(QString::fromStdString(j.id));
    return QString();
  });
  d->open();
}

void MechanismActions::onAddForce() {
  const Project& p = doc_->project();
  const QStringList markers = markerRefs(p.mechanism);
  if (markers.isEmpty()) return;
  auto* d = new ObjectDialog(parent_, "addForceDialog", tr("Add Force"));
  d->text("id", tr("Id"), QString::fromStdString(freshObjectId(p, "force")));
  d->choice("type", tr("Type"), typeNames(forceTypes()), "spring_damper");
  const QString sel = selection_->current();
  d->choice("i", tr("I marker"), markers, markers.contains(sel) ? sel : markers.back());
  d->choice("j", tr("J marker"), QStringList{""} + markers, markers.front());
  d->onAccept([this, d] {
    Project changed = doc_->project();
    ForceDef f;
    f.id = d->str("id");
    f.type = d->str("type");
    f.i = d->str("i");
    f.j = d->str("j");
    if (QString err = checkNewId(changed, f.id); !err.isEmpty()) return err;
    const MechTypeDecl* decl = findForceType(f.type);
    if (f.j.empty() && decl && !decl->j_optional) return tr("a %1 needs a J marker").arg(QString::fromStdString(f.type));
    if (f.i == f.j) return tr("I and J must be different markers");
    changed.mechanism.forces.push_back(f);
    doc_->edit(tr("Add force %1").arg(QString::fromStdString(f.id)), [&](Project& q) { q = changed; });
    selection_->select(QString::fromStdString(f.id));
    return QString();
  });
  d->open();
}

// A latch needs its markers and a condition: a capture radius, an engage
// signal, or engaged from the start (the rest in the file or with --set).
void MechanismActions::onAddLatch() {
  const Project& p = doc_->project();
  const QStringList markers = markerRefs(p.mechanism);
  if (markers.size() < 2) return;
  auto* d = new ObjectDialog(parent_, "addLatchDialog", tr("Add Latch"));
  d->text("id", tr("Id"), QString::fromStdString(freshObjectId(p, "latch")));
  QStringList types = typeNames(jointTypes());
  types.removeAll("coupler");
  d->choice("type", tr("Joint when engaged"), types, "fixed");
  const QString sel = selection_->current();
  d->choice("i", tr("I marker"), markers, markers.contains(sel) ? sel : markers.at(1));
  d->choice("j", tr("J marker"), markers, markers.front());
  d->text("capture_radius", tr("Capture radius [mm]"), "0");
  d->text("engage", tr("Engage signal"), "");
  d->text("release", tr("Release signal"), "");
  d->check("engaged", tr("Engaged at the start"), false);
  d->onAccept([this, d] {
    Project changed = doc_->project();
    LatchDef l;
    l.id = d->str("id");
    l.type = d->str("type");
    l.i = d->str("i");
    l.j = d->str("j");
    l.engage = d->str("engage");
    l.release = d->str("release");
    if (QString err = checkNewId(changed, l.id); !err.isEmpty()) return err;
    if (l.i.substr(0, l.i.find('.')) == l.j.substr(0, l.j.find('.')))
      return tr("I and J are on the same part: a latch joins two parts");
    bool ok = false;
    const double radius = d->value("capture_radius").toDouble(&ok) * 1e-3;
    if (!ok || radius < 0.0) return tr("the capture radius is a length in mm, 0 or more");
    const bool atStart = d->value("engaged") == "1";
    if (radius <= 0.0 && l.engage.empty() && !atStart)
      return tr("a latch needs a condition: a capture radius, an engage signal or engaged at the start");
    if (radius > 0.0) l.params["capture_radius"] = radius;
    if (atStart) l.params["engaged"] = 1.0;
    changed.mechanism.latches.push_back(l);
    doc_->edit(tr("Add latch %1").arg(QString::fromStdString(l.id)), [&](Project& q) { q = changed; });
    selection_->select(QString::fromStdString(l.id));
    return QString();
  });
  d->open();
}

// A part or a flexible body, or the body of a marker ("<body>.<marker>"),
// joins the two remembered for Add Contact.
void MechanismActions::notePart(const QString& id) {
  const Project& p = doc_->project();
  const ObjectKind kind = objectKind(p, id.toStdString());
  if (kind != ObjectKind::Part && kind != ObjectKind::FlexibleBody && kind != ObjectKind::Marker &&
      !(kind == ObjectKind::None && id.contains('.')))
    return;
  const QString part = id.section('.', 0, 0);
  if (!p.mechanism.part(part.toStdString()) && !p.mechanism.flexibleBody(part.toStdString())) return;
  recentParts_.removeAll(part);
  recentParts_.append(part);
  while (recentParts_.size() > 2) recentParts_.removeFirst();
}

void MechanismActions::onAddContact() {
  const Mechanism& m = doc_->project().mechanism;
  if (m.parts.size() + m.flexible_bodies.size() < 2) return;
  QStringList parts;
  for (const QString& q : recentParts_)
    if (m.part(q.toStdString()) || m.flexibleBody(q.toStdString())) parts << q;
  // One part selected: it is J (the moving one), the ground I.
  if (parts.size() == 1)
    for (const PartDef& q : m.parts)
      if (q.ground && QString::fromStdString(q.id) != parts.front()) parts.prepend(QString::fromStdString(q.id));
  auto* d = new ContactDialog(doc_, selection_, view_ && view_->isVisible() ? view_ : nullptr, parts.value(0),
                              parts.value(1), parent_);
  d->open();
}

void MechanismActions::onAddMotion() {
  const Project& p = doc_->project();
  const QStringList joints = drivableJoints(p.mechanism, false);
  if (joints.isEmpty()) return;
  auto* d = new ObjectDialog(parent_, "addMotionDialog", tr("Add Motion"));
  d->text("id", tr("Id"), QString::fromStdString(freshObjectId(p, "motion")));
  const QString sel = selection_->current();
  d->choice("joint", tr("Joint"), joints, joints.contains(sel) ? sel : joints.front());
  d->choice("quantity", tr("Quantity"), {"displacement", "velocity"}, "displacement");
  QComboBox* function = d->choice("function", tr("Function"), typeNames(motionFunctions()), "ramp");
  // A time table: "t value; t value; ..." in s and the joint's display unit.
  QLineEdit* table = d->text("table", tr("Table (t [s] value; ...)"), "0 0; 1 10");
  table->setToolTip(tr("Points (t, value): value in mm or deg (mm/s, deg/s for a velocity)"));
  auto byFunction = [table](const QString& f) { table->setEnabled(f == "table"); };
  connect(function, &QComboBox::currentTextChanged, d, byFunction);
  byFunction(function->currentText());
  d->onAccept([this, d] {
    Project changed = doc_->project();
    MotionDef m;
    m.id = d->str("id");
    m.joint = d->str("joint");
    m.quantity = d->str("quantity");
    m.function = d->str("function");
    if (QString err = checkNewId(changed, m.id); !err.isEmpty()) return err;
    changed.mechanism.motions.push_back(m);
    if (m.function == "table")
      if (QString err = applyField(changed, m.id, "table", d->value("table")); !err.isEmpty()) return err;
    doc_->edit(tr("Add motion %1").arg(QString::fromStdString(m.id)), [&](Project& q) { q = changed; });
    selection_->select(QString::fromStdString(m.id));
    return QString();
  });
  d->open();
}

void MechanismActions::onDelete() {
  const std::string id = selection_->current().toStdString();
  const ObjectKind kind = objectKind(doc_->project(), id);
  if (kind == ObjectKind::None || kind == ObjectKind::Component) return;
  if (doc_->edit(tr("Delete %1").arg(selection_->current()), [&](Project& p) { removeMechanismObject(p, id); }))
    selection_->clear();
}

// ----------------------------------------------------------------- attach

void MechanismActions::onAttach() {
  const QString cyl = selection_->current();
  const Component* c = doc_->project().find(cyl.toStdString());
  if (!c || !isCylinder(*c)) return;
  if (!view_ || !view_->isVisible()) {
    // No 3D view: choose the two markers from lists.
    const QStringList markers = markerRefs(doc_->project().mechanism);
    const nlohmann::json a = attachment(*c);
    auto* d = new ObjectDialog(parent_, "attachDialog", tr("Attach %1").arg(cyl));
    d->choice("barrel", tr("Barrel-end marker"), markers,
              a.is_object() ? QString::fromStdString(a.value("barrel", "")) : markers.front());
    d->choice("rod", tr("Rod-end marker"), markers, a.is_object() ? QString::fromStdString(a.value("rod", "")) : markers.back());
    d->onAccept([this, d, cyl] {
      if (d->value("barrel") == d->value("rod")) return tr("barrel and rod ends must be different markers");
      doc_->edit(tr("Attach %1").arg(cyl), [&](Project& p) { setAttachment(p, cyl.toStdString(), d->str("barrel"), d->str("rod")); });
      return QString();
    });
    d->open();
    return;
  }
  attaching_ = cyl;
  barrel_.clear();
  view_->beginMarkerPick(tr("Attach %1: click the barrel-end marker").arg(cyl), this);
  emit statusMessage(tr("Attach %1: click the barrel-end marker in the 3D view").arg(cyl));
}

void MechanismActions::onMarkerPicked(const QString& ref) {
  if (attaching_.isEmpty()) return;
  if (view_->pickOwner() != this) {  // another command took the view over
    attaching_.clear();
    barrel_.clear();
    return;
  }
  if (barrel_.isEmpty()) {
    barrel_ = ref;
    view_->beginMarkerPick(tr("Attach %1: barrel at %2; now click the rod-end marker").arg(attaching_, ref), this);
    emit statusMessage(tr("Barrel end %1; now click the rod-end marker").arg(ref));
    return;
  }
  if (ref == barrel_) {
    view_->beginMarkerPick(tr("Attach %1: the rod end must be another marker than %2").arg(attaching_, ref), this);
    return;
  }
  const QString cyl = attaching_;
  const QString barrel = barrel_;
  attaching_.clear();
  barrel_.clear();
  doc_->edit(tr("Attach %1").arg(cyl),
             [&](Project& p) { setAttachment(p, cyl.toStdString(), barrel.toStdString(), ref.toStdString()); });
  selection_->select(cyl);
  emit statusMessage(tr("%1 attached: barrel %2, rod %3").arg(cyl, barrel, ref));
}

void MechanismActions::onPickCancelled() {
  if (attaching_.isEmpty()) return;
  attaching_.clear();
  barrel_.clear();
  emit statusMessage(tr("Attaching cancelled"));
}

}  // namespace pm::gui
