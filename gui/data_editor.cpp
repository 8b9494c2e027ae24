#include "data_editor.h"

#include "document.h"
#include "engine/engine.h"
#include "model/component_type.h"
#include "model/project_error.h"

#include <QCheckBox>
#include <QDir>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

namespace pm::gui {

namespace {

// The folder a script's data.file is relative to and confined to, as the
// compiler takes it: the project file's, or the working directory ("").
std::string scriptFolder(const QString& projectFile) {
  return projectFile.isEmpty() ? std::string() : QFileInfo(projectFile).absolutePath().toStdString();
}

using nlohmann::json;

QString qs(const std::string& s) { return QString::fromStdString(s); }

// "a, b, c" -> {"a", "b", "c"} (empty items dropped).
QStringList items(const QString& text) {
  QStringList out;
  for (const QString& s : text.split(',')) {
    const QString t = s.trimmed();
    if (!t.isEmpty()) out << t;
  }
  return out;
}

// A number typed in a field, or an error naming the field.
double number(const QString& text, const QString& field) {
  bool ok = false;
  const double v = text.trimmed().toDouble(&ok);
  if (!ok) throw std::runtime_error(field.toStdString() + ": '" + text.trimmed().toStdString() + "' is not a number");
  return v;
}

// Shortest text that reads back as the same double.
QString numberText(double v) {
  const QString s = QString::number(v, 'g', 15);
  return s.toDouble() == v ? s : QString::number(v, 'g', 17);
}

QString cell(const QTableWidget* t, int row, int col) {
  const QTableWidgetItem* it = t->item(row, col);
  return it ? it->text() : QString();
}

// Rows numbered from 0, as the engine's messages index them ("steps[2]"),
// renumbered when rows come or go.
void numberRowsFromZero(QTableWidget* t) {
  auto renumber = [t] {
    QStringList labels;
    for (int r = 0; r < t->rowCount(); ++r) labels << QString::number(r);
    t->setVerticalHeaderLabels(labels);
  };
  renumber();
  QObject::connect(t->model(), &QAbstractItemModel::rowsInserted, t, renumber);
  QObject::connect(t->model(), &QAbstractItemModel::rowsRemoved, t, renumber);
}

}  // namespace

bool DataEditor::handles(const Component& c) {
  const ComponentType* t = Registry::instance().find(c.type);
  return c.type == "script_controller" || c.type == "step_sequence" || (t && t->check_data) || !c.data.is_null();
}

QString DataEditor::actionText(const Component& c) {
  if (c.type == "script_controller") return tr("Edit script...");
  if (c.type == "step_sequence") return tr("Edit sequence...");
  if (c.type == "time_table") return tr("Edit table...");
  return tr("Edit data...");
}

DataEditor::DataEditor(Document* doc, const std::string& componentId, QWidget* parent)
    : QDialog(parent), doc_(doc), id_(componentId) {
  setObjectName("dataEditor");
  const Component* c = doc_->project().find(id_);
  if (!c) throw std::runtime_error(id_ + ": no such component");
  auto* lay = new QVBoxLayout(this);
  message_ = new QLabel;
  message_->setObjectName("dataMessage");
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->setStyleSheet("QLabel { color: #a40000; background: #fdecea; border: 1px solid #f5c2c0;"
                          " border-radius: 3px; padding: 4px; }");
  message_->hide();
  if (c->type == "script_controller") buildScript(*c);
  else if (c->type == "step_sequence") buildSequence(*c);
  else if (c->type == "time_table") buildPoints(*c);
  else buildJson(*c);
  setWindowTitle(tr("%1 of %2").arg(actionText(*c).remove("..."), qs(id_)));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  auto* checkButton = buttons->addButton(tr("Check"), QDialogButtonBox::ActionRole);
  checkButton->setObjectName("checkButton");
  buttons->button(QDialogButtonBox::Ok)->setObjectName("okButton");
  connect(checkButton, &QPushButton::clicked, this, [this] {
    if (check().isEmpty()) {
      message_->setStyleSheet("QLabel { color: #1f5f1f; background: #eaf6ea; border: 1px solid #b9dcb9;"
                              " border-radius: 3px; padding: 4px; }");
      message_->setText(tr("No errors."));
      message_->show();
    }
  });
  connect(buttons, &QDialogButtonBox::accepted, this, &DataEditor::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &DataEditor::reject);
  lay->addWidget(message_);
  lay->addWidget(buttons);
  resize(720, 520);
}

QString DataEditor::message() const { return message_->isVisible() ? message_->text() : QString(); }

void DataEditor::showMessage(const QString& text) {
  message_->setStyleSheet("QLabel { color: #a40000; background: #fdecea; border: 1px solid #f5c2c0;"
                          " border-radius: 3px; padding: 4px; }");
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

void DataEditor::buildScript(const Component& c) {
  kind_ = Kind::Script;
  const json& d = c.data;
  auto* form = new QFormLayout;
  inputs_ = new QLineEdit;
  inputs_->setObjectName("scriptInputs");
  inputs_->setPlaceholderText("x=cyl1.x, start=b1.out");
  inputs_->setToolTip(tr("Names the script reads (inputs.<name> in step) and the signals they come from"));
  QStringList in;
  if (d.is_object() && d.contains("inputs") && d["inputs"].is_object())
    for (const auto& [name, ref] : d["inputs"].items())
      in << qs(name) + "=" + (ref.is_string() ? qs(ref.get<std::string>()) : qs(ref.dump()));
  inputs_->setText(in.join(", "));
  outputs_ = new QLineEdit;
  outputs_->setObjectName("scriptOutputs");
  outputs_->setPlaceholderText("u, sol14   or   u=0.5 (initial value)");
  QStringList out;
  if (d.is_object() && d.contains("outputs")) {
    outputsObject_ = d["outputs"].is_object();
    for (const auto& [k, v] : d["outputs"].items()) {
      if (outputsObject_) out << qs(k) + "=" + (v.is_number() ? numberText(v.get<double>()) : qs(v.dump()));
      else out << (v.is_string() ? qs(v.get<std::string>()) : qs(v.dump()));
    }
  }
  outputs_->setText(out.join(", "));
  form->addRow(tr("Inputs"), inputs_);
  form->addRow(tr("Outputs"), outputs_);
  static_cast<QVBoxLayout*>(layout())->addLayout(form);

  text_ = new QPlainTextEdit;
  text_->setObjectName("scriptText");
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setTabStopDistance(2 * text_->fontMetrics().horizontalAdvance(' ') * 2);
  QString source, unreadable;
  if (d.is_object() && d.contains("file") && d["file"].is_string()) {
    // Resolved as the compiler resolves it: against the project file's
    // folder, or the working directory for a project not saved yet, and
    // refused outside that folder (io/confined_file.h) for reading and
    // writing alike.
    scriptFromFile_ = true;
    const std::string ref = d["file"].get<std::string>();
    const std::string folder = scriptFolder(doc_->file());
    try {
      scriptFile_ = qs(engine::referencedFilePath(folder, ref));
      try {
        const std::string text = engine::readReferencedFile(folder, ref);
        source = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
      } catch (const std::exception& e) {
        unreadable = tr("cannot read %1 (%2); OK writes the program there").arg(qs(ref), qs(e.what()));
      }
    } catch (const std::exception& e) {
      scriptFile_.clear();
      unreadable = tr("%1: %2; OK does not write it").arg(qs(ref), qs(e.what()));
    }
  } else if (d.is_object() && d.contains("script")) {
    if (d["script"].is_string()) {
      scriptLines_ = false;
      source = qs(d["script"].get<std::string>());
    } else if (d["script"].is_array()) {
      QStringList lines;
      for (const json& l : d["script"]) lines << (l.is_string() ? qs(l.get<std::string>()) : QString());
      source = lines.join('\n');
    }
  } else {
    source = "function init() {\n}\n\nfunction step(t, inputs) {\n  return {};\n}";
  }
  text_->setPlainText(source);
  fileText_ = source;
  auto* where = new QLabel;
  where->setObjectName("scriptCursor");
  connect(text_, &QPlainTextEdit::cursorPositionChanged, where, [this, where] {
    const QTextCursor cur = text_->textCursor();
    where->setText(tr("Line %1, column %2").arg(cur.blockNumber() + 1).arg(cur.positionInBlock() + 1));
  });
  auto* lay = static_cast<QVBoxLayout*>(layout());
  if (scriptFromFile_) {
    auto* file = new QLabel(tr("The program is the file %1 (data.file, kept as the reference): OK saves it there.")
                                .arg(qs(d["file"].get<std::string>())));
    file->setObjectName("scriptFile");
    file->setToolTip(scriptFile_);
    lay->addWidget(file);
  }
  lay->addWidget(text_, 1);
  lay->addWidget(where);
  if (!unreadable.isEmpty()) showMessage(qs(id_ + ": data.file: ") + unreadable);
}

void DataEditor::buildSequence(const Component& c) {
  kind_ = Kind::Sequence;
  const json& d = c.data;
  auto* form = new QFormLayout;
  outputs_ = new QLineEdit;
  outputs_->setObjectName("sequenceOutputs");
  outputs_->setPlaceholderText("Y1, Y2");
  QStringList out;
  if (d.is_object() && d.contains("outputs") && d["outputs"].is_array())
    for (const json& o : d["outputs"]) out << (o.is_string() ? qs(o.get<std::string>()) : qs(o.dump()));
  outputs_->setText(out.join(", "));
  cyclic_ = new QCheckBox(tr("back to the first step after the last"));
  cyclic_->setObjectName("sequenceCyclic");
  cyclic_->setChecked(d.is_object() && d.value("cyclic", false) == true);
  form->addRow(tr("Outputs"), outputs_);
  form->addRow(tr("Cyclic"), cyclic_);
  auto* lay = static_cast<QVBoxLayout*>(layout());
  lay->addLayout(form);

  table_ = new QTableWidget(0, 3);
  table_->setObjectName("sequenceTable");
  table_->setHorizontalHeaderLabels({tr("Step"), tr("Sets (output=value, ...)"), tr("Then when (signals on, ...)")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
  if (d.is_object() && d.contains("steps") && d["steps"].is_array()) {
    for (const json& s : d["steps"]) {
      const int r = table_->rowCount();
      table_->insertRow(r);
      table_->setItem(r, 0, new QTableWidgetItem(s.contains("name") && s["name"].is_string() ? qs(s["name"].get<std::string>()) : QString()));
      QStringList set, when;
      if (s.contains("set") && s["set"].is_object())
        for (const auto& [k, v] : s["set"].items()) set << qs(k) + "=" + (v.is_number() ? numberText(v.get<double>()) : qs(v.dump()));
      if (s.contains("when") && s["when"].is_array())
        for (const json& w : s["when"]) when << (w.is_string() ? qs(w.get<std::string>()) : qs(w.dump()));
      table_->setItem(r, 1, new QTableWidgetItem(set.join(", ")));
      table_->setItem(r, 2, new QTableWidgetItem(when.join(", ")));
    }
  }
  numberRowsFromZero(table_);
  table_->verticalHeader()->setToolTip(tr("Step index k, as messages name it (steps[k])"));
  lay->addWidget(table_, 1);
  addRowButtons(lay, tr("Add step"), tr("Remove step"));
}

// Add/remove buttons under the table: a new empty row after the current one.
void DataEditor::addRowButtons(QVBoxLayout* lay, const QString& addText, const QString& removeText) {
  auto* row = new QHBoxLayout;
  auto* add = new QPushButton(addText);
  add->setObjectName("addRow");
  auto* remove = new QPushButton(removeText);
  remove->setObjectName("removeRow");
  connect(add, &QPushButton::clicked, this, [this] {
    const int r = table_->currentRow() < 0 ? table_->rowCount() : table_->currentRow() + 1;
    table_->insertRow(r);
    for (int k = 0; k < table_->columnCount(); ++k) table_->setItem(r, k, new QTableWidgetItem);
    table_->setCurrentCell(r, 0);
  });
  connect(remove, &QPushButton::clicked, this, [this] {
    if (table_->currentRow() >= 0) table_->removeRow(table_->currentRow());
  });
  row->addWidget(add);
  row->addWidget(remove);
  row->addStretch(1);
  lay->addLayout(row);
}

void DataEditor::buildPoints(const Component& c) {
  kind_ = Kind::Points;
  const json& d = c.data;
  table_ = new QTableWidget(0, 2);
  table_->setObjectName("pointsTable");
  table_->setHorizontalHeaderLabels({tr("t [s]"), tr("value (SI)")});
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  if (d.is_object() && d.contains("points") && d["points"].is_array())
    for (const json& pt : d["points"]) {
      const int r = table_->rowCount();
      table_->insertRow(r);
      for (int k = 0; k < 2; ++k)
        table_->setItem(r, k, new QTableWidgetItem(pt.is_array() && pt.size() > size_t(k) && pt[k].is_number()
                                                       ? numberText(pt[k].get<double>())
                                                       : QString()));
    }
  numberRowsFromZero(table_);
  table_->verticalHeader()->setToolTip(tr("Point index k, as messages name it (points[k])"));
  auto* lay = static_cast<QVBoxLayout*>(layout());
  lay->addWidget(table_, 1);
  addRowButtons(lay, tr("Add point"), tr("Remove point"));
}

void DataEditor::buildJson(const Component& c) {
  kind_ = Kind::Json;
  text_ = new QPlainTextEdit;
  text_->setObjectName("dataText");
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setPlainText(c.data.is_null() ? QString("{}") : qs(c.data.dump(2)));
  static_cast<QVBoxLayout*>(layout())->addWidget(text_, 1);
}

json DataEditor::collect() const {
  const Component* c = doc_->project().find(id_);
  json d = c && c->data.is_object() ? c->data : json::object();
  switch (kind_) {
    case Kind::Script: {
      json in = json::object();
      for (const QString& item : items(inputs_->text())) {
        const int eq = item.indexOf('=');
        if (eq <= 0 || eq + 1 >= item.size())
          throw std::runtime_error("inputs: '" + item.toStdString() + "': expected name=reference, e.g. x=cyl1.x");
        in[item.left(eq).trimmed().toStdString()] = item.mid(eq + 1).trimmed().toStdString();
      }
      d["inputs"] = in;
      const QStringList outs = items(outputs_->text());
      bool object = outputsObject_;
      for (const QString& o : outs) object = object || o.contains('=');
      json out = object ? json::object() : json::array();
      for (const QString& o : outs) {
        if (!object) {
          out.push_back(o.toStdString());
          continue;
        }
        const int eq = o.indexOf('=');
        const QString name = eq < 0 ? o : o.left(eq).trimmed();
        out[name.toStdString()] = eq < 0 ? 0.0 : number(o.mid(eq + 1), "outputs: " + name);
      }
      d["outputs"] = out;
      if (!scriptFromFile_) {
        const QString src = text_->toPlainText();
        if (scriptLines_) {
          json lines = json::array();
          for (const QString& l : src.split('\n')) lines.push_back(l.toStdString());
          d["script"] = lines;
        } else {
          d["script"] = src.toStdString();
        }
      }
      return d;
    }
    case Kind::Sequence: {
      json outs = json::array();
      for (const QString& o : items(outputs_->text())) outs.push_back(o.toStdString());
      json steps = json::array();
      for (int r = 0; r < table_->rowCount(); ++r) {
        const QString row = QString("steps[%1]").arg(r);
        json s = json::object();
        s["name"] = cell(table_, r, 0).trimmed().toStdString();
        json set = json::object();
        for (const QString& item : items(cell(table_, r, 1))) {
          const int eq = item.indexOf('=');
          if (eq <= 0)
            throw std::runtime_error(row.toStdString() + ".set: '" + item.toStdString() +
                                     "': expected output=value, e.g. Y1=1");
          set[item.left(eq).trimmed().toStdString()] = number(item.mid(eq + 1), row + ".set." + item.left(eq).trimmed());
        }
        s["set"] = set;
        json when = json::array();
        for (const QString& w : items(cell(table_, r, 2))) when.push_back(w.toStdString());
        s["when"] = when;
        steps.push_back(s);
      }
      d["outputs"] = outs;
      d["cyclic"] = cyclic_->isChecked();
      d["steps"] = steps;
      return d;
    }
    case Kind::Points: {
      json pts = json::array();
      for (int r = 0; r < table_->rowCount(); ++r) {
        const QString row = QString("points[%1]").arg(r);
        if (cell(table_, r, 0).trimmed().isEmpty() && cell(table_, r, 1).trimmed().isEmpty()) continue;
        pts.push_back({number(cell(table_, r, 0), row + "[0] (t)"), number(cell(table_, r, 1), row + "[1] (value)")});
      }
      d["points"] = pts;
      return d;
    }
    case Kind::Json:
      try {
        const std::string text = text_->toPlainText().toStdString();
        engine::checkJsonText(text, "data");  // as a project file: no tree too deep to copy
        return json::parse(text);
      } catch (const ProjectError& e) {
        throw std::runtime_error(e.what());
      } catch (const json::parse_error& e) {
        // Byte offset -> line, as for a script.
        const std::string src = text_->toPlainText().toStdString();
        const size_t at = std::min(static_cast<size_t>(e.byte), src.size());
        const long line = 1 + std::count(src.begin(), src.begin() + static_cast<long>(at), '\n');
        throw std::runtime_error("line " + std::to_string(line) + ": " + e.what());
      }
  }
  return d;
}

QString DataEditor::check() {
  const Component* orig = doc_->project().find(id_);
  if (!orig) {
    showMessage(tr("%1: the component no longer exists").arg(qs(id_)));
    return message();
  }
  Component c = *orig;
  try {
    c.data = collect();
  } catch (const std::exception& e) {
    showMessage(qs(id_ + ": data." + e.what()));
    return message();
  }
  const ComponentType* t = Registry::instance().find(c.type);
  if (t && t->check_data) {
    const auto err = t->check_data(c);
    if (!err.empty()) {
      showMessage(qs(id_ + ": data." + err.front()));
      return message();
    }
  }
  // A script is compiled the way a run compiles it (the type's create: field
  // checks, then the program's top level loaded into the script engine). A
  // program kept in a file is compiled from the editor's text (the file is
  // written only on OK), and the message names data.file and the file.
  if (c.type == "script_controller") {
    const std::string fileRef = scriptFromFile_ ? c.data["file"].get<std::string>() : std::string();
    if (scriptFromFile_) {
      c.data.erase("file");
      c.data["script"] = text_->toPlainText().toStdString();
    }
    try {
      if (!engine::checkComponent(c)) {
        showMessage(tr("%1: scripted controllers are not available in this build").arg(qs(id_)));
        return message();
      }
    } catch (const std::exception& e) {
      std::string what = e.what();
      const std::string fromText = "data.script: script";
      if (scriptFromFile_ && what.rfind(fromText, 0) == 0) what = "data.file: " + fileRef + what.substr(fromText.size());
      const QString text = qs(id_ + ": " + what);
      showMessage(text);
      const QRegularExpressionMatch m = QRegularExpression("line (\\d+)").match(text);
      if (m.hasMatch() && text_) {
        const QTextBlock b = text_->document()->findBlockByNumber(m.captured(1).toInt() - 1);
        if (b.isValid()) {
          QTextCursor cur(b);
          text_->setTextCursor(cur);
        }
      }
      return message();
    }
  }
  showMessage({});
  return {};
}

void DataEditor::accept() {
  if (!check().isEmpty()) return;
  // The program file first: if it cannot be written the dialog stays open
  // and the project is not changed. (A file is not part of the undo stack.)
  if (scriptFromFile_ && text_->toPlainText() != fileText_) {
    const std::string src = text_->toPlainText().toStdString();
    const Component* c = doc_->project().find(id_);
    const std::string ref = c ? c->data.value("file", std::string()) : std::string();
    std::string path;
    try {
      // The folder rule again (the folder may have changed since the dialog
      // opened); writeTextFile refuses a link or a non-regular file.
      path = engine::referencedFilePath(scriptFolder(doc_->file()), ref);
    } catch (const std::exception& e) {
      showMessage(qs(id_ + ": data.file: " + ref + ": " + e.what()));
      return;
    }
    try {
      engine::writeTextFile(path, src);
    } catch (const std::exception& e) {
      showMessage(qs(id_ + ": data.file: " + e.what()));
      return;
    }
    fileText_ = text_->toPlainText();
  }
  const json d = collect();
  const Component* c = doc_->project().find(id_);
  // Nothing typed: no edit (an absent data section stays absent).
  if (!c || d == c->data || (c->data.is_null() && d.is_object() && d.empty())) {
    QDialog::accept();
    return;
  }
  doc_->edit(tr("Data of %1").arg(qs(id_)), [&](Project& p) {
    if (Component* c = p.find(id_)) c->data = d;
  });
  QDialog::accept();
}

}  // namespace pm::gui
