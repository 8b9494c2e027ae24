#include "property_editor.h"
#include "attachment_box.h"
#include "catalogue_choice.h"
#include "data_editor.h"

#include "document.h"
#include "edit_operations.h"
#include "model/component_type.h"
#include "mechanism_editing.h"
#include "mechanism_form.h"
#include "param_model.h"
#include "undo_keys.h"
#include "units.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace pm::gui {

namespace {

// Value cells with a catalogue get an editable list of standard sizes; unit
// cells a list of units.
class ParamDelegate : public QStyledItemDelegate {
 public:
  ParamDelegate(ParamModel* model, QObject* parent) : QStyledItemDelegate(parent), model_(model) {}

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& opt, const QModelIndex& idx) const override {
    const ParamDecl* d = model_->paramAt(idx.row());
    if (d && idx.column() == ParamModel::Unit) {
      auto* box = new QComboBox(parent);
      for (const units::DisplayUnit& u : units::choices(*d)) box->addItem(u.unit);
      return box;
    }
    if (d && idx.column() == ParamModel::Value) {
      const std::vector<double> cat = model_->catalogue(idx.row());
      if (!cat.empty()) {
        auto* box = new QComboBox(parent);
        box->setEditable(true);
        box->setInsertPolicy(QComboBox::NoInsert);
        const double si = idx.data(Qt::UserRole).toDouble();
        const units::DisplayUnit du = model_->displayUnit(*d, si);
        for (double v : cat) box->addItem(units::formatNumber(du.toDisplay(v)));
        box->setToolTip(tr("Standard sizes in %1; any other value may be typed").arg(du.unit));
        return box;
      }
    }
    return QStyledItemDelegate::createEditor(parent, opt, idx);
  }
  void setEditorData(QWidget* editor, const QModelIndex& idx) const override {
    if (auto* box = qobject_cast<QComboBox*>(editor)) {
      const QString text = idx.data(Qt::EditRole).toString();
      const int i = box->findText(text);
      if (i >= 0) box->setCurrentIndex(i);
      // Typed keys replace the value, as in the plain cells (a first key
      // used to be appended to it: "100" + "200" read 100200 mm).
      if (box->isEditable()) {
        box->setEditText(text);
        box->lineEdit()->selectAll();
      }
      return;
    }
    QStyledItemDelegate::setEditorData(editor, idx);
  }
  void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& idx) const override {
    if (auto* box = qobject_cast<QComboBox*>(editor)) {
      model->setData(idx, box->currentText(), Qt::EditRole);
      return;
    }
    QStyledItemDelegate::setModelData(editor, model, idx);
  }

 private:
  ParamModel* model_;
};

// Tab and Shift+Tab go to the next or the previous parameter's value, as in
// a form (not to the unit beside it); ending an edit with Tab opens the
// next value's editor, so values are typed one after another.
class ParamTable : public QTableView {
 protected:
  QModelIndex moveCursor(CursorAction action, Qt::KeyboardModifiers mods) override {
    if (action != MoveNext && action != MovePrevious) return QTableView::moveCursor(action, mods);
    const int step = action == MoveNext ? 1 : -1;
    for (int r = currentIndex().row() + step; r >= 0 && r < model()->rowCount(); r += step)
      if (const QModelIndex i = model()->index(r, ParamModel::Value); i.flags() & Qt::ItemIsEditable) return i;
    return {};
  }
};

}  // namespace

PropertyEditor::PropertyEditor(Document* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
  setObjectName("propertyEditor");
  title_ = new QLabel(tr("Nothing selected"));
  title_->setObjectName("propertyTitle");
  title_->setWordWrap(true);
  QFont tf = title_->font();
  tf.setBold(true);
  title_->setFont(tf);
  code_ = new QLineEdit;
  code_->setObjectName("codeEdit");
  code_->setPlaceholderText(tr("ISO 1219-2 code, e.g. 1A1"));
  code_->setEnabled(false);
  passUndoToDocument(code_);

  model_ = new ParamModel(this);
  model_->setCommit([this](const std::string& id, const std::string& param, double si) {
    // A value edited away from the object's catalogue part ends the part (the
    // project would be refused with both), in the same undo step.
    return doc_->edit(tr("Set %1.%2").arg(QString::fromStdString(id), QString::fromStdString(param)),
                      [&](Project& p) {
                        if (Component* c = p.find(id)) {
                          c->params[param] = si;
                          dropPartIfEdited(*c);
                        }
                      });
  });
  table_ = new ParamTable;
  table_->setObjectName("paramView");
  table_->setModel(model_);
  table_->setItemDelegate(new ParamDelegate(model_, table_));
  table_->setSelectionBehavior(QAbstractItemView::SelectItems);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                          QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);

  message_ = new QLabel;
  message_->setObjectName("propertyMessage");
  message_->setWordWrap(true);
  message_->setStyleSheet("QLabel { color: #a40000; background: #fdecea; border: 1px solid #f5c2c0;"
                          " border-radius: 3px; padding: 4px; }");
  message_->hide();

  dataButton_ = new QPushButton;
  dataButton_->setObjectName("dataButton");
  dataButton_->hide();
  connect(dataButton_, &QPushButton::clicked, this, [this] { openDataEditor(); });

  attachment_ = new AttachmentBox(doc_);

  catalogue_ = new QComboBox;
  catalogue_->setObjectName("catalogueChoice");
  catalogue_->setToolTip(tr("Choose from catalogue: the part sets its parameters and is listed in the bill of materials"));
  connect(catalogue_, &QComboBox::activated, this, &PropertyEditor::choosePart);
  catalogueLabel_ = new QLabel(tr("Catalogue"));

  auto* form = new QFormLayout;
  form->addRow(tr("Code"), code_);
  form->addRow(catalogueLabel_, catalogue_);
  inputsBox_ = new QWidget;
  inputs_ = new QFormLayout(inputsBox_);
  inputs_->setContentsMargins(0, 0, 0, 0);
  inputsBox_->hide();
  componentPage_ = new QWidget;
  auto* cl = new QVBoxLayout(componentPage_);
  cl->setContentsMargins(0, 0, 0, 0);
  cl->addLayout(form);
  cl->addWidget(inputsBox_);
  cl->addWidget(dataButton_);
  cl->addWidget(table_, 1);
  cl->addWidget(attachment_);
  cl->addWidget(message_);
  mechForm_ = new MechanismForm(doc_);
  // A part has some twenty fields: they scroll rather than stretch the dock.
  mechPage_ = new QScrollArea;
  mechPage_->setObjectName("mechanismFormScroll");
  mechPage_->setWidget(mechForm_);
  mechPage_->setWidgetResizable(true);
  mechPage_->setFrameShape(QFrame::NoFrame);
  mechPage_->hide();
  connect(mechForm_, &MechanismForm::rejected, this, &PropertyEditor::rejected);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  lay->addWidget(title_);
  lay->addWidget(componentPage_, 1);
  lay->addWidget(mechPage_, 1);

  connect(model_, &ParamModel::editRejected, this, [this](const QString& m) {
    showMessage(m);
    emit rejected(m);
  });
  connect(model_, &ParamModel::parameterChanged, this, [this] { showMessage({}); });
  connect(code_, &QLineEdit::editingFinished, this, [this] {
    const std::string id = model_->componentId();
    const std::string label = code_->text().trimmed().toStdString();
    doc_->edit(tr("Code of %1").arg(QString::fromStdString(id)), [&](Project& p) {
      if (Component* c = p.find(id)) c->label = label;
    });
  });
  connect(doc_, &Document::changed, this, &PropertyEditor::onDocumentChanged);
}

const std::string& PropertyEditor::componentId() const { return model_->componentId(); }

QString PropertyEditor::message() const { return message_->isVisible() || !message_->text().isEmpty() ? message_->text() : QString(); }

void PropertyEditor::showMessage(const QString& text) {
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

void PropertyEditor::showObject(const std::string& id) {
  const ObjectKind kind = objectKind(doc_->project(), id);
  if (kind == ObjectKind::None || kind == ObjectKind::Component) {
    showComponent(id);
    return;
  }
  model_->setComponent(nullptr, {});
  componentPage_->hide();
  mechPage_->show();
  mechForm_->setObject(id);
  title_->setText(QString("%1  <span style='font-weight:normal;color:#555'>%2</span>")
                      .arg(QString::fromStdString(id), kindName(kind)));
  title_->setToolTip({});
}

void PropertyEditor::showComponent(const std::string& id, int count) {
  const Component* c = id.empty() ? nullptr : doc_->project().find(id);
  mechPage_->hide();
  mechForm_->setObject({});
  componentPage_->show();
  showMessage({});
  dataButton_->setVisible(c && DataEditor::handles(*c));
  if (c) dataButton_->setText(DataEditor::actionText(*c));
  if (!c) {
    model_->setComponent(nullptr, {});
    title_->setText(count > 1 ? tr("%1 objects selected").arg(count) : tr("Nothing selected"));
    code_->clear();
    code_->setEnabled(false);
    rebuildInputs();  // no signal fields of the component shown before
    rebuildCatalogueChoice();
    attachment_->setComponent({});
    return;
  }
  model_->setComponent(&doc_->project(), id);
  const ComponentType* t = Registry::instance().find(c->type);
  title_->setText(QString("%1  <span style='font-weight:normal;color:#555'>%2</span>")
                      .arg(QString::fromStdString(c->id), QString::fromStdString(c->type)));
  title_->setToolTip(t ? QString::fromStdString(t->description) : QString());
  code_->setText(QString::fromStdString(c->label));
  code_->setEnabled(true);
  rebuildInputs();
  rebuildCatalogueChoice();
  attachment_->setComponent(id);
}

DataEditor* PropertyEditor::openDataEditor() {
  const std::string id = model_->componentId();
  const Component* c = id.empty() ? nullptr : doc_->project().find(id);
  if (!c || !DataEditor::handles(*c)) return nullptr;
  auto* dlg = new DataEditor(doc_, id, this);
  dlg->setAttribute(Qt::WA_DeleteOnClose);
  dlg->open();
  return dlg;
}

QComboBox* PropertyEditor::inputEditor(const QString& name) const {
  return inputsBox_->findChild<QComboBox*>("input_" + name);
}

// One editable list per signal input of the type: the signals the other
// components publish ("sw1.out"), or empty for none.
void PropertyEditor::rebuildInputs() {
  while (inputs_->rowCount() > 0) inputs_->removeRow(0);
  const std::string id = model_->componentId();
  const Component* c = id.empty() ? nullptr : doc_->project().find(id);
  const ComponentType* t = c ? Registry::instance().find(c->type) : nullptr;
  if (!t || t->inputs.empty()) {
    inputsBox_->hide();
    return;
  }
  QStringList sources;
  for (const Component& o : doc_->project().components) {
    if (o.id == id) continue;
    if (const ComponentType* ot = Registry::instance().find(o.type))
      for (const ChannelDecl& ch : ot->channels) sources << QString::fromStdString(o.id + "." + ch.quantity);
  }
  for (const InputDecl& in : t->inputs) {
    auto* box = new QComboBox;
    box->setObjectName("input_" + QString::fromStdString(in.name));
    box->setEditable(true);
    box->setInsertPolicy(QComboBox::NoInsert);
    box->addItem(QString());
    box->addItems(sources);
    auto it = c->inputs.find(in.name);
    box->setEditText(it == c->inputs.end() ? QString() : QString::fromStdString(it->second));
    box->setToolTip(QString::fromStdString(in.doc) + (in.required ? tr(" (required)") : QString()));
    const std::string name = in.name;
    // A solenoid's field also offers to add its signal source here.
    const bool solenoid = name.rfind("sol", 0) == 0;
    if (solenoid) {
      box->insertSeparator(box->count());
      const QStringList texts = {tr("Add a push button here"), tr("Add a time switch here"),
                                 tr("Add a sequence step here")};
      for (size_t k = 0; k < solenoidSourceTypes().size(); ++k)
        box->addItem(texts[int(k)], QString::fromStdString(solenoidSourceTypes()[k]));
    }
    auto commit = [this, box, id, name] {
      const std::string ref = box->currentText().trimmed().toStdString();
      const int entry = box->findText(box->currentText());
      if (entry >= 0 && !box->itemData(entry).toString().isEmpty()) return;  // an "Add ... here" entry, no signal
      QTimer::singleShot(0, this, [this, id, name, ref] {
        doc_->edit(tr("Signal %1.%2").arg(QString::fromStdString(id), QString::fromStdString(name)), [&](Project& p) {
          Component* comp = p.find(id);
          if (!comp) return;
          if (ref.empty()) comp->inputs.erase(name);
          else comp->inputs[name] = ref;
        });
      });
    };
    connect(box, &QComboBox::activated, this, [this, box, id, name, commit](int index) {
      const std::string type = box->itemData(index).toString().toStdString();
      if (type.empty()) return commit();
      // One undoable step: the source placed beside the valve and read by the solenoid.
      QTimer::singleShot(0, this, [this, id, name, type] {
        doc_->edit(tr("Add %1 for %2.%3")
                       .arg(QString::fromStdString(type).replace('_', ' '), QString::fromStdString(id),
                            QString::fromStdString(name)),
                   [&](Project& p) { addSignalSourceFor(p, id, name, type); });
        rebuildInputs();  // the field shows the new reference, not the entry picked
      });
    });
    connect(box->lineEdit(), &QLineEdit::editingFinished, this, commit);
    inputs_->addRow(QString::fromStdString(in.name) + (in.required ? " *" : ""), box);
  }
  inputsBox_->show();
}

// "(none)", then the catalogue's entries of the component's type; the
// current item is the object's part (an unknown part is listed as such).
void PropertyEditor::rebuildCatalogueChoice() {
  const std::string id = model_->componentId();
  const Component* c = id.empty() ? nullptr : doc_->project().find(id);
  const std::vector<const catalogue::Entry*> entries = c ? catalogueEntriesFor(c->type) : std::vector<const catalogue::Entry*>{};
  const QSignalBlocker block(catalogue_);
  catalogue_->clear();
  const bool shown = c && (!entries.empty() || !c->part.empty());
  catalogue_->setVisible(shown);
  catalogueLabel_->setVisible(shown);
  if (!shown) return;
  catalogue_->addItem(tr("(none: values as set)"), QString());
  for (const catalogue::Entry* e : entries) {
    catalogue_->addItem(catalogueEntryText(*e), QString::fromStdString(e->part));
    catalogue_->setItemData(catalogue_->count() - 1, QString::fromStdString(e->file), Qt::ToolTipRole);
  }
  int current = catalogue_->findData(QString::fromStdString(c->part));
  if (current < 0) {  // a part not in the loaded catalogue
    catalogue_->addItem(tr("%1 (not in the catalogue)").arg(QString::fromStdString(c->part)), QString::fromStdString(c->part));
    current = catalogue_->count() - 1;
  }
  catalogue_->setCurrentIndex(current);
}

void PropertyEditor::choosePart(int index) {
  const std::string id = model_->componentId();
  const Component* c = id.empty() ? nullptr : doc_->project().find(id);
  if (!c || index < 0) return;
  const std::string part = catalogue_->itemData(index).toString().toStdString();
  if (part == c->part) return;
  const catalogue::Entry* e = part.empty() ? nullptr : catalogue::processCatalogue().find(part);
  if (!part.empty() && !e) return;
  doc_->edit(part.empty() ? tr("No catalogue part for %1").arg(QString::fromStdString(id))
                          : tr("Choose %1 for %2").arg(QString::fromStdString(part), QString::fromStdString(id)),
             [&](Project& p) {
               if (Component* comp = p.find(id)) applyCataloguePart(*comp, e);
             });
}

void PropertyEditor::onDocumentChanged() {
  if (mechPage_->isVisibleTo(this) && objectKind(doc_->project(), mechForm_->objectId()) == ObjectKind::None) {
    showComponent({});  // the object was deleted (or undone away)
    return;
  }
  const std::string id = model_->componentId();
  if (id.empty()) return;
  const Component* c = doc_->project().find(id);
  if (!c) {
    showComponent({});
    return;
  }
  if (!code_->hasFocus()) code_->setText(QString::fromStdString(c->label));
  bool inputsFocused = false;
  for (QWidget* w : inputsBox_->findChildren<QWidget*>()) inputsFocused = inputsFocused || w->hasFocus();
  if (!inputsFocused) rebuildInputs();
  rebuildCatalogueChoice();
  model_->refresh();
  attachment_->refresh();
}

}  // namespace pm::gui
