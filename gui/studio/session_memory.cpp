#include "session_memory.h"

#include "results_panel.h"
#include "time_cursor.h"
#include "window_layouts.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>
#include <QVariantList>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace pm::gui {

SessionMemory::SessionMemory(QMainWindow* window, TimeCursor* cursor, ResultsPanel* results, WindowLayouts* layouts)
    : QObject(window), window_(window), cursor_(cursor), results_(results), layouts_(layouts) {
  connect(cursor_, &TimeCursor::speedChanged, this, [this](double s) {
    if (keepsSpeed_) QSettings().setValue("session/speed", speedText(s));
  });
}

QString SessionMemory::speedText(double speed) {
  return std::isinf(speed) ? QStringLiteral("max") : QString::number(speed, 'g', 17);
}

double SessionMemory::speedFromText(const QString& text, double fallback) {
  if (text == QLatin1String("max")) return TimeCursor::asFastAsPossible();
  bool ok = false;
  const double s = text.toDouble(&ok);
  return ok && s > 0 && std::isfinite(s) ? s : fallback;
}

bool SessionMemory::restoreWindow() {
  keepsSpeed_ = true;
  QSettings s;
  s.beginGroup("session");
  if (s.contains("speed")) cursor_->setSpeed(speedFromText(s.value("speed").toString(), cursor_->speed()));
  const QByteArray geometry = s.value("geometry").toByteArray();
  const QByteArray state = s.value("state").toByteArray();
  if (geometry.isEmpty() || state.isEmpty()) return false;
  window_->restoreGeometry(geometry);
  if (!window_->restoreState(state)) return false;
  dockSized_ = s.value("dock3dSized").toBool();
  if (layouts_) layouts_->resume(s.value("layout").toString(), s.value("standardState").toByteArray());
  // The results panel's splitter once the window has its size (before, its
  // stretch would share out the difference again).
  pendingPanel_ = s.value("results").toByteArray();
  return true;
}

void SessionMemory::restoreLaidOut() {
  if (!pendingPanel_.isEmpty()) results_->restoreLayout(std::exchange(pendingPanel_, {}));
}

void SessionMemory::saveWindow() const {
  QSettings s;
  s.beginGroup("session");
  s.setValue("speed", speedText(cursor_->speed()));
  s.setValue("geometry", window_->saveGeometry());
  s.setValue("state", window_->saveState());
  s.setValue("dock3dSized", dockSized_);
  if (layouts_) {
    s.setValue("layout", layouts_->current());
    s.setValue("standardState", layouts_->standardState());
  }
  s.setValue("results", results_->saveLayout());
  s.endGroup();
  s.sync();
}

QString SessionMemory::plotsKey(const QString& file) {
  const QByteArray path = QFileInfo(file).absoluteFilePath().toUtf8();
  return "plots/" + QString::fromLatin1(QCryptographicHash::hash(path, QCryptographicHash::Sha1).toHex());
}

void SessionMemory::savePlots(const QString& file) const {
  if (file.isEmpty()) return;
  const ResultsPanel::PlotSelection sel = results_->plotSelection();
  const bool any = std::any_of(sel.channels.begin(), sel.channels.end(), [](const auto& c) { return !c.empty(); });
  QSettings s;
  s.beginGroup(plotsKey(file));
  if (!any) {
    s.remove("");  // nothing plotted: the defaults next time
    return;
  }
  QVariantList panes, heights;
  for (const auto& names : sel.channels) {
    QStringList list;
    for (const std::string& n : names) list << QString::fromStdString(n);
    panes << list;
  }
  for (int h : sel.heights) heights << h;
  s.setValue("file", QFileInfo(file).absoluteFilePath());
  s.setValue("channels", panes);
  s.setValue("heights", heights);
}

bool SessionMemory::restorePlots(const QString& file) {
  if (file.isEmpty()) return false;
  QSettings s;
  s.beginGroup(plotsKey(file));
  const QVariantList panes = s.value("channels").toList();
  if (panes.isEmpty()) return false;
  ResultsPanel::PlotSelection sel;
  for (const QVariant& p : panes) {
    std::vector<std::string> names;
    for (const QString& n : p.toStringList()) names.push_back(n.toStdString());
    sel.channels.push_back(std::move(names));
  }
  for (const QVariant& h : s.value("heights").toList()) sel.heights << h.toInt();
  results_->setPlotSelection(sel);
  return true;
}

}  // namespace pm::gui
