// The inside of a sub-circuit, edited in place of the schematic (issue 24):
// a breadcrumb "project › vfc (meter_out_valve)" whose links and Back button
// lead out again, the inner circuit in its own schematic, and a property
// editor for the inner components. Its document is the type's inside
// (Document's inside constructor): every edit changes the type's
// definition, so every instance, and is one undo step of the project.
// An instance inside the inside opens one level deeper.
#pragma once

#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QPushButton;
class QStackedWidget;

namespace pm::gui {

class Document;
class PropertyEditor;
class SchematicScene;
class SchematicView;
class SubcircuitInterfacePanel;

class SubcircuitEditor : public QWidget {
  Q_OBJECT
 public:
  explicit SubcircuitEditor(Document* project, QWidget* parent = nullptr);
  ~SubcircuitEditor() override;

  // Opens the inside of instance `id` of the level shown (the project's
  // circuit when none is open). False when `id` is no sub-circuit instance.
  bool open(const std::string& id);
  // Shows level `depth` again (0: the project's circuit, closing the editor).
  void backTo(int depth);
  int depth() const { return int(levels_.size()); }
  bool isOpen() const { return !levels_.empty(); }

  // The level shown (null when closed).
  Document* document() const;
  SchematicScene* scene() const;
  SchematicView* view() const;
  PropertyEditor* propertyEditor() const;
  // The shown type's external ports and exposed parameters (null when closed).
  SubcircuitInterfacePanel* interfacePanel() const;
  QLabel* breadcrumb() const { return crumbs_; }
  QPushButton* backButton() const { return back_; }
  // The breadcrumb as plain text: "seed003 › vfc (meter_out_valve)".
  QString breadcrumbText() const;

 signals:
  void opened();
  void closed();
  void statusMessage(const QString& text);

 private:
  struct Level {
    std::string instance, type;
    Document* doc = nullptr;
    SchematicScene* scene = nullptr;
    SchematicView* view = nullptr;
    PropertyEditor* props = nullptr;
    SubcircuitInterfacePanel* iface = nullptr;
    QWidget* page = nullptr;
  };
  Level makeLevel(Document* outer, const std::string& instance, const std::string& type);
  void updateBreadcrumb();

  Document* project_;
  std::vector<Level> levels_;
  QLabel* crumbs_;
  QPushButton* back_;
  QStackedWidget* pages_;
};

}  // namespace pm::gui
