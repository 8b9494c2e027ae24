// Choosing an item from a tool button's pop-up menu (or a submenu of it)
// by mouse clicks: each menu runs its own event loop, so the items are
// clicked from a timer while the menu is open. Header-only; GUI tests only.
#pragma once

#include <QAction>
#include <QMenu>
#include <QPoint>
#include <QTimer>
#include <QToolButton>
#include <QWidget>
#include <QtTest>

#include <functional>

namespace pm::test {

// How a test clicks (a test that counts the user's actions passes its own).
using MenuClick = std::function<void(QWidget* on, QPoint at)>;

inline void leftClick(QWidget* on, QPoint at) { QTest::mouseClick(on, Qt::LeftButton, {}, at); }

// Clicks `button`, then `item` in its menu: two clicks.
inline void chooseFromMenu(QToolButton* button, QAction* item, const MenuClick& click = leftClick) {
  QVERIFY(button && button->isEnabled() && item);
  bool chosen = false;
  QTimer::singleShot(100, [&] {
    QMenu* m = button->menu();
    for (int i = 0; i < 50 && !m->isVisible(); ++i) QTest::qWait(20);
    click(m, m->actionGeometry(item).center());
    chosen = true;
  });
  click(button, button->rect().center());
  QTRY_VERIFY(chosen);
}

// Clicks `button`, then `sub` in its menu and `item` in the submenu: three clicks.
inline void chooseFromSubmenu(QToolButton* button, QAction* sub, QAction* item, const MenuClick& click = leftClick) {
  QVERIFY(button && button->isEnabled() && sub && sub->isVisible() && item);
  bool chosen = false;
  QTimer::singleShot(100, [&] {
    QMenu* m = button->menu();
    for (int i = 0; i < 50 && !m->isVisible(); ++i) QTest::qWait(20);
    click(m, m->actionGeometry(sub).center());
    QMenu* s = sub->menu();
    for (int i = 0; i < 50 && !s->isVisible(); ++i) QTest::qWait(20);
    QVERIFY(s->isVisible());
    click(s, s->actionGeometry(item).center());
    chosen = true;
  });
  click(button, button->rect().center());
  QTRY_VERIFY(chosen);
}

}  // namespace pm::test
