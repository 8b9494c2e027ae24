// FramePacer (gui/frame_pacer.h), a unit test without widgets: the pause before the next frame is as long as the event loop
// was busy since the last one (beyond the pause asked for then), within
// [min, max], and long enough that the thread's CPU time stays within its
// share. Real sleeps stand for a busy loop; a loaded machine can only
// make them longer, so each check bounds from the side a longer sleep keeps.
#include "frame_pacer.h"

#include <QtTest>

#include <ctime>

#include <thread>

using pm::gui::FramePacer;

namespace {

double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * double(ts.tv_sec) + 1e-6 * double(ts.tv_nsec);
}

}  // namespace

class TestFramePacer : public QObject {
  Q_OBJECT
 private slots:
  void pauseFollowsTheBusyTime() {
    FramePacer p(33, 200);
    p.restart();
    // The first frame came 33 ms + 120 ms busy after the start: 120 ms pause.
    std::this_thread::sleep_for(std::chrono::milliseconds(153));
    const int a = p.next();
    QVERIFY2(a >= 120 && a <= 200, qPrintable(QString::number(a)));
    // Busy far longer than the longest pause: the longest pause.
    std::this_thread::sleep_for(std::chrono::milliseconds(a + 600));
    QCOMPARE(p.next(), 200);
    // A restart (a new playback) begins at the shortest pause again, and a
    // frame on time (no busy time beyond it) keeps it.
    p.restart();
    QCOMPARE(p.next() >= 33, true);
    FramePacer q(33, 200);
    q.restart();
    QCOMPARE(q.next(), 33);  // at once: no busy time at all
  }

  // A frame that costs the thread CPU time (issue 25 point 7: the GUI
  // thread under 20 % of a core during a live run): the pause after it is
  // long enough that the frame's CPU time is at most kCpuShare (15 %) of
  // its busy time and the pause, up to the longest pause.
  void pauseKeepsTheCpuShare() {
    const double share = FramePacer::kCpuShare;
    for (double spinMs : {5.0, 20.0, 40.0}) {
      FramePacer p(33, 1000);
      p.restart();
      const auto w0 = std::chrono::steady_clock::now();
      const double c0 = cpuMs();
      volatile double x = 0;
      while (cpuMs() - c0 < spinMs) x = x + 1.0;
      const int pause = p.next();
      const double cpu = cpuMs() - c0;
      const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count();
      const double busy = wall - 33;  // beyond the first pause the pacer asked for
      // + 1 ms: the pause is rounded to whole ms and the pacer's clocks are
      // read just before these (at spin 5 ms the share's pause is ~33 ms).
      QVERIFY2(cpu / (busy + pause + 1.0) <= share * 1.02 || pause == 1000,
               qPrintable(QString("spin %1 ms: cpu %2 ms, wall %3 ms, pause %4 ms").arg(spinMs).arg(cpu).arg(wall).arg(pause)));
    }
  }
};

QTEST_APPLESS_MAIN(TestFramePacer)
#include "test_gui_frame_pacer.moc"
