#include "key_results_view.h"

#include "engine/engine.h"
#include "result_buffer.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace pm::gui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
QString num(double v, int decimals) { return QString::number(v, 'f', decimals); }

KeyResultTable machineTable(const KeyResults& kr, const KeyResultTableOptions& options) {
  KeyResultTable machine;
  machine.key = QStringLiteral("machine");
  machine.caption = QStringLiteral("Machine");
  machine.header = {"Quantity", "Value", "Note"};
  machine.widths = {3, 1.6, 4};
  machine.rightAligned = {false, true, false};
  if (kr.hasCycle)
    machine.rows.push_back({kr.cycleClosed ? "Cycle time" : "Motion time (open cycle)", num(kr.cycleTime(), 3) + " s",
                            "from " + num(kr.cycleStart, 3) + " s to " + num(kr.cycleEnd, 3) + " s"});
  else
    machine.rows.push_back({"Cycle time", "—", "no complete stroke in the run"});
  if (!kr.supplies.empty()) {
    machine.rows.push_back({"Air consumption per cycle", num(kr.airNormalLitres, 3) + " Nl",
                            "ISO 8778 normal litres; " + num(kr.airMass * 1e3, 3) + " g of air from " +
                                num(kr.airFrom, 3) + " s (first filling of the circuit not counted)"});
    machine.rows.push_back({"Air consumption per minute", num(kr.airNormalLitresPerMinute(), 1) + " Nl/min",
                            "at " + units::formatNumber(kr.cyclesPerMinute) + " cycles per minute" +
                                (options.cyclesStated ? QString() : QStringLiteral(" (the run repeated back to back)"))});
    if (options.initialFilling)
      machine.rows.push_back({"Initial filling (not counted)", num(normalLitres(kr.airMassBeforeCycle), 3) + " Nl",
                              "the circuit pressurising from its initial state before " + num(kr.airFrom, 3) + " s"});
  }
  if (kr.supplies.size() > 1)
    for (const auto& s : kr.supplies)
      machine.rows.push_back({"  from supply " + labelledName(s.label, s.id), num(s.normalLitres, 3) + " Nl", ""});
  return machine;
}

KeyResultTable cylinderTable(const KeyResults& kr, const CylinderResult& c) {
  KeyResultTable t;
  t.key = "cylinder:" + q(c.id);
  // From the key results: a cylinder inside a sub-circuit is no object of the project as drawn.
  QString size = c.type != "cylinder_single"
                     ? QStringLiteral("Ø%1/%2 mm").arg(units::formatNumber(c.bore * 1e3), units::formatNumber(c.rod * 1e3))
                     : QStringLiteral("Ø%1 mm").arg(units::formatNumber(c.bore * 1e3));
  t.caption = "Cylinder " + labelledName(c.label, c.id) + ": " + size + ", stroke " + units::formatNumber(c.stroke * 1e3) +
              (std::isnan(c.mass) ? QString(" mm, attached to the mechanism (impact energy: its kinetic energy)")
                                  : " mm, moving mass " + units::formatNumber(c.mass) + " kg") +
              (c.eCushionMax > 0 ? ", allowed cushioning energy " + units::formatNumber(c.eCushionMax) + " J" : QString());
  t.header = {"#",          "Stroke",           "Signal\n[s]",       "Start\n[s]",         "End\n[s]",
              "Movement\n[s]", "From signal\n[s]", "Max speed\n[m/s]", "Impact speed\n[m/s]", "Impact energy\n[J]"};
  t.widths = {0.4, 1.05, 0.9, 0.9, 0.9, 1.35, 1.15, 1.1, 1.25, 1.25};
  t.rightAligned = {false, false, true, true, true, true, true, true, true, true};
  int k = 0;
  QStringList valves;
  for (const auto& s : c.strokes) {
    ++k;
    const QString dir = s.extend ? "extend" : "retract";
    const QString signal = s.hasSignal() ? num(s.tSignal, 3) : QStringLiteral("—");
    if (!s.valve.empty() && !valves.contains(q(s.valve))) valves << q(s.valve);
    // An incomplete stroke's end: where it turned, came back or the run ended; it did not arrive.
    const bool open = !s.complete && s.tEnd >= kr.tEnd;
    t.rows.push_back({QString::number(k), s.complete ? dir : dir + (open ? " (incomplete, run ended)" : " (incomplete)"),
                      signal, num(s.tStart, 3), num(s.tEnd, 3), num(s.duration(), 3),
                      s.hasSignal() ? num(s.fromSignal(), 3) : QStringLiteral("—"), num(s.vMax, 3),
                      s.complete ? num(s.vArrival, 3) : QStringLiteral("—"),
                      s.complete ? num(s.eArrival, 3) + (s.exceedsCushioning ? " (too high)" : "") : QStringLiteral("—")});
  }
  if (t.rows.empty()) t.rows.push_back({"", "no stroke in the run", "", "", "", "", "", "", "", ""});
  if (!c.strokes.empty()) {
    t.note = valves.isEmpty() ? QStringLiteral("No on/off valve drives this cylinder: no time from signal.")
                              : QStringLiteral("Signal: the command of valve %1.").arg(valves.join(", "));
    if (std::any_of(c.strokes.begin(), c.strokes.end(), [](const StrokeResult& s) { return !s.complete; }))
      t.note += QStringLiteral(" An incomplete stroke did not go from one end position to the other: it ends where it "
                               "turned, came back or the run ended, and has no impact.");
  }
  return t;
}

KeyResultTable peaksTable(const KeyResults& kr) {
  KeyResultTable t;
  t.key = QStringLiteral("peaks");
  t.caption = QStringLiteral("Cylinder peaks over the run");
  const units::DisplayUnit bar = keyResultPressureUnit(kr);
  t.header = {"Cylinder", "Max speed\n[m/s]", "Peak chamber A\n[" + bar.unit + "]", "Peak chamber B\n[" + bar.unit + "]",
              "Max force\n[N]"};
  t.widths = {1.6, 1.3, 1.7, 1.7, 1.3};
  t.rightAligned = {false, true, true, true, true};
  for (const auto& c : kr.cylinders)
    t.rows.push_back({labelledName(c.label, c.id), num(c.vMax, 3), num(bar.toDisplay(c.pAMax), 2),
                      c.hasB ? num(bar.toDisplay(c.pBMax), 2) : QStringLiteral("—"), num(c.forceMax, 0)});
  return t;
}

KeyResultTable jointsTable(const KeyResults& kr) {
  KeyResultTable t;
  t.key = QStringLiteral("joints");
  t.caption = QStringLiteral("Joint reactions (largest magnitude over the run)");
  t.header = {"Joint", "Type", "Force\n[N]", "at\n[s]", "Torque\n[N m]", "at\n[s]"};
  t.widths = {2, 1.5, 1.3, 1, 1.3, 1};
  t.rightAligned = {false, false, true, true, true, true};
  for (const auto& j : kr.joints)
    t.rows.push_back({q(j.id), q(j.type), num(j.forceMax, 1), num(j.tForceMax, 3), num(j.torqueMax, 2), num(j.tTorqueMax, 3)});
  return t;
}

KeyResultTable contactsTable(const KeyResults& kr) {
  KeyResultTable t;
  t.key = QStringLiteral("contacts");
  t.caption = QStringLiteral("Contacts (largest values over the run; slip speed while touching)");
  t.header = {"Pair", "Shapes", "Touches", "First\n[s]", "In contact\n[s]", "Normal force\n[N]", "Friction\n[N]",
              "Penetration\n[mm]", "Slip speed\n[m/s]"};
  t.rightAligned = {false, false, true, true, true, true, true, true, true};
  auto g = [](double v) { return QString::number(v, 'g', 3); };
  for (const auto& c : kr.contacts)
    // "box on plane" kept on one line (no-break spaces): a wrapped pair of shapes reads as two.
    t.rows.push_back({q(c.id), q(c.shapes).replace(' ', QChar(0x00A0)), QString::number(c.touches.size()),
                      c.touches.empty() ? QStringLiteral("—") : num(c.touches.front().tStart, 3),
                      num(c.timeInContact, 3), num(c.normalMax, 1), num(c.frictionMax, 1), g(c.penetrationMax * 1e3),
                      c.touches.empty() ? QStringLiteral("—") : g(c.slipMax)});
  return t;
}

KeyResultTable latchesTable(const KeyResults& kr) {
  KeyResultTable t;
  t.key = QStringLiteral("latches");
  t.caption = QStringLiteral("Latch engagements (plastic impacts; time: the first output sample engaged)");
  t.header = {"Latch", "Type", "Engaged\n[s]", "Released\n[s]", "Velocity jump\n[m/s]", "Energy lost\n[J]",
              "Impulse\n[N s]"};
  t.rightAligned = {false, false, true, true, true, true, true};
  for (const auto& l : kr.latches) {
    for (const auto& e : l.engagements)
      t.rows.push_back({q(l.id), q(l.type), num(e.t, 3), std::isnan(e.tRelease) ? QStringLiteral("—") : num(e.tRelease, 3),
                        num(e.velocityJump, 3), num(e.energyLost, 3), num(e.impulse, 3)});
    if (l.engagements.empty()) t.rows.push_back({q(l.id), q(l.type), "never engaged", "", "", "", ""});
  }
  return t;
}

// The view's sections: the tables of each, by key prefix.
struct Section {
  const char* title;
  const char* prefix;
};
constexpr Section kSections[] = {{"Machine", "machine"},
                                 {"Cylinders and strokes", "cylinder:"},
                                 {"Cylinders and strokes", "peaks"},
                                 {"Joint reactions", "joints"},
                                 {"Contacts", "contacts"},
                                 {"Latches", "latches"}};

QLabel* wrappedLabel(const QString& text, const QString& style) {
  auto* l = new QLabel(text);
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  l->setStyleSheet(style);
  return l;
}

// A read-only table as tall and wide as its cells: the view scrolls, a table never does.
QTableWidget* tableWidget(const KeyResultTable& t) {
  auto* w = new QTableWidget(int(t.rows.size()), int(t.header.size()));
  w->setObjectName(t.key);
  w->setEditTriggers(QAbstractItemView::NoEditTriggers);
  w->setSelectionMode(QAbstractItemView::ContiguousSelection);
  w->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  w->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  w->verticalHeader()->hide();
  w->setWordWrap(false);
  w->setAlternatingRowColors(true);
  w->setHorizontalHeaderLabels(t.header);
  for (int c = 0; c < int(t.header.size()); ++c) {
    const bool right = size_t(c) < t.rightAligned.size() && t.rightAligned[size_t(c)];
    w->horizontalHeaderItem(c)->setTextAlignment(right ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    for (int r = 0; r < int(t.rows.size()); ++r) {
      auto* item = new QTableWidgetItem(c < t.rows[size_t(r)].size() ? t.rows[size_t(r)][c] : QString());
      item->setTextAlignment(right ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
      w->setItem(r, c, item);
    }
  }
  w->ensurePolished();
  w->resizeColumnsToContents();
  // A long note wraps rather than widening its table past a dock's width.
  const int widest = w->fontMetrics().averageCharWidth() * 60;
  for (int c = 0; c < w->columnCount(); ++c)
    if (w->columnWidth(c) > widest) {
      w->setColumnWidth(c, widest);
      w->setWordWrap(true);
    }
  w->resizeRowsToContents();
  const int frame = 2 * w->frameWidth();
  w->setFixedSize(w->horizontalHeader()->length() + frame,
                  w->horizontalHeader()->sizeHint().height() + w->verticalHeader()->length() + frame);
  return w;
}

}  // namespace

QString labelledName(const std::string& label, const std::string& id) {
  return label.empty() ? q(id) : q(label) + " (" + q(id) + ")";
}

units::DisplayUnit keyResultPressureUnit(const KeyResults& kr) {
  return units::pressureUnit(units::PressureKind::Absolute, units::UnitSettings::instance().pressureScale(),
                             kr.ambientPressure);
}

std::vector<KeyResultTable> keyResultTables(const KeyResults& kr, const KeyResultTableOptions& options) {
  std::vector<KeyResultTable> tables{machineTable(kr, options)};
  for (const auto& c : kr.cylinders) tables.push_back(cylinderTable(kr, c));
  if (!kr.cylinders.empty()) tables.push_back(peaksTable(kr));
  if (!kr.joints.empty()) tables.push_back(jointsTable(kr));
  if (!kr.contacts.empty()) tables.push_back(contactsTable(kr));
  if (!kr.latches.empty()) tables.push_back(latchesTable(kr));
  return tables;
}

QString keyResultDefinitions(const KeyResults& kr) {
  return QStringLiteral(
             "A stroke starts when the piston leaves its end position by more than 1 % of the stroke and ends when "
             "it comes within 1 % of the other end; its movement time is end - start. Time from signal: from the "
             "valve signal to the end (switching + dead time + movement time), the total stroke time catalogue "
             "sizing tools quote. Impact speed: piston speed when it touches the end stop; impact "
             "energy: ½ m v² with the cylinder's moving mass. %1")
      .arg(keyResultPressureUnit(kr).unit.endsWith("(g)")
               ? QStringLiteral("Pressures are gauge, bar (g), relative to the ambient %1 bar (abs).")
                     .arg(units::formatNumber(kr.ambientPressure / 1e5))
               : QStringLiteral("Pressures are absolute, bar (abs)."));
}

// ------------------------------------------------------------------ the view

KeyResultsView::KeyResultsView(ResultBuffer* data, QWidget* parent) : QWidget(parent), data_(data) {
  status_ = new QLabel;
  status_->setObjectName("keyResultsStatus");
  status_->setWordWrap(true);
  copy_ = new QToolButton;
  copy_->setObjectName("copyKeyResults");
  copy_->setText(tr("Copy"));
  copy_->setToolTip(tr("Copy the key results as text (as `pneumech results` prints them)"));
  connect(copy_, &QToolButton::clicked, this, &KeyResultsView::copyText);
  auto* top = new QHBoxLayout;
  top->addWidget(status_, 1);
  top->addWidget(copy_);

  content_ = new QWidget;
  sections_ = new QVBoxLayout(content_);
  scroll_ = new QScrollArea;
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  scroll_->setWidget(content_);

  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(6, 4, 6, 0);
  lay->addLayout(top);
  lay->addWidget(scroll_, 1);
  connect(&units::UnitSettings::instance(), &units::UnitSettings::changed, this, &KeyResultsView::rebuild);
  clear();
}

void KeyResultsView::clear() {
  kr_.reset();
  pending_ = false;
  status_->setText(tr("No results: press Run to simulate."));
  rebuild();
}

void KeyResultsView::startRun(const Project& project) {
  project_ = project;
  kr_.reset();
  pending_ = false;
  status_->setText(tr("Running: the key results are shown when the run has ended."));
  rebuild();
}

void KeyResultsView::finishRun() {
  pending_ = true;
  // Read back from the run's results file: only when someone looks.
  if (isVisible()) compute();
}

void KeyResultsView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (pending_) compute();
}

void KeyResultsView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  fitText();
}

// Captions and notes wrap at the visible width: a table wider than the tab
// scrolls sideways, the text need not.
void KeyResultsView::fitText() {
  const QMargins m = sections_->contentsMargins();
  const int w = std::max(200, scroll_->viewport()->width() - m.left() - m.right());
  for (QLabel* l : content_->findChildren<QLabel*>()) l->setMaximumWidth(w);
}

void KeyResultsView::compute() {
  pending_ = false;
  kr_.reset();
  try {
    if (data_->rows() == 0) {
      status_->setText(tr("The run gave no results."));
    } else {
      KeyResultOptions opt;
      QString settingsError;  // bad report settings: said, and the run repeated back to back
      try {
        opt.cyclesPerMinute = reportSettings(project_).cyclesPerMinute;
      } catch (const std::exception& e) {
        settingsError = q(e.what());
      }
      cyclesStated_ = opt.cyclesPerMinute > 0;
      const auto rows = data_->fullRows(engine::keyResultChannels(project_));
      kr_ = engine::keyResults(project_, *rows, opt);
      QString text = tr("Key results of the run to t = %1 s").arg(units::formatNumber(kr_->tEnd));
      if (!settingsError.isEmpty())
        text += tr(" (cycles per minute: the run repeated, as the report settings are not valid: %1)").arg(settingsError);
      status_->setText(text);
    }
  } catch (const std::exception& e) {
    status_->setText(tr("No key results: %1").arg(q(e.what())));
  }
  rebuild();
}

void KeyResultsView::rebuild() {
  copy_->setEnabled(kr_.has_value());
  // Emptied at once: the tables are made again in the pressure unit of now.
  while (QLayoutItem* item = sections_->takeAt(0)) {
    if (QWidget* w = item->widget()) delete w;
    delete item;
  }
  if (kr_) {
    const std::vector<KeyResultTable> tables =
        keyResultTables(*kr_, {.cyclesStated = cyclesStated_, .initialFilling = true});
    const QString heading = QStringLiteral("font-weight: bold; font-size: 11pt; margin-top: 8px;");
    const QString muted = QStringLiteral("font-size: 8pt;");
    QString lastTitle;
    for (const Section& s : kSections)
      for (const KeyResultTable& t : tables) {
        if (!t.key.startsWith(QLatin1String(s.prefix))) continue;
        if (lastTitle != QLatin1String(s.title)) sections_->addWidget(wrappedLabel(QLatin1String(s.title), heading));
        lastTitle = QLatin1String(s.title);
        if (t.caption != QLatin1String(s.title)) sections_->addWidget(wrappedLabel(t.caption, QString()));
        sections_->addWidget(tableWidget(t), 0, Qt::AlignLeft);
        if (!t.note.isEmpty()) sections_->addWidget(wrappedLabel(t.note, muted));
      }
    sections_->addWidget(wrappedLabel(keyResultDefinitions(*kr_), QStringLiteral("margin-top: 8px;") + muted));
  }
  sections_->addStretch(1);
  fitText();
}

QTableWidget* KeyResultsView::table(const QString& key) const { return content_->findChild<QTableWidget*>(key); }

QString KeyResultsView::status() const { return status_->text(); }

void KeyResultsView::copyText() const {
  if (kr_) QApplication::clipboard()->setText(q(kr_->toText()));
}

}  // namespace pm::gui
