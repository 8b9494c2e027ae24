#include "contact_dialog.h"

#include "contact_editing.h"
#include "document.h"
#include "engine/engine.h"
#include "mechanism_editing.h"
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

ContactDialog::ContactDialog(Document* doc, SelectionModel* selection, const QString& partI, const QString& partJ,
                             QWidget* parent)
    : QDialog(parent), doc_(doc), selection_(selection) {
  setObjectName("addContactDialog");
  setWindowTitle(tr("Add Contact"));
  setAttribute(Qt::WA_DeleteOnClose);
  const Project& p = doc_->project();
  QStringList parts;
  for (const PartDef& q : p.mechanism.parts) parts << QString::fromStdString(q.id);

  auto* form = form_ = new QFormLayout;
  id_ = new QLineEdit(QString::fromStdString(freshObjectId(p, "contact")));
  id_->setObjectName("dlg_id");
  form->addRow(tr("Id"), id_);
  const QString wanted[2] = {partI, partJ};
  for (int side = 0; side < 2; ++side) {
    part_[side] = new QComboBox;
    part_[side]->setObjectName(QString("dlg_%1_part").arg(kSide[side]));
    part_[side]->addItems(parts);
    const int at = int(parts.indexOf(wanted[side]));
    part_[side]->setCurrentIndex(at >= 0 ? at : std::min(side, int(parts.size()) - 1));
    shape_[side] = new QComboBox;
    shape_[side]->setObjectName(QString("dlg_%1_shape").arg(kSide[side]));
    shape_[side]->setMinimumContentsLength(28);
    form->addRow(side == 0 ? tr("I part") : tr("J part"), part_[side]);
    form->addRow(side == 0 ? tr("I shape") : tr("J shape"), shape_[side]);
    connect(part_[side], &QComboBox::currentIndexChanged, this, [this, side] { fillShapes(side); });
    connect(shape_[side], &QComboBox::currentIndexChanged, this, [this] {
      markUnsupported();
      showMeshRow();
    });
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
  auto* note = new QLabel(tr("The normal force pushes J's part away from I's. A shape sits on a marker of its part "
                             "(one is added where the drawn shape has none at its centre)."));
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

QString ContactDialog::message() const { return message_->text(); }

void ContactDialog::fillShapes(int side) {
  QComboBox* c = shape_[side];
  const QSignalBlocker block(c);
  c->clear();
  const auto options = contactShapeOptions(doc_->project().mechanism, part_[side]->currentText().toStdString());
  for (const ContactShapeOption& o : options) c->addItem(o.label, QString::fromStdString(o.shape.shape));
  // The core takes a mesh on a part that cannot move only.
  const std::string part = part_[side]->currentText().toStdString();
  if (partCannotMove(doc_->project().mechanism, part)) c->addItem(tr("Mesh from STL/OBJ file..."), kMeshChoice);
  // I: the first shape; J: the first one the core can pair with I's.
  c->setCurrentIndex(c->count() > 0 ? 0 : -1);
  if (side == 1)
    for (int k = 0; k < c->count(); ++k)
      if (engine::contactPairSupported(shape_[0]->currentData().toString().toStdString(),
                                       c->itemData(k).toString().toStdString())) {
        c->setCurrentIndex(k);
        break;
      }
  markUnsupported();
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

QString ContactDialog::add() {
  Project changed = doc_->project();
  ContactDef c;
  c.id = id_->text().trimmed().toStdString();
  if (QString err = checkNewId(changed, c.id); !err.isEmpty()) return err;
  std::string parts[2];
  for (int side = 0; side < 2; ++side) parts[side] = part_[side]->currentText().toStdString();
  if (parts[0] == parts[1]) return tr("I and J are the same part: a contact is between two parts");
  for (int side = 0; side < 2; ++side) {
    if (shape_[side]->currentData() == kMeshChoice) {
      if (doc_->file().isEmpty()) return tr("Save the project first: a mesh file is read from its folder");
      ContactShapeDef& s = side == 0 ? c.i : c.j;
      const QString folder = QFileInfo(doc_->file()).absolutePath();
      if (QString err = placeMeshShape(changed.mechanism, parts[side], folder.toStdString(),
                                       meshFile_->text().trimmed().toStdString(), meshUnit_->currentData().toDouble(),
                                       kSide[side], &s);
          !err.isEmpty())
        return err;
      continue;
    }
    const auto options = contactShapeOptions(changed.mechanism, parts[side]);
    const int k = shape_[side]->currentIndex();
    if (k < 0 || k >= int(options.size()))
      return tr("part %1 has no shape for a contact: give it display geometry or a marker")
          .arg(QString::fromStdString(parts[side]));
    (side == 0 ? c.i : c.j) = placeContactShape(changed.mechanism, parts[side], options[size_t(k)]);
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
