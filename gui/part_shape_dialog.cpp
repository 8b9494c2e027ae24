#include "part_shape_dialog.h"

#include "engine/engine.h"
#include "model/mass_properties.h"
#include "mechanism_editing.h"
#include "mesh_import.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace pm::gui {

namespace {

// The size fields each shape uses (mm; a mesh's scale is file units to m).
const std::map<std::string, std::vector<std::string>> kSizes = {
    {"box", {"lx", "ly", "lz"}},        {"cylinder", {"radius", "length"}},
    {"tube", {"radius", "inner_radius", "length"}}, {"sphere", {"radius"}},
    {"mesh", {"scale"}},                {"none", {}}};

}  // namespace

PartDef partFromShape(const PartShapeInput& in, const std::string& projectFile, QString* error) {
  PartDef p;
  p.id = in.id;
  p.ground = in.ground;
  for (int k = 0; k < 3; ++k) p.position[k] = in.position_mm[k] / 1000.0;
  *error = {};
  if (in.shape != "none") {
    Geometry g;
    g.shape = in.shape;
    for (const std::string& k : kSizes.at(in.shape)) {
      const auto it = in.size_mm.find(k);
      if (it == in.size_mm.end() || !(it->second > 0.0)) {
        *error = QObject::tr("%1: must be > 0").arg(QString::fromStdString(k));
        return p;
      }
      g.size[k] = k == "scale" ? it->second : it->second / 1000.0;
    }
    if (in.shape == "mesh") {
      if (in.file.empty()) {
        *error = QObject::tr("file: choose an STL or OBJ file");
        return p;
      }
      g.file = in.file;
    }
    p.geometry.push_back(g);
  }
  if (in.ground) return p;  // drawn only: the ground has no mass properties
  if (in.shape == "none") {  // a point mass as typed
    p.mass = in.mass;
    if (!(p.mass > 0.0)) *error = QObject::tr("mass: must be > 0 kg");
    return p;
  }
  p.mass_properties = "from_geometry";
  if (in.basis == "density") p.density = in.density;
  else if (in.basis == "mass") p.mass = in.mass;
  else p.material = in.basis;
  if (auto e = applyMassProperties(p, engine::meshReader(projectFile)))
    *error = QString::fromStdString(e->field + ": " + e->message);
  return p;
}

QLineEdit* PartShapeDialog::number(const QString& key, const QString& value) {
  auto* e = new QLineEdit(value);
  e->setObjectName("dlg_" + key);
  numbers_[key] = e;
  connect(e, &QLineEdit::textChanged, this, &PartShapeDialog::refresh);
  return e;
}

PartShapeDialog::PartShapeDialog(QWidget* parent, const Project& project, const QString& projectFile,
                                 std::function<QString(const PartDef&)> accept)
    : QDialog(parent), projectFile_(projectFile), accept_(std::move(accept)) {
  setObjectName("addPartDialog");
  setWindowTitle(tr("Add Part"));
  setAttribute(Qt::WA_DeleteOnClose);
  auto* form = new QFormLayout;
  id_ = new QLineEdit(QString::fromStdString(freshObjectId(project, "part")));
  id_->setObjectName("dlg_id");
  form->addRow(tr("Id"), id_);
  ground_ = new QCheckBox;
  ground_->setObjectName("dlg_ground");
  ground_->setChecked(std::none_of(project.mechanism.parts.begin(), project.mechanism.parts.end(),
                                   [](const PartDef& q) { return q.ground; }));
  form->addRow(tr("Ground (fixed)"), ground_);
  shape_ = new QComboBox;
  shape_->setObjectName("dlg_shape");
  shape_->addItems({"box", "cylinder", "tube", "sphere", "mesh", "none"});
  shape_->setToolTip(tr("Box and sphere centred on the part frame; cylinder and tube from it along its z axis; "
                        "mesh: an STL or OBJ file; none: a point mass typed in"));
  form->addRow(tr("Shape"), shape_);
  // The ground's default is a base plate, a moving part's a bar.
  const bool plate = ground_->isChecked();
  const std::vector<std::pair<QString, std::pair<QString, QString>>> sizes = {
      {"lx", {tr("Length x [mm]"), plate ? "600" : "500"}}, {"ly", {tr("Width y [mm]"), plate ? "600" : "40"}},
      {"lz", {tr("Height z [mm]"), "20"}},       {"radius", {tr("Radius [mm]"), "20"}},
      {"inner_radius", {tr("Inner radius [mm]"), "15"}}, {"length", {tr("Length z [mm]"), "100"}},
      {"scale", {tr("Scale (file units to m)"), "0.001"}}};
  for (const auto& [key, lv] : sizes) {
    QLineEdit* e = number(key, lv.second);
    form->addRow(lv.first, e);
    rows_[key] = e;
  }
  auto* fileRow = new QWidget;
  auto* fileLay = new QHBoxLayout(fileRow);
  fileLay->setContentsMargins(0, 0, 0, 0);
  file_ = new QLineEdit;
  file_->setObjectName("dlg_file");
  file_->setPlaceholderText(tr("STL or OBJ, in the project's folder"));
  connect(file_, &QLineEdit::textChanged, this, &PartShapeDialog::refresh);
  auto* browse = new QPushButton(tr("Import..."));
  browse->setObjectName("dlg_browse");
  connect(browse, &QPushButton::clicked, this, &PartShapeDialog::browseMesh);
  fileLay->addWidget(file_);
  fileLay->addWidget(browse);
  form->addRow(tr("Mesh file"), fileRow);
  rows_["file"] = fileRow;
  basis_ = new QComboBox;
  basis_->setObjectName("dlg_basis");
  for (const Material& m : materials()) basis_->addItem(QString::fromStdString(m.name));
  basis_->addItems({"density", "mass"});
  basis_->setToolTip(tr("A material (its density), a density typed in, or the mass spread over the volume"));
  form->addRow(tr("Material"), basis_);
  form->addRow(tr("Density [kg/m3]"), rows_["density"] = number("density", "7850"));
  form->addRow(tr("Mass [kg]"), rows_["mass"] = number("mass", "1"));
  for (const char* a : {"x", "y", "z"})
    form->addRow(tr("Position %1 [mm] (world)").arg(a), number(QString("position.") + a, "0"));
  properties_ = new QLabel;
  properties_->setObjectName("dlg_massProperties");
  properties_->setWordWrap(true);
  properties_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_ = new QLabel;
  message_->setObjectName("dlg_message");
  message_->setWordWrap(true);
  message_->setStyleSheet("QLabel { color: #a40000; }");
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::Ok), &QPushButton::clicked, this, [this] {
    QString err;
    const PartDef p = partFromShape(input(), projectFile_.toStdString(), &err);
    if (err.isEmpty()) err = accept_(p);
    if (err.isEmpty()) return QDialog::accept();
    message_->setText(err);
    message_->show();
  });
  for (QComboBox* c : {shape_, basis_}) connect(c, &QComboBox::currentTextChanged, this, &PartShapeDialog::refresh);
  connect(ground_, &QCheckBox::toggled, this, &PartShapeDialog::refresh);
  auto* lay = new QVBoxLayout(this);
  lay->addLayout(form);
  lay->addWidget(properties_);
  lay->addWidget(message_);
  lay->addWidget(buttons);
  refresh();
}

PartShapeInput PartShapeDialog::input() const {
  PartShapeInput in;
  in.id = id_->text().trimmed().toStdString();
  in.ground = ground_->isChecked();
  in.shape = shape_->currentText().toStdString();
  auto num = [this](const QString& k) { return numbers_.at(k)->text().trimmed().toDouble(); };
  for (const auto& [shape, keys] : kSizes)
    for (const std::string& k : keys)
      if (shape == in.shape) in.size_mm[k] = num(QString::fromStdString(k));
  in.file = file_->text().trimmed().toStdString();
  in.basis = basis_->currentText().toStdString();
  in.density = num("density");
  in.mass = num("mass");
  for (int k = 0; k < 3; ++k) in.position_mm[k] = num(QString("position.") + "xyz"[k]);
  return in;
}

// Which fields apply, and the mass properties of what is typed so far.
void PartShapeDialog::refresh() {
  const PartShapeInput in = input();
  const bool solid = !in.ground && in.shape != "none";
  auto show = [this](const QString& key, bool on) {
    QWidget* w = rows_.at(key);
    w->setVisible(on);
    if (auto* form = qobject_cast<QFormLayout*>(static_cast<QVBoxLayout*>(layout())->itemAt(0)->layout()))
      if (QWidget* label = form->labelForField(w)) label->setVisible(on);
  };
  for (const auto& [shape, keys] : kSizes)
    for (const std::string& k : keys)
      if (shape != in.shape) show(QString::fromStdString(k), false);
  for (const std::string& k : kSizes.at(in.shape)) show(QString::fromStdString(k), true);
  show("file", in.shape == "mesh");
  basis_->setEnabled(solid);
  show("density", solid && in.basis == "density");
  show("mass", !in.ground && (in.basis == "mass" || in.shape == "none"));
  if (QWidget* label = static_cast<QFormLayout*>(static_cast<QVBoxLayout*>(layout())->itemAt(0)->layout())->labelForField(basis_))
    label->setVisible(solid);
  basis_->setVisible(solid);
  message_->hide();
  if (in.ground) {
    properties_->setText(tr("The ground part is fixed in the world: its shape is drawn, it has no mass properties."));
    return;
  }
  QString err;
  const PartDef p = partFromShape(in, projectFile_.toStdString(), &err);
  if (!err.isEmpty()) {
    properties_->setText(tr("Mass properties: %1").arg(err));
    return;
  }
  const auto& I = p.inertia;
  properties_->setText(
      tr("Mass %1 kg; centre of mass (%2, %3, %4) mm in the part frame; inertia about it, part axes [kg m²]: "
         "Ixx %5, Iyy %6, Izz %7, Ixy %8, Ixz %9, Iyz %10%11")
          .arg(p.mass, 0, 'g', 5)
          .arg(p.cm[0] * 1000, 0, 'g', 5).arg(p.cm[1] * 1000, 0, 'g', 5).arg(p.cm[2] * 1000, 0, 'g', 5)
          .arg(I[0], 0, 'g', 4).arg(I[1], 0, 'g', 4).arg(I[2], 0, 'g', 4)
          .arg(I[3], 0, 'g', 4).arg(I[4], 0, 'g', 4).arg(I[5], 0, 'g', 4)
          .arg(in.shape == "none" ? tr(" (as typed: no shape)") : QString()));
}

// A mesh outside the project's folder is copied into it (mesh_import.h).
void PartShapeDialog::browseMesh() {
  QString err;
  const QString rel = chooseProjectMesh(this, projectFile_, &err);
  if (!err.isEmpty()) {
    message_->setText(err);
    message_->show();
  }
  if (!rel.isEmpty()) file_->setText(rel);
}

}  // namespace pm::gui
