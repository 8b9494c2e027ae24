// Plots a user can read (issue #25 point 4): the results get room by default
// and can be maximised and docked again; an empty plot says how to fill it;
// channels come by drag and drop from the results tree and by the context
// menus (the tree's "Plot in", the plot's "Add Channel"); axes name the
// quantity and the unit, the legend is in view; the crosshair's values
// follow the pointer and go when it leaves; Export CSV writes the plotted
// or all channels, in display or SI units, as the dialog states.
#include "csv_export_dialog.h"
#include "main_window.h"
#include "plot_pane.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "results_tree.h"
#include "simulation_runner.h"
#include "units.h"
#include "support/drop_events.h"
#include "support/studio_window.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QFontMetricsF>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QValueAxis>
#include <QtTest>

#include <cmath>
#include <functional>
#include <memory>

using namespace pm;
using namespace pm::gui;
using pm::test::examplePath;
using pm::test::runToEnd;
using pm::test::showProject;

namespace {

// A point of the pane's plot area at fractions (fx, fy) of its width and height.
QPoint plotPoint(PlotPane* pane, double fx, double fy) {
  const QRectF pa = pane->mapFromScene(pane->chart()->mapRectToScene(pane->chart()->plotArea())).boundingRect();
  return QPoint(int(pa.left() + fx * pa.width()), int(pa.top() + fy * pa.height()));
}

// The results tree's row of `name` shown (its group expanded and scrolled to).
QTreeWidgetItem* showRow(ResultsTree* tree, const std::string& name) {
  QTreeWidgetItem* item = tree->channelItem(name);
  if (!item) return nullptr;
  item->parent()->setExpanded(true);
  tree->scrollToItem(item);
  return item;
}

// Runs `step` on the popup menu or modal dialog that the next blocking call opens.
void onNextPopup(std::function<void(QWidget*)> step) {
  QTimer::singleShot(50, [step] {
    QWidget* w = QApplication::activePopupWidget();
    if (!w) w = QApplication::activeModalWidget();
    if (w) step(w);
  });
}

void clickToolButton(QWidget* root, const QString& actionName) {
  auto* a = root->findChild<QAction*>(actionName);
  QVERIFY2(a, qPrintable(actionName));
  for (QToolBar* bar : root->findChildren<QToolBar*>())
    if (QWidget* b = bar->widgetForAction(a)) {
      QTest::mouseClick(b, Qt::LeftButton);
      return;
    }
  QFAIL("no tool button");
}

// w on seed 003 (1500 x 1000 px), run to its end.
bool openAndRun(MainWindow& w) {
  return showProject(w, examplePath("seed003_meter_out"), QSize(1500, 1000)) && runToEnd(w) &&
         w.runner()->lastResult().ok();
}

QList<QByteArray> readLines(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().trimmed().split('\n');
}

}  // namespace

class TestGuiPlots : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove("units/pressure");
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Gauge);
    QVERIFY(dir_.isValid());
  }

  // Room, named axes and the legend, and what an empty plot says.
  void roomAxesLegend() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), QSize(1500, 1000)));
    ResultsPanel* panel = w.resultsPanel();
    // Room by default: the results take at least 40 % of the window's height.
    QVERIFY2(w.resultsDock()->height() >= 0.4 * w.height(), qPrintable(QString::number(w.resultsDock()->height())));
    // An empty plot says what to do.
    QVERIFY(panel->pane(0)->hintText().contains("Run the simulation"));
    QVERIFY(panel->pane(0)->toolTip().isEmpty());  // no tool-tip to stand still over the plot
    w.grab().save(QDir::current().filePath("gui_plots_empty.png"));

    QVERIFY(runToEnd(w));
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());
    ResultBuffer* data = w.resultBuffer();
    const int rows = int(data->rows());
    QCOMPARE(rows, 1001);
    w.grab().save(QDir::current().filePath("gui_plots_studio.png"));

    // The default panes: chamber pressures and the piston position, axes named.
    PlotPane* p1 = panel->pane(0);
    QCOMPARE(panel->paneCount(), 2);
    QVERIFY(p1->hasChannel("cyl1.pA") && p1->hasChannel("cyl1.pB"));
    QCOMPARE(int(p1->yAxes().size()), 1);
    QValueAxis* pAxis = p1->yAxes().front();
    QCOMPARE(p1->axisTitle(pAxis), QString("pressure pA, pB [bar (g)]"));
    QCOMPARE(panel->pane(1)->axisTitle(panel->pane(1)->yAxes().front()), QString("position x [mm]"));
    // What the axis shows fits its height, and says at least the quantity and the unit.
    QVERIFY2(pAxis->titleText() == "pressure pA, pB [bar (g)]" || pAxis->titleText() == "pressure [bar (g)]",
             qPrintable(pAxis->titleText()));
    QVERIFY(QFontMetricsF(pAxis->titleFont()).horizontalAdvance(pAxis->titleText()) <= p1->chart()->plotArea().height());
    // Gauge pressures from 0 to 5 bar (g): the axis starts at 0 on round ticks.
    QCOMPARE(pAxis->min(), 0.0);
    QCOMPARE(pAxis->max(), 6.0);
    // The legend is shown, inside the pane, and names each channel with its unit.
    QLegend* legend = p1->chart()->legend();
    QVERIFY(legend->isVisible());
    const QRectF lg = p1->mapFromScene(legend->mapRectToScene(legend->boundingRect())).boundingRect();
    QVERIFY2(QRectF(p1->viewport()->rect()).adjusted(-2, -2, 2, 2).contains(lg), qPrintable(QString("%1 %2 %3 %4").arg(lg.x()).arg(lg.y()).arg(lg.width()).arg(lg.height())));
    QStringList markers;
    for (QLegendMarker* m : legend->markers()) markers << m->label();
    QCOMPARE(markers, QStringList({"cyl1.pA [bar (g)]", "cyl1.pB [bar (g)]"}));
  }

  // Stacked panes share one time axis position: their plot areas start and
  // end at the same x whatever their y-axis labels ("6" bar against "200"
  // mm, a second axis on the right) and legends, also after a click makes
  // another pane the current one (its frame moves its plot by a pixel).
  void stackedTimeAxesLineUp() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), QSize(1500, 1000)));
    QVERIFY(runToEnd(w));
    ResultsPanel* panel = w.resultsPanel();
    QCOMPARE(panel->paneCount(), 2);  // pressures [bar (g)], position [mm]
    PlotPane* third = panel->addPane();
    QVERIFY(third->addChannel("cyl1.F_friction") && third->addChannel("src.q"));  // N left, Nl/min right
    QCOMPARE(int(third->yAxes().size()), 2);
    auto edges = [&](bool natural) {
      QList<QPair<double, double>> e;
      for (int i = 0; i < panel->paneCount(); ++i) {
        PlotPane* p = panel->pane(i);
        const QRectF r = p->plotAreaIn(panel);
        e << (natural ? qMakePair(r.left() - p->leftInset(), r.right() + p->rightInset()) : qMakePair(r.left(), r.right()));
      }
      return e;
    };
    auto spread = [](const QList<QPair<double, double>>& e, bool right) {
      double lo = 1e9, hi = -1e9;
      for (const auto& p : e) lo = std::min(lo, right ? p.second : p.first), hi = std::max(hi, right ? p.second : p.first);
      return hi - lo;
    };
    auto report = [&] {
      QString s;
      for (const auto& p : edges(false)) s += QString(" [%1, %2]").arg(p.first).arg(p.second);
      return s;
    };
    QTest::qWait(200);
    // Their own labels would place them apart (this is what the test guards).
    QVERIFY2(spread(edges(true), false) > 5, qPrintable(report()));
    QVERIFY2(spread(edges(true), true) > 5, qPrintable(report()));
    QTRY_VERIFY2(spread(edges(false), false) < 1.0 && spread(edges(false), true) < 1.0, qPrintable(report()));
    qInfo("plot areas in the panel:%s (own left edges spread %.0f px)", qPrintable(report()),
          spread(edges(true), false));
    // A click on the second pane makes it current (framed): still in line.
    QTest::mouseClick(panel->pane(1)->viewport(), Qt::LeftButton, {}, plotPoint(panel->pane(1), 0.5, 0.5));
    QCOMPARE(panel->currentPane(), panel->pane(1));
    QTRY_VERIFY2(spread(edges(false), false) < 1.0 && spread(edges(false), true) < 1.0, qPrintable(report()));
    // And the same time is at the same x in every pane: 0.5 s.
    QList<double> xs;
    for (int i = 0; i < panel->paneCount(); ++i) {
      PlotPane* p = panel->pane(i);
      const QPointF v = p->chart()->mapToPosition(QPointF(0.5, p->yAxes().front()->min()), p->series(p->channelNames().front()));
      xs << p->viewport()->mapTo(panel, p->mapFromScene(p->chart()->mapToScene(v))).x();
    }
    QVERIFY2(*std::max_element(xs.begin(), xs.end()) - *std::min_element(xs.begin(), xs.end()) <= 1.0,
             qPrintable(QString("%1 %2 %3").arg(xs[0]).arg(xs[1]).arg(xs[2])));
    QVERIFY(panel->grab().save(QDir::current().filePath("gui_plots_aligned.png")));
  }

  // Channels onto a plot by drag and drop and by both context menus.
  void channelsByDragAndMenus() {
    MainWindow w;
    QVERIFY(openAndRun(w));
    ResultsPanel* panel = w.resultsPanel();
    ResultsTree* tree = panel->tree();
    ResultBuffer* data = w.resultBuffer();
    const int rows = int(data->rows());

    // A new plot is empty and says how to fill it.
    clickToolButton(&w, "actionAddPlot");
    QCOMPARE(panel->paneCount(), 3);
    PlotPane* p3 = panel->pane(2);
    QVERIFY(p3->hintText().startsWith("Drag channels here"));

    // Drag: the user selects the tree's row and drops it on the plot.
    QTreeWidgetItem* v = showRow(tree, "cyl1.v");
    QVERIFY(v);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(v).center());
    QCOMPARE(tree->selectedChannels(), std::vector<std::string>{"cyl1.v"});
    std::unique_ptr<QMimeData> mime(tree->model()->mimeData({tree->indexFromItem(v)}));
    QVERIFY(mime);
    QVERIFY(pm::test::deliverDrop(p3->viewport(), plotPoint(p3, 0.5, 0.5), mime.get()));
    QVERIFY(p3->hasChannel("cyl1.v"));
    QLineSeries* sv = p3->series("cyl1.v");
    QVERIFY(sv);
    QCOMPARE(int(sv->count()), rows);
    const auto& vs = data->columns()[size_t(data->find("cyl1.v"))];
    QVERIFY(std::abs(sv->at(300).y() - vs[300]) < 1e-12);  // m/s as computed
    QCOMPARE(p3->axisTitle(p3->yAxes().front()), QString("velocity v [m/s]"));
    QVERIFY(p3->hintText().isEmpty());

    // Context menu of the tree: right-click cyl1.TA, Plot in > Plot 3.
    QTreeWidgetItem* ta = showRow(tree, "cyl1.TA");
    QVERIFY(ta);
    onNextPopup([](QWidget* menu) {
      QTest::keyClick(menu, Qt::Key_Down);   // "Plot in"
      QTest::keyClick(menu, Qt::Key_Right);  // its submenu, "Plot 1" active
      QTimer::singleShot(50, [] {
        QWidget* sub = QApplication::activePopupWidget();
        QTest::keyClick(sub, Qt::Key_Down);
        QTest::keyClick(sub, Qt::Key_Down);    // "Plot 3"
        QTest::keyClick(sub, Qt::Key_Return);
      });
    });
    const QPoint taAt = tree->visualItemRect(ta).center();
    QTest::mouseClick(tree->viewport(), Qt::RightButton, {}, taAt);  // selects the row
    {
      QContextMenuEvent e(QContextMenuEvent::Mouse, taAt, tree->viewport()->mapToGlobal(taAt));
      QApplication::sendEvent(tree->viewport(), &e);
    }
    QTRY_VERIFY(p3->hasChannel("cyl1.TA"));
    QCOMPARE(int(p3->yAxes().size()), 2);
    QStringList titles;
    for (QValueAxis* a : p3->yAxes()) titles << p3->axisTitle(a);
    titles.sort();
    QCOMPARE(titles, QStringList({QString::fromUtf8("temperature TA [°C]"), "velocity v [m/s]"}));
    const auto& tas = data->columns()[size_t(data->find("cyl1.TA"))];
    QVERIFY(std::abs(p3->series("cyl1.TA")->at(500).y() - (tas[500] - 273.15)) < 1e-9);

    // Context menu of the plot: Add Channel > fc1 > the first of its channels.
    const ResultBuffer::Channel* first = nullptr;
    for (const auto& c : data->channels())
      if (c.object == "fc1" && !p3->hasChannel(c.name) && !first) first = &c;
    QVERIFY(first);
    const std::string firstName = first->name;
    int objectIndex = 0;  // fc1's place in the Add Channel menu
    {
      QStringList objects;
      for (const auto& c : data->channels())
        if (!p3->hasChannel(c.name) && !objects.contains(c.object)) objects << c.object;
      objectIndex = int(objects.indexOf("fc1"));
    }
    QVERIFY(objectIndex >= 0);
    onNextPopup([objectIndex](QWidget* menu) {
      QTest::keyClick(menu, Qt::Key_Down);   // "Add Channel"
      QTest::keyClick(menu, Qt::Key_Right);  // objects, the first active
      QTimer::singleShot(50, [objectIndex] {
        QWidget* objects = QApplication::activePopupWidget();
        for (int i = 0; i < objectIndex; ++i) QTest::keyClick(objects, Qt::Key_Down);
        QTest::keyClick(objects, Qt::Key_Right);
        QTimer::singleShot(50, [] { QTest::keyClick(QApplication::activePopupWidget(), Qt::Key_Return); });
      });
    });
    {
      QContextMenuEvent e(QContextMenuEvent::Mouse, plotPoint(p3, 0.5, 0.5), p3->mapToGlobal(plotPoint(p3, 0.5, 0.5)));
      QApplication::sendEvent(p3->viewport(), &e);
    }
    QTRY_VERIFY(p3->hasChannel(firstName));
  }

  // The crosshair's values follow the pointer and go when it leaves (on the
  // first plot, in view at the top of the panel).
  void crosshairFollowsAndGoes() {
    MainWindow w;
    QVERIFY(openAndRun(w));
    PlotPane* p1 = w.resultsPanel()->pane(0);
    QWidget* vp = p1->viewport();
    const QPoint a = plotPoint(p1, 0.2, 0.3), b = plotPoint(p1, 0.45, 0.3);
    QTest::mouseMove(vp, a);
    p1->grab();  // paints
    const QRect boxA = p1->crosshairBox();
    QVERIFY2(!boxA.isEmpty(), qPrintable(p1->crosshairText()));
    // Beside the pointer: 12 px right of it, 12 px below (or above near the bottom), never under it.
    QCOMPARE(boxA.left(), a.x() + 12);
    QVERIFY2(boxA.top() == a.y() + 12 || boxA.bottom() == a.y() - 12 - 1 || boxA.top() == plotPoint(p1, 0, 0).y(),
             qPrintable(QString("box %1,%2 %3x%4 at %5,%6").arg(boxA.x()).arg(boxA.y()).arg(boxA.width()).arg(boxA.height()).arg(a.x()).arg(a.y())));
    QVERIFY(!boxA.contains(a));
    QTest::mouseMove(vp, b);
    p1->grab();
    const QRect boxB = p1->crosshairBox();
    QCOMPARE(boxB.topLeft() - boxA.topLeft(), b - a);  // moved with the pointer
    QVERIFY(p1->crosshairText().startsWith("t = "));
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(p1, &leave);
    p1->grab();
    QVERIFY(p1->crosshairText().isEmpty());
    QVERIFY(p1->crosshairBox().isEmpty());
    // Outside the plot area (over the axis labels) it is gone as well.
    QTest::mouseMove(vp, a);
    p1->grab();
    QVERIFY(!p1->crosshairBox().isEmpty());
    QTest::mouseMove(vp, QPoint(2, 2));
    p1->grab();
    QVERIFY(p1->crosshairBox().isEmpty());
    p1->setCrosshair(0.45);
    w.grab().save(QDir::current().filePath("gui_plots_crosshair.png"));
  }

  // Maximise: the plots alone, floating over the window; again: docked.
  void maximiseAndBack() {
    MainWindow w;
    QVERIFY(openAndRun(w));
    ResultsPanel* panel = w.resultsPanel();
    QDockWidget* dock = w.resultsDock();
    clickToolButton(&w, "actionMaximisePlots");
    QVERIFY(dock->isFloating());
    QVERIFY2(dock->height() > 0.6 * w.height(), qPrintable(QString::number(dock->height())));
    clickToolButton(dock, "actionMaximisePlots");
    QVERIFY(!dock->isFloating());
    QVERIFY(!panel->maximiseAction()->isChecked());
  }

  void exportCsvBothWays() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), QSize(1500, 1000)));
    QVERIFY(runToEnd(w));
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());
    ResultsPanel* panel = w.resultsPanel();
    ResultBuffer* data = w.resultBuffer();
    const int rows = int(data->rows());
    // Plotted by default: cyl1.pA, cyl1.pB (pane 1) and cyl1.x (pane 2).
    const std::vector<std::string> plotted{"cyl1.pA", "cyl1.pB", "cyl1.x"};
    QCOMPARE(panel->channelsFor(CsvExportDialog::Channels::Plotted), plotted);

    // The plotted channels in display units: the dialog states the choice.
    const QString shown = dir_.filePath("plotted.csv");
    QString summary;
    onNextPopup([&](QWidget* d) {
      auto* dialog = qobject_cast<CsvExportDialog*>(d);
      QVERIFY(dialog);
      QVERIFY(dialog->button(CsvExportDialog::Channels::Plotted)->isChecked());
      QVERIFY(dialog->displayUnitsButton()->isChecked());
      summary = dialog->findChild<QLabel*>("csvSummary")->text();
      dialog->pathEdit()->selectAll();
      QTest::keyClicks(dialog->pathEdit(), shown);
      QTest::keyClick(dialog, Qt::Key_Return);
    });
    QSignalSpy msg(panel, &ResultsPanel::message);
    clickToolButton(&w, "actionExportCsv");
    QTRY_COMPARE(msg.count(), 1);
    QCOMPARE(summary, QString("Writes 3 plotted channels and the time, in display units (bar (g), mm, °C)."));
    QVERIFY2(msg.at(0).at(0).toString().contains(shown), qPrintable(msg.at(0).at(0).toString()));
    auto lines = readLines(shown);
    QCOMPARE(int(lines.size()), rows + 1);
    QCOMPARE(QString::fromUtf8(lines[0]), QString("time [s],cyl1.pA [bar (g)],cyl1.pB [bar (g)],cyl1.x [mm]"));
    auto r = lines[701].split(',');
    QCOMPARE(int(r.size()), 4);
    QVERIFY(std::abs(r[0].toDouble() - 0.7) < 1e-12);
    const double pA = data->columns()[size_t(data->find("cyl1.pA"))][700];
    const double x = data->columns()[size_t(data->find("cyl1.x"))][700];
    QVERIFY(std::abs(r[1].toDouble() - (pA - 101325.0) / 1e5) < 1e-8);
    QVERIFY(std::abs(r[3].toDouble() - x * 1e3) < 1e-7);

    // All channels in SI: what the command line writes.
    const QString si = dir_.filePath("all_si.csv");
    onNextPopup([&](QWidget* d) {
      auto* dialog = qobject_cast<CsvExportDialog*>(d);
      QVERIFY(dialog);
      QTest::mouseClick(dialog->button(CsvExportDialog::Channels::All), Qt::LeftButton);
      QTest::mouseClick(dialog->siUnitsButton(), Qt::LeftButton);
      summary = dialog->findChild<QLabel*>("csvSummary")->text();
      dialog->pathEdit()->selectAll();
      QTest::keyClicks(dialog->pathEdit(), si);
      QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    clickToolButton(&w, "actionExportCsv");
    QTRY_COMPARE(msg.count(), 2);
    const int all = int(panel->channelsFor(CsvExportDialog::Channels::All).size());
    QVERIFY(all > 20);
    QCOMPARE(summary, QString("Writes %1 channels (all of the run) and the time, in SI units (Pa absolute, m, K).").arg(all));
    lines = readLines(si);
    QCOMPARE(int(lines.size()), rows + 1);
    const auto head = lines[0].split(',');
    QCOMPARE(int(head.size()), all + 1);
    QVERIFY(head.contains("cyl1.pA [Pa]") && head.contains("cyl1.x [m]"));
    // Byte for byte the core's writer (as `pneumech simulate -o`).
    const QString core = dir_.filePath("core.csv");
    data->store()->writeCsv(core.toStdString(), panel->channelsFor(CsvExportDialog::Channels::All));
    QCOMPARE(readLines(si), readLines(core));
    r = lines[701].split(',');
    QVERIFY(std::abs(r[int(head.indexOf("cyl1.pA [Pa]"))].toDouble() - pA) <= 1e-9 * pA);

    // Absolute display units: the header says so.
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Absolute);
    const QString abs = dir_.filePath("abs.csv");
    QString err;
    QVERIFY2(panel->exportCsv(abs, plotted, true, &err), qPrintable(err));
    lines = readLines(abs);
    QCOMPARE(QString::fromUtf8(lines[0]), QString("time [s],cyl1.pA [bar (abs)],cyl1.pB [bar (abs)],cyl1.x [mm]"));
    QVERIFY(std::abs(lines[701].split(',')[1].toDouble() - pA / 1e5) < 1e-8);
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Gauge);
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiPlots)
#include "test_gui_plots.moc"
