// The 3D mechanism view (gui/mechanism_view): drawn poses follow the result
// channels, a snapshot is a real picture, clicking a part selects it, the
// animation cursor plays, loops and follows a growing result store.
// Needs OpenGL: CTest runs it under Xvfb (xvfb-run when DISPLAY is unset).
//
// To look at the view: PM_SNAPSHOT=/tmp/view.png [PM_SNAPSHOT_PROJECT=
// slider_crank.pneumech.json] [PM_SNAPSHOT_SELECT=crank] [PM_SNAPSHOT_MARKERS=1]
// test_gui3d_view snapshotIsAPicture
#include "mechanism_view.h"
#include "mechanism_view_controls.h"
#include "engine/engine.h"
#include "support/test_project.h"

#include <QSignalSpy>
#include <QtTest/QtTest>

#include <cmath>
#include <set>

using namespace pm;
using pm::gui::AnimationControls;
using pm::gui::MechanismView;

namespace {

// World matrix of a frame from the result channels, with the model's own
// convention written out independently: R = Rz(yaw) Ry(pitch) Rx(roll).
QMatrix4x4 expectedFrame(double x, double y, double z, double roll, double pitch, double yaw) {
  QMatrix4x4 m;
  m.translate(float(x), float(y), float(z));
  m.rotate(float(yaw * 180 / M_PI), 0, 0, 1);
  m.rotate(float(pitch * 180 / M_PI), 0, 1, 0);
  m.rotate(float(roll * 180 / M_PI), 1, 0, 0);
  return m;
}

struct Loaded {
  Project project;
  ResultStore results;
  bool analysed = false;
};

std::unique_ptr<Loaded> loadAndAnalyse(const std::string& name) {
  auto l = std::make_unique<Loaded>();
  l->project = engine::load(test::projectPath(name));
  try {
    engine::analyse(l->project, name, MechanismAnalysis::Kinematic, l->results);
    l->analysed = true;
  } catch (const std::exception&) {
    l->analysed = false;  // not fully driven: the view shows the initial pose
  }
  return l;
}

}  // namespace

class TestGui3dView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    if (!MechanismView::isSupported()) QSKIP("no OpenGL on this platform (run under Xvfb)");
  }

  void poseFollowsResultChannels() {
    auto l = loadAndAnalyse("cardan_shafts.pneumech.json");
    QVERIFY(l->analysed);
    MechanismView view;
    view.resize(640, 480);
    view.setProject(l->project);
    view.setResults(&l->results);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.endTime(), l->project.simulation.t_end);
    for (double t : {0.0, 0.37, view.endTime()}) {
      view.setPose(t);
      const auto times = l->results.times();
      const size_t row = std::min_element(times.begin(), times.end(),
                                          [t](double a, double b) { return std::abs(a - t) < std::abs(b - t); }) -
                         times.begin();
      if (std::abs(times[row] - t) > 1e-12) continue;  // only check at rows
      for (const char* part : {"shaft1", "shaft2"}) {
        auto ch = [&](const char* q) { return l->results.column(std::string(part) + "." + q)[row]; };
        const QMatrix4x4 want = expectedFrame(ch("x"), ch("y"), ch("z"), ch("roll"), ch("pitch"), ch("yaw"));
        const QMatrix4x4 got = view.partTransform(part);
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) QVERIFY2(std::abs(got(i, j) - want(i, j)) < 1e-5, qPrintable(QString("%1 (%2,%3) at t=%4").arg(part).arg(i).arg(j).arg(t)));
      }
    }
    // Between rows the pose is interpolated; the drawn cardan stays closed:
    // both shafts' joint markers coincide.
    view.setPose(0.4321);
    QVector3D u1, u2;
    QVERIFY(view.markerPosition("shaft1.u", u1));
    QVERIFY(view.markerPosition("shaft2.u", u2));
    QVERIFY((u1 - u2).length() < 2e-4);
    view.setPose(view.endTime());
    QVERIFY(view.markerPosition("shaft1.u", u1));
    QVERIFY(view.markerPosition("shaft2.u", u2));
    QVERIFY((u1 - u2).length() < 1e-6);
  }

  // The tool changer's holder and tool are lumped into the arm
  // (MultibodyOptions::lumpFixedJoints): their channels, derived from the
  // arm's, still move them in the view, with the arm.
  void lumpedPartsMoveWithTheirCarrier() {
    Project pr = engine::load(test::projectPath("tool_changer.pneumech.json"));
    test::settings(pr, 0.8, 0.01);
    auto r = test::simulate(pr);
    QVERIFY2(r->ok(), r->message().c_str());
    MechanismView view;
    view.resize(640, 480);
    view.setProject(r->project);
    view.setResults(&r->out);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QMatrix4x4 first;
    for (double t : {0.0, 0.8}) {
      view.setPose(t);
      const size_t row = r->indexAt(t);
      for (const char* part : {"arm", "holder", "tool"}) {
        auto ch = [&](const char* q) { return r->out.column(std::string(part) + "." + q)[row]; };
        const QMatrix4x4 want = expectedFrame(ch("x"), ch("y"), ch("z"), ch("roll"), ch("pitch"), ch("yaw"));
        const QMatrix4x4 got = view.partTransform(part);
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j)
            QVERIFY2(std::abs(got(i, j) - want(i, j)) < 1e-5, qPrintable(QString("%1 (%2,%3) at t=%4").arg(part).arg(i).arg(j).arg(t)));
      }
      if (t == 0.0) first = view.partTransform("tool");
    }
    // The arm swings about its pivot, the frames' common origin, by 0.8 s:
    // the tool's centre of mass (0.32 m along its x) moved with it.
    const QVector3D cm(0.32f, 0.0f, 0.0f);
    const QVector3D moved = view.partTransform("tool").map(cm) - first.map(cm);
    QVERIFY2(moved.length() > 0.01, qPrintable(QString("tool moved %1 m").arg(moved.length())));
  }

  void snapshotIsAPicture() {
    const QByteArray name = qgetenv("PM_SNAPSHOT_PROJECT");
    auto l = loadAndAnalyse(name.isEmpty() ? "cardan_shafts.pneumech.json" : name.toStdString());
    MechanismView view;
    view.resize(800, 600);
    view.setProject(l->project);
    if (l->analysed) view.setResults(&l->results);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setPose(l->analysed ? view.endTime() * 0.3 : 0.0);
    view.setMarkersVisible(qEnvironmentVariableIsSet("PM_SNAPSHOT_MARKERS"));
    view.select(qEnvironmentVariable("PM_SNAPSHOT_SELECT"));
    const QImage img = view.snapshot(1200, 800);
    QCOMPARE(img.size(), QSize(1200, 800));
    std::set<QRgb> colours;
    for (int y = 0; y < img.height(); y += 4)
      for (int x = 0; x < img.width(); x += 4) colours.insert(img.pixel(x, y));
    QVERIFY2(colours.size() > 200, qPrintable(QString("only %1 distinct colours").arg(colours.size())));
    // The parts are there: some strongly coloured pixels in the middle, not
    // only the grey-blue background.
    int saturated = 0;
    for (int y = 200; y < 600; y += 2)
      for (int x = 300; x < 900; x += 2) saturated += QColor(img.pixel(x, y)).saturation() > 80 ? 1 : 0;
    QVERIFY2(saturated > 50, qPrintable(QString("%1 coloured pixels").arg(saturated)));
    const QByteArray out = qgetenv("PM_SNAPSHOT");
    if (!out.isEmpty()) QVERIFY(img.save(QString::fromLocal8Bit(out)));
  }

  void clickSelectsPart() {
    auto l = loadAndAnalyse("cardan_shafts.pneumech.json");
    MechanismView view;
    view.resize(640, 480);
    view.setProject(l->project);
    view.setResults(&l->results);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setPose(0.25);
    QTRY_VERIFY(view.lastFrameMs() > 0);
    QSignalSpy spy(&view, &MechanismView::objectSelected);
    // Middle of shaft 1 (drawn from its bearing marker b to the cardan
    // marker u), away from the joint glyphs at both ends.
    QVector3D a, b;
    QVERIFY(view.markerPosition("shaft1.u", a));
    QVERIFY(view.markerPosition("shaft1.b", b));
    const QPoint p = view.projectToWidget(a * 0.5f + b * 0.5f).toPoint();
    QVERIFY(view.rect().contains(p));
    QCOMPARE(view.objectAt(p), QString("shaft1"));
    QTest::mouseClick(&view, Qt::LeftButton, {}, p);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QString("shaft1"));
    QCOMPARE(view.selectedId(), QString("shaft1"));
    // A click on the empty corner clears the selection.
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(3, 3));
    QCOMPARE(spy.count(), 2);
    QVERIFY(view.selectedId().isEmpty());
    // The joint glyph of the cardan is its own object.
    QVERIFY(view.markerPosition("shaft1.u", a));
    QCOMPARE(view.objectAt(view.projectToWidget(a).toPoint()), QString("cardan"));
    // Picking works the same from the top in an orthographic projection.
    view.setStandardView(MechanismView::StandardView::Top);
    view.setOrthographic(true);
    const quint64 frames = view.frameCount();
    QTRY_VERIFY(view.frameCount() > frames);
    const QPoint q = view.projectToWidget(a * 0.5f + b * 0.5f).toPoint();
    QVERIFY(q != p);
    QCOMPARE(view.objectAt(q), QString("shaft1"));
  }

  void animationPlaysLoopsAndFollowsLive() {
    auto l = loadAndAnalyse("cardan_shafts.pneumech.json");
    MechanismView view;
    view.resize(400, 300);
    view.setProject(l->project);
    AnimationControls controls;
    controls.attach(&view);
    // A run in progress: rows arrive in chunks.
    ResultStore live;
    live.setChannels(l->results.channels());
    view.setResults(&live);
    const auto times = l->results.times();
    const auto cols = l->results.channels().size();
    std::vector<std::vector<double>> data;
    for (size_t c = 0; c < cols; ++c) data.push_back(l->results.column(int(c)));
    auto appendRows = [&](size_t from, size_t to) {
      std::vector<double> row(cols);
      for (size_t r = from; r < to; ++r) {
        for (size_t c = 0; c < cols; ++c) row[c] = data[c][r];
        live.append(times[r], row.data());
      }
    };
    controls.setFollowLive(true);
    appendRows(0, 50);
    controls.tick(0.0);
    QCOMPARE(controls.time(), times[49]);
    QCOMPARE(view.time(), times[49]);
    appendRows(50, times.size());
    controls.tick(0.0);
    QCOMPARE(view.time(), times.back());
    // Play from the start at half speed, then loop.
    controls.setTime(0.0);
    controls.setSpeed(0.5);
    controls.play();
    QVERIFY(!controls.followsLive());
    controls.tick(0.4);
    QVERIFY(std::abs(controls.time() - 0.2) < 1e-12);
    QVERIFY(std::abs(view.time() - 0.2) < 1e-12);
    controls.tick(2.0);  // past the end without loop: stops there
    QCOMPARE(controls.time(), controls.end());
    QVERIFY(!controls.isPlaying());
    controls.setLoop(true);
    controls.play();  // at the end: restarts from the beginning
    controls.tick(2.4);
    QVERIFY(std::abs(controls.time() - 0.2) < 1e-9);
    QVERIFY(controls.isPlaying());
    controls.stepForward();
    QVERIFY(!controls.isPlaying());
    QVERIFY(std::abs(controls.time() - 0.21) < 1e-9);
    controls.stepBack();
    QVERIFY(std::abs(controls.time() - 0.2) < 1e-9);
    view.setResults(nullptr);
  }
};

QTEST_MAIN(TestGui3dView)
#include "test_gui3d_view.moc"
