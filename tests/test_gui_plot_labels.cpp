// The plots' axis tick labels and titles are painted (issue #25 point 4):
// after a long run (sequence_a_b for 60 s) every pane shows its time axis's
// tick labels and title, and each y axis its tick labels and title. A
// screenshot of the studio once showed the pressure plot without them and
// both plots without time labels: Qt Charts had placed them (their items
// were visible, with text), but the pane painted its items from pixmap
// caches, which came out blank for the labels. So the test looks at the
// painted pixels where each label's item lies, as well as at the axes'
// properties.
#include "main_window.h"
#include "plot_pane.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "simulation_runner.h"
#include "units.h"
#include "support/studio_window.h"

#include "engine/engine.h"

#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QImage>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using namespace pm::test;

namespace {

// Pixels darker than the grid and the plot's frame (text is dark grey).
int darkPixels(const QImage& img, const QRect& r) {
  int n = 0;
  const QRect in = r.intersected(img.rect());
  for (int y = in.top(); y <= in.bottom(); ++y)
    for (int x = in.left(); x <= in.right(); ++x)
      if (qGray(img.pixel(x, y)) < 150) ++n;
  return n;
}

// The tick labels a value axis shows: its range in tickCount - 1 steps, "%g".
QStringList tickTexts(const QValueAxis* a) {
  QStringList t;
  for (int i = 0; i < a->tickCount(); ++i) {
    double v = a->min() + (a->max() - a->min()) * i / (a->tickCount() - 1);
    if (std::abs(v) < 1e-12 * (a->max() - a->min())) v = 0.0;
    t << QString::asprintf("%g", v);
  }
  return t;
}

struct Painted {
  QStringList texts;    // of the visible text items whose place in the picture has text
  QStringList missing;  // visible text items painted blank: "text @ x,y"
};

// What the pane's picture shows of its text items (axis labels, titles, legend).
Painted paintedTexts(PlotPane* pane) {
  const QImage img = pane->viewport()->grab().toImage();
  Painted p;
  for (QGraphicsItem* i : pane->scene()->items()) {
    auto* text = dynamic_cast<QGraphicsTextItem*>(i);
    if (!text || !text->isVisible() || text->toPlainText().trimmed().isEmpty()) continue;
    const QRect r = pane->mapFromScene(text->sceneBoundingRect()).boundingRect();
    if (darkPixels(img, r) >= 3) p.texts << text->toPlainText();
    else p.missing << QString("%1 @ %2,%3").arg(text->toPlainText()).arg(r.x()).arg(r.y());
  }
  return p;
}

}  // namespace

class TestGuiPlotLabels : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove("units/pressure");
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Gauge);
  }

  void longRunKeepsTickLabelsAndTitles() {
    QTemporaryDir dir;
    Project p = engine::load(examplePath("sequence_a_b").toStdString());
    p.simulation.t_end = 60.0;
    MainWindow w;
    QVERIFY(showSavedProject(w, p, dir.filePath("seq60.pneumech.json"), QSize(1600, 1000)));
    QVERIFY(runToEnd(w));
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());
    QCOMPARE(w.resultBuffer()->times().back(), 60.0);
    ResultsPanel* panel = w.resultsPanel();
    QCOMPARE(panel->paneCount(), 2);  // pressures, positions
    QTest::qWait(300);                // laid out, the plots' last redraw done
    w.grab().save(QDir::current().filePath("gui_plot_labels_60s.png"));
    for (int i = 0; i < panel->paneCount(); ++i) {
      PlotPane* pane = panel->pane(i);
      QVERIFY(pane->isVisible());
      std::vector<QValueAxis*> axes = pane->yAxes();
      QCOMPARE(int(axes.size()), 1);
      axes.insert(axes.begin(), pane->timeAxis());
      QCOMPARE(pane->timeAxis()->max(), 60.0);
      // The curves still come from pixmaps (the cursor's strip is blitted).
      int cached = 0;
      for (QGraphicsItem* item : pane->scene()->items())
        cached += item->cacheMode() == QGraphicsItem::DeviceCoordinateCache;
      QVERIFY(cached >= 2);
      const Painted painted = paintedTexts(pane);
      QVERIFY2(painted.missing.isEmpty(), qPrintable(QString("pane %1: painted blank: %2").arg(i).arg(painted.missing.join("; "))));
      for (QValueAxis* a : axes) {
        QVERIFY(a->isVisible() && a->labelsVisible() && a->isTitleVisible());
        QVERIFY(!a->titleText().isEmpty());
        QVERIFY2(painted.texts.contains(a->titleText()),
                 qPrintable(QString("pane %1: title %2 not painted; painted: %3").arg(i).arg(a->titleText(), painted.texts.join(", "))));
        // Every tick's label (Qt Charts hides none on these wide panes).
        for (const QString& t : tickTexts(a))
          QVERIFY2(painted.texts.contains(t),
                   qPrintable(QString("pane %1, axis %2: tick label %3 not painted; painted: %4")
                                  .arg(i).arg(a->titleText(), t, painted.texts.join(", "))));
      }
    }
  }
};

QTEST_MAIN(TestGuiPlotLabels)
#include "test_gui_plot_labels.moc"
