// Playback repaints only what changed on the schematic (issue 25 point 7,
// responsiveness): a frame updates the items whose displayed value moved
// (a line's colour, a rod, a valve body, a lit symbol), not the whole sheet.
// The user steps the time slider one row with the arrow key; the repainted
// region of the schematic's viewport is checked against the items the two
// frames show differently.
#include "main_window.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "support/studio_window.h"
#include "time_bar.h"
#include "time_cursor.h"

#include <QPaintEvent>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QtTest>

using namespace pm;
using namespace pm::gui;

namespace {

// Collects the regions painted in a widget.
class PaintRecorder : public QObject {
 public:
  explicit PaintRecorder(QWidget* w) : w_(w) { w->installEventFilter(this); }
  ~PaintRecorder() override { w_->removeEventFilter(this); }
  QRegion painted;
  int paints = 0;
  bool eventFilter(QObject*, QEvent* e) override {
    if (e->type() == QEvent::Paint) {
      painted += static_cast<QPaintEvent*>(e)->region();
      ++paints;
    }
    return false;
  }

 private:
  QWidget* w_;
};

// A scene rectangle in viewport pixels, with the antialiasing margin.
QRect inView(SchematicView* view, const QRectF& sceneRect) {
  return view->mapFromScene(sceneRect).boundingRect().adjusted(-3, -3, 3, 3);
}

}  // namespace

class TestGuiSchematicFrames : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void aStepRepaintsOnlyWhatChanged() {
    MainWindow w;
    QVERIFY(pm::test::showProject(w, pm::test::examplePath("seed003_meter_out"), QSize(1400, 1000)));
    QVERIFY(pm::test::runToEnd(w));
    SchematicView* view = w.schematicView();
    SchematicScene* scene = w.scene();
    QSlider* slider = w.timeSlider();
    QVERIFY(slider->isEnabled());

    // Mid-stroke (0.25 s): the piston moves, both chambers' pressures change;
    // the supply line and the switched valve stand still.
    w.timeCursor()->seek(0.25);
    QTest::qWait(50);
    QVERIFY(scene->frame().active);
    const RunFrame before = scene->frame();
    const int row = slider->value();
    {
      PaintRecorder rec(view->viewport());
      // The user takes the slider's handle (a click on it does not move
      // it) and steps one row on with the arrow key.
      QStyleOptionSlider opt;
      opt.initFrom(slider);
      opt.orientation = slider->orientation();
      opt.minimum = slider->minimum();
      opt.maximum = slider->maximum();
      opt.sliderPosition = opt.sliderValue = slider->value();
      const QRect handle = slider->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, slider);
      QTest::mouseClick(slider, Qt::LeftButton, {}, handle.center());
      QCOMPARE(slider->value(), row);
      QTest::keyClick(slider, Qt::Key_Right);
      QTest::qWait(50);
      QCOMPARE(slider->value(), row + 1);
      const RunFrame after = scene->frame();
      // What changed between the two rows, as the test reads the frames.
      QRectF changed;
      QStringList what;
      for (const auto& [id, colour] : after.lineColor)
        if (before.lineColor.at(id).rgba() != colour.rgba()) {
          changed |= scene->wireItem(id)->sceneBoundingRect();
          what << QString::fromStdString(id);
        }
      for (const auto& [id, x] : after.rod)
        if (before.rod.at(id) != x) {
          changed |= scene->componentItem(id)->frameSceneRect();
          what << QString::fromStdString(id);
        }
      qInfo("changed between rows %d and %d: %s; painted %d time(s), bounds %d,%d %dx%d of %dx%d", row, row + 1,
            qPrintable(what.join(", ")), rec.paints, rec.painted.boundingRect().x(), rec.painted.boundingRect().y(),
            rec.painted.boundingRect().width(), rec.painted.boundingRect().height(), view->viewport()->width(),
            view->viewport()->height());
      QVERIFY(what.contains("cyl1"));
      QVERIFY(!rec.painted.isEmpty());
      // Repainted: within the changed items' bounds, and not the supply or
      // its line, which did not change.
      QVERIFY((rec.painted - QRegion(inView(view, changed))).isEmpty());
      const QRect supply = inView(view, scene->componentItem("src")->sceneBoundingRect()).adjusted(3, 3, -3, -3);
      QVERIFY(!rec.painted.intersects(supply));
    }

    // At the end the circuit rests: stepping between the last rows changes
    // no colour, rod or valve, and nothing is repainted.
    w.timeCursor()->seek(w.timeCursor()->end() - 0.01);
    QTest::qWait(50);
    {
      const RunFrame before = scene->frame();
      PaintRecorder rec(view->viewport());
      QTest::keyClick(slider, Qt::Key_Right);
      QTest::qWait(50);
      const RunFrame after = scene->frame();
      bool same = before.rod == after.rod && before.spool == after.spool && before.lit == after.lit;
      for (const auto& [id, colour] : after.lineColor) same = same && before.lineColor.at(id).rgba() == colour.rgba();
      QVERIFY2(same, "the circuit still changes at its end: pick a later instant");
      QCOMPARE(rec.paints, 0);
    }
  }
};

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  TestGuiSchematicFrames test;
  return QTest::qExec(&test, argc, argv);
}
#include "test_gui_schematic_frames.moc"
