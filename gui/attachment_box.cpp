#include "attachment_box.h"

#include "engine/engine.h"
#include "document.h"
#include "mechanism_editing.h"
#include "units.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace pm::gui {

namespace {

QString mm(double m) { return units::formatNumber(m * 1e3) + " mm"; }

}  // namespace

QString unusedParameterReason(const Component& c, const std::string& param) {
  if (!isCylinder(c)) return {};
  const bool attached = attachment(c).is_object();
  if (attached && param == "mass")
    return QObject::tr("Not used while the cylinder is attached to the mechanism: the parts carry the moving "
                       "mass (the piston and rod are lumped into the rod-end part)");
  if (attached && param == "angle")
    return QObject::tr("Not used while the cylinder is attached to the mechanism: its axis is the line between "
                       "its markers, and the mechanism's gravity acts on the parts");
  if (!attached && param == "L_retracted")
    return QObject::tr("Used only when the cylinder is attached to the mechanism (the length between its "
                       "mounting points retracted)");
  return {};
}

AttachmentBox::AttachmentBox(Document* doc, QWidget* parent) : QGroupBox(tr("Attachment to the mechanism"), parent), doc_(doc) {
  setObjectName("attachmentBox");
  markers_ = new QLabel;
  markers_->setObjectName("attachmentMarkers");
  length_ = new QLabel;
  length_->setObjectName("attachmentLength");
  stroke_ = new QLabel;
  stroke_->setObjectName("attachmentStroke");
  problem_ = new QLabel;
  problem_->setObjectName("attachmentProblem");
  problem_->setStyleSheet("QLabel { color: #a40000; }");
  for (QLabel* l : {markers_, length_, stroke_, problem_}) {
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  }
  detach_ = new QPushButton(tr("Detach"));
  detach_->setObjectName("detachButton");
  detach_->setToolTip(tr("The cylinder no longer acts on the mechanism (one undo step)"));
  repick_ = new QPushButton(tr("Re-pick..."));
  repick_->setObjectName("repickButton");
  repick_->setToolTip(tr("Pick the barrel-end and then the rod-end marker again in the 3D view"));
  form_ = new QFormLayout;
  auto* form = form_;
  form->addRow(tr("Between"), markers_);
  form->addRow(tr("Length"), length_);
  form->addRow(tr("Initial stroke"), stroke_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(detach_);
  buttons->addWidget(repick_);
  buttons->addStretch(1);
  auto* lay = new QVBoxLayout(this);
  lay->addLayout(form);
  lay->addWidget(problem_);
  lay->addLayout(buttons);
  connect(detach_, &QPushButton::clicked, this, [this] {
    const std::string id = id_;
    doc_->edit(tr("Detach %1").arg(QString::fromStdString(id)), [&](Project& p) { clearAttachment(p, id); });
  });
  connect(repick_, &QPushButton::clicked, this, [this] { emit repickRequested(QString::fromStdString(id_)); });
  // Its few lines are never squeezed: the parameter table above scrolls.
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  hide();
}

void AttachmentBox::setComponent(const std::string& id) {
  id_ = id;
  refresh();
}

void AttachmentBox::refresh() {
  const Project& p = doc_->project();
  const Component* c = id_.empty() ? nullptr : p.find(id_);
  if (!c || !isCylinder(*c)) {
    hide();
    return;
  }
  show();
  const auto a = cylinderAttachment(p, id_);
  detach_->setVisible(a.has_value());
  repick_->setText(a ? tr("Re-pick...") : tr("Attach..."));
  repick_->setEnabled(markerRefs(p.mechanism).size() >= 2);
  form_->setRowVisible(stroke_, a.has_value());  // the label with its field
  form_->setRowVisible(length_, a.has_value());
  if (!a) {
    markers_->setText(tr("not attached: the cylinder moves its own mass along its own axis"));
    problem_->hide();
    return;
  }
  const QString b = QString::fromStdString(a->barrel), r = QString::fromStdString(a->rod);
  markers_->setText(a->joint.empty() ? tr("barrel %1, rod %2").arg(b, r)
                                     : tr("along joint %1 (its travel is the stroke)").arg(QString::fromStdString(a->joint)));
  stroke_->setText(tr("x0 = %1").arg(mm(a->x0)));
  if (!a->known) {
    length_->setText(tr("unknown: the mechanism does not assemble (see Check)"));
  } else if (a->joint.empty()) {
    length_->setText(tr("%1 retracted .. %2 extended; the markers are %3 apart at the start")
                         .arg(mm(a->retracted), mm(a->extended), mm(a->distance)));
  } else {
    length_->setText(tr("travel %1 .. %2; %3 at the start").arg(mm(a->retracted), mm(a->extended), mm(a->distance)));
  }
  // The whole sentence (as Check gives it) in the tooltip: the dock is narrow.
  problem_->setText(a->exact ? tr("Does not fit: with L_retracted and x0 the markers must be %1 apart. Move the parts "
                                   "or change x0 (details in the tooltip).")
                                    .arg(mm(a->required))
                              : tr("Does not fit: this cylinder needs the markers at least %1 apart. Move the parts "
                                   "(details in the tooltip).")
                                    .arg(mm(a->required)));
  problem_->setToolTip(QString::fromStdString(a->problem));
  problem_->setVisible(!a->problem.empty());
}

}  // namespace pm::gui
