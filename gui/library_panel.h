// The component library: every registered type by category, what a circuit
// needs first (supply, valves, cylinders, flow controls, signals, sensors),
// filtered by a search box (registry name or its prefix, ISO name, common
// names from the symbol's keywords, description, category); dragging an entry onto the
// schematic places it (mime type kComponentMime carries the type name).
// User components (docs/user-components.md) stand beside the built-in types,
// marked "(user)" in italics, their file in the tooltip.
#pragma once

#include <QWidget>

#include <string>

class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace pm::gui {

class LibraryPanel : public QWidget {
  Q_OBJECT
 public:
  explicit LibraryPanel(QWidget* parent = nullptr);

  QLineEdit* searchBox() const { return search_; }
  QTreeWidget* tree() const { return tree_; }
  // The entry of a type (nullptr when filtered out or unknown).
  QTreeWidgetItem* itemOf(const QString& type) const;
  // The types the search shows, in the listed order.
  QStringList matches() const;
  // Lists the registry again (a project or a library brought user types).
  void rebuild();
  // Lists it again when its user types changed since (a type made, undone,
  // or brought by a project).
  void refresh();

 signals:
  void activated(const QString& type);  // double-click: place at the view centre

 private:
  void filter(const QString& text);

  QLineEdit* search_;
  QTreeWidget* tree_;
  std::string listed_;  // the user types listed (userTypesListed)
};

}  // namespace pm::gui
