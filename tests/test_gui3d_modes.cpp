// Modes, deformation scale and stress colours in the 3D view (issue #22),
// on the seed 001 flexible link (7 elements, 1 m, a 0.1 kg payload welded
// to the tip), under Xvfb:
//  - selecting a mode in the Modes table makes the beam's drawn centre line
//    oscillate about the operating point: half a period apart the nodes are
//    on opposite sides at the same distance (1e-9 m); Stop gives the view
//    back (the straight beam of the model, no run yet);
//  - the Deformation spin box (typed 10) draws every node's deflection from
//    the root frame's rigid place 10 times as large (1e-9 relative), the
//    root where it was and the payload still on the tip;
//  - a beam pinned to the ground at both ends (revolute joints about z):
//    in its first bending mode the root turns, yet at 10x the end nodes are
//    drawn where they are (1e-9 m) and the mid-span deflection from the
//    chord is 10 times that at 1x (1e-9 relative): the deformation is
//    measured in the frame through both supports, not from the root's tangent;
//    the same beam pinned to two brackets welded to the ground (a joint
//    to a body that reaches the ground without passing through the beam
//    is a support): the same lowest mode (1e-9 relative) and the same
//    ends kept at 10x; both modes within 1e-4 of Euler-Bernoulli's
//    pinned-pinned pi^2 sqrt(E I / (rho A)) / (2 pi L^2) (8 elements);
//  - after a run, the Stress button colours each node's section by the
//    run's stress there over the run's largest (the colour map at that
//    fraction, 1e-6), draws the colour bar (vivid pixels in the top right),
//    and takes both away again.
// With PM_SCREENSHOTS=DIR the table, the animated mode and the stress
// colours are saved there as PNG files.
#include "document.h"
#include "main_window.h"
#include "mechanism_view.h"
#include "modes_panel.h"
#include "result_buffer.h"
#include "scene3d_scene.h"
#include "support/studio_window.h"
#include "time_cursor.h"

#include <QAction>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QTableWidget>
#include <QToolBar>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::gui;
using pm::test::examplePath;
using pm::test::runToEnd;
using pm::test::showProject;

namespace {

constexpr int kNodes = 8;
constexpr double kElement = 1.0 / 7;

void shoot(QWidget* w, const QByteArray& name) {
  const QByteArray dir = qgetenv("PM_SCREENSHOTS");
  if (!dir.isEmpty()) w->grab().save(QString::fromUtf8(dir) + "/" + QString::fromUtf8(name));
}

// The view as on screen, its overlay (colour bar) included.
void shootView(MechanismView* v, const QByteArray& name) {
  const QByteArray dir = qgetenv("PM_SCREENSHOTS");
  if (!dir.isEmpty()) v->grabFramebuffer().save(QString::fromUtf8(dir) + "/" + QString::fromUtf8(name));
}

// A steel bar 1 m long, 8 elements, pinned to the ground at both ends by
// revolute joints about z (bending in x-y is pinned-pinned), no gravity.
constexpr const char* kPinnedBeam = R"({
  "format": "pneumech-project", "schema_version": 1,
  "meta": {"title": "Beam pinned at both ends"},
  "simulation": {"t_end": 0.1, "output_interval": 0.01},
  "components": [],
  "mechanism": {
    "gravity": [0, 0, 0],
    "parts": [{"id": "ground", "ground": true,
               "markers": [{"id": "a", "position": [0, 0, 0]}, {"id": "b", "position": [1, 0, 0]}],
               "geometry": [{"shape": "cylinder", "marker": "a", "size": {"radius": 0.02, "length": 0.02}},
                            {"shape": "cylinder", "marker": "b", "size": {"radius": 0.02, "length": 0.02}}]}],
    "flexible_bodies": [{"id": "span", "length": 1.0, "elements": 8,
                         "section": {"shape": "rectangle", "hy": 0.01, "bz": 0.01},
                         "material": {"E": 2.1e11, "nu": 0.3, "density": 7850},
                         "markers": [{"id": "root", "node": 0}, {"id": "tip", "node": 8}]}],
    "joints": [{"id": "pin_a", "type": "revolute", "i": "span.root", "j": "ground.a"},
               {"id": "pin_b", "type": "revolute", "i": "span.tip", "j": "ground.b"}]
  }
})";

// The same beam pinned to two brackets (1 kg each), each welded to the
// ground: its supports reach the ground only through the brackets.
constexpr const char* kBracketBeam = R"({
  "format": "pneumech-project", "schema_version": 1,
  "meta": {"title": "Beam pinned to two brackets"},
  "simulation": {"t_end": 0.1, "output_interval": 0.01},
  "components": [],
  "mechanism": {
    "gravity": [0, 0, 0],
    "parts": [{"id": "ground", "ground": true,
               "markers": [{"id": "a", "position": [0, -0.1, 0]}, {"id": "b", "position": [1, -0.1, 0]}]},
              {"id": "post_a", "mass": 1, "inertia": [1e-3, 1e-3, 1e-3, 0, 0, 0], "position": [0, -0.05, 0],
               "markers": [{"id": "foot", "position": [0, -0.05, 0]}, {"id": "pin", "position": [0, 0.05, 0]}],
               "geometry": [{"shape": "box", "size": {"lx": 0.02, "ly": 0.1, "lz": 0.02}}]},
              {"id": "post_b", "mass": 1, "inertia": [1e-3, 1e-3, 1e-3, 0, 0, 0], "position": [1, -0.05, 0],
               "markers": [{"id": "foot", "position": [0, -0.05, 0]}, {"id": "pin", "position": [0, 0.05, 0]}],
               "geometry": [{"shape": "box", "size": {"lx": 0.02, "ly": 0.1, "lz": 0.02}}]}],
    "flexible_bodies": [{"id": "span", "length": 1.0, "elements": 8,
                         "section": {"shape": "rectangle", "hy": 0.01, "bz": 0.01},
                         "material": {"E": 2.1e11, "nu": 0.3, "density": 7850},
                         "markers": [{"id": "root", "node": 0}, {"id": "tip", "node": 8}]}],
    "joints": [{"id": "weld_a", "type": "fixed", "i": "post_a.foot", "j": "ground.a"},
               {"id": "weld_b", "type": "fixed", "i": "post_b.foot", "j": "ground.b"},
               {"id": "pin_a", "type": "revolute", "i": "span.root", "j": "post_a.pin"},
               {"id": "pin_b", "type": "revolute", "i": "span.tip", "j": "post_b.pin"}]
  }
})";

size_t partIndex(const scene3d::MechanismScene& s, const std::string& id) {
  const auto& ids = s.partIds();
  return size_t(std::find(ids.begin(), ids.end(), id) - ids.begin());
}

osg::Vec3d nodeAt(const scene3d::MechanismScene& s, int j) {
  return s.partMatrix(partIndex(s, "link_n" + std::to_string(j))).getTrans();
}

// Node j's deflection from its rigid place in the root node's frame.
osg::Vec3d deflection(const scene3d::MechanismScene& s, int j) {
  const osg::Matrixd root = s.partMatrix(partIndex(s, "link_n0"));
  return nodeAt(s, j) - osg::Vec3d(j * kElement, 0, 0) * root;
}

void clickRow(QTableWidget* t, int row) {
  t->scrollToItem(t->item(row, 0));
  QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, t->visualItemRect(t->item(row, 0)).center());
}

void clickTool(MainWindow& w, const char* action) {
  auto* tb = w.findChild<QToolBar*>("viewToolBar3d");
  QAction* a = w.findChild<QAction*>(action);
  QVERIFY(tb && a && tb->widgetForAction(a) && a->isVisible());
  QTest::mouseClick(tb->widgetForAction(a), Qt::LeftButton);
}

// Strongly coloured pixels in the top-right corner of the view, where the
// stress colour bar is drawn (the background there is a pale grey-blue).
int vividCornerPixels(MechanismView* v) {
  const QImage img = v->grabFramebuffer();
  int n = 0;
  for (int y = 0; y < std::min(img.height(), 260); ++y)
    for (int x = std::max(0, img.width() - 260); x < img.width(); ++x)
      if (img.pixelColor(x, y).hsvSaturation() > 150) ++n;
  return n;
}

}  // namespace

class TestGui3dModes : public QObject {
  Q_OBJECT
  double pinnedFrequency_ = 0;  // the lowest mode of the beam pinned straight to the ground

 private slots:
  void selectedModeAnimatesTheBeam() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed001_flexible_link"), QSize(1500, 1000)));
    MechanismView* v = w.mechanismView();
    QVERIFY(v && v->isVisible());
    const auto& s = v->scene();
    std::vector<osg::Vec3d> straight;
    for (int j = 0; j < kNodes; ++j) straight.push_back(nodeAt(s, j));

    w.findChild<QAction*>("actionModes")->trigger();
    ModesPanel* panel = w.modesPanel();
    QTest::mouseClick(panel->findChild<QPushButton*>("computeModes"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(panel->result(), 120000);  // computed on a worker thread
    QVERIFY(panel->table()->rowCount() >= 2);
    clickRow(panel->table(), 1);
    QVERIFY(panel->animatedMode() >= 0);
    shoot(&w, "modes_table.png");

    // Half a period apart: opposite sides of the operating point (the model's straight beam).
    // (1/8 and 5/8: the tip's phase against the mode's largest state is 0 or pi/2 in an undamped mode.)
    panel->showPhase(0.125);
    std::vector<osg::Vec3d> a, b;
    for (int j = 0; j < kNodes; ++j) a.push_back(nodeAt(s, j));
    shootView(v, "mode_animated.png");
    panel->showPhase(0.625);
    for (int j = 0; j < kNodes; ++j) b.push_back(nodeAt(s, j));
    const double tipMove = (a[kNodes - 1] - b[kNodes - 1]).length();
    qInfo("tip moves %.6g m over half a period", tipMove);
    QVERIFY(tipMove > 0.01);
    // Each node's pose half a period apart is the inverse rigid motion of
    // the mode's twist: the same distance from its rest place (1e-9 m), on
    // the other side (positions follow the twist's exponential, not a line).
    for (int j = 0; j < kNodes; ++j) {
      const osg::Vec3d da = a[size_t(j)] - straight[size_t(j)], db = b[size_t(j)] - straight[size_t(j)];
      QVERIFY2(std::abs(da.length() - db.length()) < 1e-9, qPrintable(QString("node %1").arg(j)));
      QVERIFY2(da.length() < 1e-12 || da * db < 0, qPrintable(QString("node %1").arg(j)));
    }

    // The deformation spin box: 10 times the deflection from the root frame.
    panel->showPhase(0.2);
    std::vector<osg::Vec3d> d1;
    for (int j = 0; j < kNodes; ++j) d1.push_back(deflection(s, j));
    const osg::Vec3d root1 = nodeAt(s, 0);
    const size_t payload = partIndex(s, "payload"), tip = partIndex(s, "link_n7");
    const osg::Matrixd grip1 = s.partMatrix(payload) * osg::Matrixd::inverse(s.partMatrix(tip));
    auto* scale = w.findChild<QDoubleSpinBox*>("deformationScale3d");
    QVERIFY(scale && scale->isVisible());
    QCOMPARE(scale->value(), 1.0);
    scale->setFocus();
    scale->selectAll();
    QTest::keyClicks(scale, "10");
    QTest::keyClick(scale, Qt::Key_Enter);
    QCOMPARE(v->deformationScale(), 10.0);
    panel->showPhase(0.2);
    QVERIFY((nodeAt(s, 0) - root1).length() < 1e-12);
    qInfo("tip deflection %.6g m at 1x, %.6g m at 10x", d1[kNodes - 1].length(), deflection(s, kNodes - 1).length());
    QVERIFY(d1[kNodes - 1].length() > 1e-4);
    for (int j = 1; j < kNodes; ++j)
      QVERIFY2((deflection(s, j) - d1[size_t(j)] * 10.0).length() < 1e-9 * std::max(1.0, d1[size_t(j)].length() * 10),
               qPrintable(QString("node %1").arg(j)));
    const osg::Matrixd grip10 = s.partMatrix(payload) * osg::Matrixd::inverse(s.partMatrix(tip));
    QVERIFY((grip10.getTrans() - grip1.getTrans()).length() < 1e-9);
    shootView(v, "mode_animated_10x.png");
    scale->selectAll();
    QTest::keyClicks(scale, "1");
    QTest::keyClick(scale, Qt::Key_Enter);

    QTest::mouseClick(panel->findChild<QPushButton*>("stopModeAnimation"), Qt::LeftButton);
    QCOMPARE(panel->animatedMode(), -1);
    for (int j = 0; j < kNodes; ++j) QVERIFY((nodeAt(s, j) - straight[size_t(j)]).length() < 1e-12);
  }

  void pinnedBeamKeepsItsEnds_data() {
    QTest::addColumn<QByteArray>("project");
    QTest::newRow("on the ground") << QByteArray(kPinnedBeam);
    QTest::newRow("on brackets") << QByteArray(kBracketBeam);
  }

  void pinnedBeamKeepsItsEnds() {
    QFETCH(QByteArray, project);
    QTemporaryDir dir;
    const QString file = dir.path() + "/pinned.pneumech.json";
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(project);
    f.close();
    MainWindow w;
    QVERIFY(showProject(w, file, QSize(1500, 1000)));
    MechanismView* v = w.mechanismView();
    const auto& s = v->scene();
    auto node = [&](int j) { return s.partMatrix(partIndex(s, "span_n" + std::to_string(j))).getTrans(); };
    w.findChild<QAction*>("actionModes")->trigger();
    ModesPanel* panel = w.modesPanel();
    QTest::mouseClick(panel->findChild<QPushButton*>("computeModes"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(panel->result(), 120000);
    QVERIFY(panel->table()->rowCount() >= 1);
    // The lowest mode: the first bending in x-y, pinned-pinned (pi^2 sqrt(E I / (rho A)) / (2 pi L^2)).
    const Mode& m = panel->result()->modes[size_t(panel->table()->item(0, 0)->text().toInt() - 1)];
    const double I = 0.01 * 0.01 * 0.01 * 0.01 / 12, A = 1e-4;
    const double closed = std::numbers::pi / 2 * std::sqrt(2.1e11 * I / (7850 * A));
    qInfo("lowest mode %.12g Hz (Euler-Bernoulli pinned-pinned %.12g Hz)", m.frequency, closed);
    QVERIFY(std::abs(m.frequency / closed - 1) < 1e-4);
    // On brackets welded to the ground: the same beam on the same supports.
    if (pinnedFrequency_ == 0) pinnedFrequency_ = m.frequency;
    QVERIFY(std::abs(m.frequency / pinnedFrequency_ - 1) < 1e-9);
    clickRow(panel->table(), 0);
    QVERIFY(panel->animatedMode() >= 0);
    // A phase at which the mode is well away from straight.
    panel->showPhase(0.1);
    std::vector<osg::Vec3d> p1;
    for (int j = 0; j <= 8; ++j) p1.push_back(node(j));
    auto fromChord = [](const std::vector<osg::Vec3d>& p, int j) { return p[size_t(j)] - (p[0] + (p[8] - p[0]) * (j / 8.0)); };
    const osg::Matrixd root = s.partMatrix(partIndex(s, "span_n0"));
    const osg::Vec3d tangent = osg::Vec3d(1, 0, 0) * root - root.getTrans();
    qInfo("mid-span deflection from the chord %.6g m, root turned %.6g rad", fromChord(p1, 4).length(),
          std::acos(std::clamp(tangent.x() / tangent.length(), -1.0, 1.0)));
    QVERIFY(fromChord(p1, 4).length() > 1e-3);
    QVERIFY(std::acos(std::clamp(tangent.x() / tangent.length(), -1.0, 1.0)) > 1e-3);  // the root really turns
    const QByteArray tag = QByteArray(QTest::currentDataTag()).replace(' ', '_');
    shootView(v, "pinned_beam_" + tag + "_1x.png");

    auto* scale = w.findChild<QDoubleSpinBox*>("deformationScale3d");
    QVERIFY(scale && scale->isVisible());
    scale->setFocus();
    scale->selectAll();
    QTest::keyClicks(scale, "10");
    QTest::keyClick(scale, Qt::Key_Enter);
    QCOMPARE(v->deformationScale(), 10.0);
    panel->showPhase(0.1);
    std::vector<osg::Vec3d> p10;
    for (int j = 0; j <= 8; ++j) p10.push_back(node(j));
    qInfo("10x: root moved %.3g m, tip %.3g m; mid-span %.9g m vs 10 x %.9g m", (p10[0] - p1[0]).length(),
          (p10[8] - p1[8]).length(), fromChord(p10, 4).length(), 10 * fromChord(p1, 4).length());
    QVERIFY((p10[0] - p1[0]).length() < 1e-9);
    QVERIFY((p10[8] - p1[8]).length() < 1e-9);
    for (int j = 1; j < 8; ++j)
      QVERIFY2((fromChord(p10, j) - fromChord(p1, j) * 10.0).length() < 1e-9 * 10 * fromChord(p1, 4).length(),
               qPrintable(QString("node %1").arg(j)));
    shootView(v, "pinned_beam_" + tag + "_10x.png");
    shoot(&w, "pinned_beam_" + tag + "_window.png");
  }

  void stressColoursAfterARun() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed001_flexible_link"), QSize(1500, 1000)));
    w.document()->edit("shorter", [](Project& p) { p.simulation.t_end = 1.2; });
    QVERIFY(runToEnd(w));
    MechanismView* v = w.mechanismView();
    const auto& s = v->scene();
    const ResultStore& rows = *w.resultBuffer()->store();
    const double t = 0.6;
    w.timeCursor()->seek(t);
    QTest::qWait(50);
    const int plain = vividCornerPixels(v);
    clickTool(w, "stressColours3d");
    QVERIFY(v->stressColours());
    // The run's largest stress, and each node's at t (rows 0.01 s apart: t is a row).
    double top = 0;
    for (int e = 0; e < 7; ++e)
      for (double x : rows.column("link_e" + std::to_string(e) + ".stress")) top = std::max(top, std::abs(x));
    QCOMPARE(s.maxStress(), top);
    const std::vector<double> times = rows.times();
    const size_t row = size_t(std::lower_bound(times.begin(), times.end(), t - 1e-12) - times.begin());
    QVERIFY(std::abs(times[row] - t) < 1e-9);
    qInfo("largest stress %.6g MPa", top * 1e-6);
    for (int j = 0; j < kNodes; ++j) {
      const double sj = rows.column("link_e" + std::to_string(std::min(j, 6)) + ".stress")[row];
      const osg::Vec4 want = scene3d::stressColor(sj / top), got = s.partTint(partIndex(s, "link_n" + std::to_string(j)));
      qInfo("node %d: %.4g MPa -> (%.3f %.3f %.3f)", j, sj * 1e-6, got.r(), got.g(), got.b());
      QCOMPARE(got.a(), 1.0f);
      QVERIFY((got - want).length() < 1e-6);
    }
    QVERIFY((s.partTint(partIndex(s, "link_n0")) - s.partTint(partIndex(s, "link_n6"))).length() > 0.1);
    QTest::qWait(50);
    const int bar = vividCornerPixels(v);
    qInfo("vivid pixels in the top-right corner: %d without the colour bar, %d with it", plain, bar);
    QVERIFY(bar > plain + 1000);  // a 16 x 60..180 px gradient
    shootView(v, "stress_colours.png");
    shoot(&w, "stress_colours_window.png");
    clickTool(w, "stressColours3d");
    QVERIFY(!v->stressColours());
    QCOMPARE(s.partTint(partIndex(s, "link_n0")).a(), 0.0f);
    QTest::qWait(50);
    QVERIFY(std::abs(vividCornerPixels(v) - plain) < 50);
  }
};

QTEST_MAIN(TestGui3dModes)
#include "test_gui3d_modes.moc"
