// The studio remembers the last session (issue 25): the playback speed,
// the window's layout (Machine or Standard, the docks, the splitter between
// the results tree and the plots) and each project's plots (panes, their
// channels and heights). A user arranges a window, closes it; a new window
// (a new session: the studio's own start, MainWindow::rememberSessions)
// comes back as it was, and the project opens with the plots it had. The
// settings live in a temporary folder (QSettings::setPath).
#include "main_window.h"
#include "plot_pane.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "results_tree.h"
#include "support/drop_events.h"
#include "support/studio_window.h"
#include "time_bar.h"
#include "time_cursor.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLineSeries>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QSplitterHandle>
#include <QTemporaryDir>
#include <QToolBar>
#include <QTreeWidget>
#include <QtTest>

#include <memory>

using namespace pm;
using namespace pm::gui;

namespace {

void chooseSpeed(QComboBox* box, const QString& text) {
  const int want = box->findText(text);
  QVERIFY2(want >= 0, qPrintable(text));
  box->setFocus();
  while (box->currentIndex() < want) QTest::keyClick(box, Qt::Key_Down);
  while (box->currentIndex() > want) QTest::keyClick(box, Qt::Key_Up);
  QCOMPARE(box->currentText(), text);
}

QWidget* toolButton(QWidget* root, const QString& actionName) {
  auto* a = root->findChild<QAction*>(actionName);
  if (!a) return nullptr;
  for (QToolBar* bar : root->findChildren<QToolBar*>())
    if (QWidget* b = bar->widgetForAction(a)) return b;
  return nullptr;
}

QPoint plotPoint(PlotPane* pane) {
  const QRectF pa = pane->mapFromScene(pane->chart()->mapRectToScene(pane->chart()->plotArea())).boundingRect();
  return pa.center().toPoint();
}

// Drags a splitter's first handle by `dx` pixels with the mouse.
void dragHandle(QSplitter* s, int dx) {
  QSplitterHandle* h = s->handle(1);
  const QPoint c = h->rect().center();
  QTest::mousePress(h, Qt::LeftButton, {}, c);
  QTest::mouseMove(h, c + QPoint(dx / 2, 0));
  QTest::mouseMove(h, c + QPoint(dx, 0));
  QTest::mouseRelease(h, Qt::LeftButton, {}, c + QPoint(dx, 0));
  QTest::qWait(20);
}

}  // namespace

class TestGuiSessionMemory : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.path());
    QCoreApplication::setOrganizationName("PneuMechTest");
    QCoreApplication::setApplicationName("session-memory");
  }

  void speedLayoutAndPlotsComeBack() {
    const QString project = pm::test::examplePath("seed003_meter_out");
    std::vector<std::vector<std::string>> plotted;
    QList<int> treeSplit, heights;
    {
      MainWindow w;
      QVERIFY(!w.rememberSessions());  // a first session: nothing kept yet
      QVERIFY(pm::test::showProject(w, project, QSize(1400, 1000)));
      QVERIFY(pm::test::runToEnd(w));  // (sets "as fast as possible")
      // The user: speed 2x, a third plot with the piston's speed dragged
      // onto it, the results tree made narrower, the Machine layout.
      chooseSpeed(w.timeBar()->speedBox(), "2x");
      ResultsPanel* panel = w.resultsPanel();
      QTest::mouseClick(toolButton(&w, "actionAddPlot"), Qt::LeftButton);
      QCOMPARE(panel->paneCount(), 3);
      ResultsTree* tree = panel->tree();
      QTreeWidgetItem* v = tree->channelItem("cyl1.v");
      QVERIFY(v);
      v->parent()->setExpanded(true);
      tree->scrollToItem(v);
      QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(v).center());
      std::unique_ptr<QMimeData> mime(tree->model()->mimeData({tree->indexFromItem(v)}));
      QTest::qWait(50);
      QVERIFY(pm::test::deliverDrop(panel->pane(2)->viewport(), plotPoint(panel->pane(2)), mime.get()));
      QVERIFY(panel->pane(2)->hasChannel("cyl1.v"));
      const QList<int> split0 = panel->treeSplitter()->sizes();
      dragHandle(panel->treeSplitter(), -80);
      treeSplit = panel->treeSplitter()->sizes();
      QVERIFY2(treeSplit.front() < split0.front() - 40, qPrintable(QString::number(treeSplit.front())));
      QTest::mouseClick(toolButton(&w, "actionLayoutMachine"), Qt::LeftButton);
      QVERIFY(w.findChild<QAction*>("actionLayoutMachine")->isChecked());
      QVERIFY(w.findChild<QDockWidget*>("libraryDock")->isHidden());
      QTest::qWait(50);
      for (int i = 0; i < panel->paneCount(); ++i) plotted.push_back(panel->pane(i)->channelNames());
      heights = panel->paneSplitter()->sizes();
      treeSplit = panel->treeSplitter()->sizes();  // (the Machine layout widened the dock)
      QVERIFY(w.close());
    }
    QCOMPARE(QSettings().value("session/speed").toString(), QString("2"));

    // A new session: the window as it was left.
    MainWindow w;
    QVERIFY(w.rememberSessions());
    QVERIFY(pm::test::showWindow(w));
    QCOMPARE(w.timeCursor()->speed(), 2.0);
    QCOMPARE(w.timeBar()->speedBox()->currentText(), QString("2x"));
    QVERIFY(w.findChild<QAction*>("actionLayoutMachine")->isChecked());
    QVERIFY(w.findChild<QDockWidget*>("libraryDock")->isHidden());
    QCOMPARE(w.size(), QSize(1400, 1000));
    ResultsPanel* panel = w.resultsPanel();
    QTest::qWait(50);
    QCOMPARE(panel->treeSplitter()->sizes(), treeSplit);
    // Nothing of the project before it is opened; then its plots.
    QCOMPARE(panel->paneCount(), 1);
    QVERIFY(panel->pane(0)->channelNames().empty());
    QVERIFY(w.openProject(project));
    QCOMPARE(panel->paneCount(), 3);
    for (int i = 0; i < 3; ++i) QCOMPARE(panel->pane(i)->channelNames(), plotted[size_t(i)]);
    QTest::qWait(50);
    QCOMPARE(panel->paneSplitter()->sizes(), heights);
    // A run draws them (none replaced by the default choice).
    QVERIFY(pm::test::runToEnd(w));
    QVERIFY(panel->pane(2)->series("cyl1.v"));
    QCOMPARE(int(panel->pane(2)->series("cyl1.v")->count()), int(w.resultBuffer()->rows()));
    // Machine left for Standard: the library is back, as a user left Standard.
    QTest::mouseClick(toolButton(&w, "actionLayoutMachine"), Qt::LeftButton);
    QVERIFY(w.findChild<QAction*>("actionLayoutStandard")->isChecked());
    QVERIFY(!w.findChild<QDockWidget*>("libraryDock")->isHidden());

    // Another project opens with its own (default) plots, nothing of seed 003.
    QVERIFY(w.openProject(pm::test::examplePath("sequence_a_b")));
    QCOMPARE(panel->paneCount(), 1);
    QVERIFY(panel->pane(0)->channelNames().empty());
  }

 private:
  QTemporaryDir dir_;
};

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  TestGuiSessionMemory test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_gui_session_memory.moc"
