// The Help menu (Getting started, Component reference, Keyboard shortcuts,
// About) and tool-tips that say what a tool-bar button does and its
// shortcut. The reference text is the registry's own (`pneumech types`).
#pragma once

#include <QString>

#include <functional>

class QMainWindow;
class QMenu;
class QToolBar;

namespace pm::gui {

// Adds Help to `window`'s menu bar. `openExample` opens the example the
// getting-started page walks through.
QMenu* addHelpMenu(QMainWindow* window, std::function<void()> openExample);

// Each action of `bar`: tool-tip "<what it does> (<shortcut>)", from its
// status tip (else its text without '&').
void describeToolBar(QToolBar* bar);

// The text of the dialogs (for tests and the report's appendix).
QString gettingStartedHtml();
QString shortcutsText(const QMainWindow* window);  // "Run\tF5" lines, menu order

}  // namespace pm::gui
