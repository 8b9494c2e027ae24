#include "mechanism_form.h"

#include "document.h"
#include "mechanism_editing.h"
#include "undo_keys.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace pm::gui {

namespace {

// Which frame the object's numbers are in and, for a joint, about which axis
// it turns (issue 28: "rotation about the z axis of marker J").
QString frameNote(const Project& p, const std::string& id) {
  const Mechanism& m = p.mechanism;
  switch (objectKind(p, id)) {
    case ObjectKind::Part:
      return QObject::tr("Position and orientation: the part frame in the world frame (the grid is world z = 0). "
                         "Centre of mass and inertia: in the part frame.");
    case ObjectKind::Marker: {
      const std::string part = id.substr(0, id.find('.'));
      return QObject::tr("Position and orientation in the frame of part %1 (not the world).")
          .arg(QString::fromStdString(part));
    }
    case ObjectKind::Joint: {
      const JointDef* d = nullptr;
      for (const JointDef& j : m.joints)
        if (j.id == id) d = &j;
      if (!d) return {};
      const QString i = QString::fromStdString(d->i), j = QString::fromStdString(d->j);
      if (d->type == "revolute")
        return QObject::tr("Rotation about the z axis of marker J (%1); I (%2) turns relative to J.").arg(j, i);
      if (d->type == "translational")
        return QObject::tr("Sliding along the z axis of marker J (%1); I (%2) moves relative to J.").arg(j, i);
      if (d->type == "cylindrical")
        return QObject::tr("Rotation about and sliding along the z axis of marker J (%1).").arg(j);
      if (d->type == "planar")
        return QObject::tr("I (%2) moves in the xy plane of marker J (%1) and turns about its z axis.").arg(j, i);
      if (d->type == "spherical") return QObject::tr("Free rotation about the common origin of I (%1) and J (%2).").arg(i, j);
      if (d->type == "universal")
        return QObject::tr("Shafts along the z axes of I (%1) and J (%2); cross arms along I's x and J's y.").arg(i, j);
      return {};
    }
    case ObjectKind::Contact:
      return QObject::tr("Each shape sits in its marker's axes (a plane: the marker's xy-plane, z out of the solid); "
                         "the normal force pushes J's part away from I's. Results: %1.normal_force, .friction_force, "
                         ".penetration, .in_contact.").arg(QString::fromStdString(id));
    case ObjectKind::Latch:
      return QObject::tr("Engaged, the joint holds I to J where the parts are at that instant (J's frame taken at I's). "
                         "Results: %1.engaged, .force, .energy_lost.").arg(QString::fromStdString(id));
    default: return {};
  }
}

}  // namespace

MechanismForm::MechanismForm(Document* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
  setObjectName("mechanismForm");
  message_ = new QLabel;
  message_->setObjectName("mechanismMessage");
  message_->setWordWrap(true);
  message_->setStyleSheet("QLabel { color: #a40000; background: #fdecea; border: 1px solid #f5c2c0;"
                          " border-radius: 3px; padding: 4px; }");
  message_->hide();
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->addWidget(message_);
  lay->addStretch(1);
  connect(doc_, &Document::changed, this, &MechanismForm::refresh);
}

QString MechanismForm::message() const { return message_->text(); }

void MechanismForm::showMessage(const QString& text) {
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

void MechanismForm::setObject(const std::string& id) {
  showMessage({});
  if (id == id_ && body_) return;
  id_ = id;
  rebuild();
}

QWidget* MechanismForm::fieldEditor(const std::string& key) const {
  return body_ ? body_->findChild<QWidget*>(QString::fromStdString("field_" + key)) : nullptr;
}

void MechanismForm::refresh() {
  const auto fields = editFields(doc_->project(), id_);
  std::vector<std::string> keys;
  for (const EditField& f : fields) keys.push_back(f.key);
  if (keys != keys_) {  // another kind or type: other fields
    rebuild();
    return;
  }
  // Same fields: new values in place, so an editor in use is not destroyed.
  if (auto* note = body_ ? body_->findChild<QLabel*>("frameNote") : nullptr)
    note->setText(frameNote(doc_->project(), id_));
  for (const EditField& f : fields) {
    QWidget* w = fieldEditor(f.key);
    if (auto* e = qobject_cast<QLineEdit*>(w)) {
      if (!e->hasFocus() || !e->isModified()) e->setText(f.value), e->setModified(false);
    } else if (auto* c = qobject_cast<QComboBox*>(w)) {
      const QSignalBlocker block(c);
      c->clear();
      c->addItems(f.choices);
      c->setCurrentIndex(int(f.choices.indexOf(f.value)));
    } else if (auto* b = qobject_cast<QCheckBox*>(w)) {
      const QSignalBlocker block(b);
      b->setChecked(f.value == "1");
    }
  }
}

void MechanismForm::rebuild() {
  // The old editors may be inside their own signal (a type just chosen).
  if (body_) body_->hide(), body_->deleteLater();
  body_ = nullptr;
  keys_.clear();
  if (id_.empty()) return;
  body_ = new QWidget(this);
  form_ = new QFormLayout(body_);
  form_->setContentsMargins(0, 0, 0, 0);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  static_cast<QVBoxLayout*>(layout())->insertWidget(0, body_);
  const QString note = frameNote(doc_->project(), id_);
  if (!note.isEmpty()) {
    auto* l = new QLabel(note);
    l->setObjectName("frameNote");
    l->setWordWrap(true);
    l->setStyleSheet("QLabel { color: #3a4a5c; }");
    form_->addRow(l);
  }
  for (const EditField& f : editFields(doc_->project(), id_)) {
    keys_.push_back(f.key);
    const QString name = QString::fromStdString("field_" + f.key);
    const std::string key = f.key;
    QWidget* editor = nullptr;
    switch (f.kind) {
      case EditField::Kind::Number:
      case EditField::Kind::Text: {
        auto* e = new QLineEdit(f.value);
        e->setReadOnly(!f.editable);
        passUndoToDocument(e);  // Ctrl+Z undoes the last edit while the field has the focus
        connect(e, &QLineEdit::editingFinished, this, [this, e, key] {
          if (e->isModified()) commit(key, e->text());
          e->setModified(false);
        });
        editor = e;
        break;
      }
      case EditField::Kind::Choice: {
        auto* c = new QComboBox;
        c->addItems(f.choices);
        c->setCurrentIndex(int(f.choices.indexOf(f.value)));
        connect(c, &QComboBox::activated, this, [this, c, key] { commit(key, c->currentText()); });
        editor = c;
        break;
      }
      case EditField::Kind::Flag: {
        auto* b = new QCheckBox;
        b->setChecked(f.value == "1");
        connect(b, &QCheckBox::toggled, this, [this, key](bool on) { commit(key, on ? "1" : "0"); });
        editor = b;
        break;
      }
    }
    editor->setObjectName(name);
    editor->setToolTip(f.tip);
    editor->setEnabled(f.editable || f.kind == EditField::Kind::Text);
    form_->addRow(f.unit.isEmpty() ? f.label : QString("%1 [%2]").arg(f.label, f.unit), editor);
  }
}

void MechanismForm::commit(const std::string& key, const QString& text) {
  Project changed = doc_->project();
  const QString err = applyField(changed, id_, key, text, doc_->file().toStdString());
  if (!err.isEmpty()) {
    showMessage(err);
    emit rejected(err);
    refresh();
    return;
  }
  showMessage({});
  if (key == "id") {
    // The form follows the object under its new name.
    std::string newId;
    Project probe = doc_->project();
    renameObject(probe, id_, text.toStdString(), &newId);
    if (newId == id_) return;
    const QString what = tr("Rename %1 to %2").arg(QString::fromStdString(id_), QString::fromStdString(newId));
    id_ = newId;
    doc_->edit(what, [&](Project& p) { p = changed; });
    emit renamed(QString::fromStdString(newId));
    return;
  }
  doc_->edit(tr("Set %1.%2").arg(QString::fromStdString(id_), QString::fromStdString(key)),
             [&](Project& p) { p = changed; });
}

}  // namespace pm::gui
