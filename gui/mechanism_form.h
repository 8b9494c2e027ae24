// The property form of one mechanism object (part, marker, joint, force,
// motion): its fields from editFields() as line edits, lists and check
// boxes named "field_<key>" (poses in mm and degrees). A value is committed
// on Enter / focus loss / choice as one undoable Document edit; a refusal
// (not a number, out of range, an id taken) is shown in place and the model
// stays as it was. The id field renames the object and what refers to it.
#pragma once

#include <QWidget>

#include <string>
#include <vector>

class QFormLayout;
class QLabel;

namespace pm::gui {

class Document;

class MechanismForm : public QWidget {
  Q_OBJECT
 public:
  explicit MechanismForm(Document* doc, QWidget* parent = nullptr);

  void setObject(const std::string& id);
  const std::string& objectId() const { return id_; }
  // The editor of field `key` ("mass", "position.x", "type", ...), nullptr if absent.
  QWidget* fieldEditor(const std::string& key) const;
  QString message() const;

 signals:
  void rejected(const QString& message);
  // The object shown was renamed (its new id or marker reference).
  void renamed(const QString& id);

 private:
  void refresh();
  void rebuild();
  void commit(const std::string& key, const QString& text);
  void showMessage(const QString& text);

  Document* doc_;
  std::string id_;
  std::vector<std::string> keys_;  // fields shown, in order
  QWidget* body_ = nullptr;
  QFormLayout* form_ = nullptr;
  QLabel* message_;
};

}  // namespace pm::gui
