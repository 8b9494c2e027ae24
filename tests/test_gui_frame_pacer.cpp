// FramePacer (gui/frame_pacer.h), a unit test without widgets: the pause before the next frame is as long as the event loop
// was busy since the last one (beyond the pause asked for then), within
// [min, max]. Real sleeps stand for a busy loop; a loaded machine can only
// make them longer, so each check bounds from the side a longer sleep keeps.
#include "frame_pacer.h"

#include <QtTest>

#include <thread>

using pm::gui::FramePacer;

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
};

QTEST_APPLESS_MAIN(TestFramePacer)
#include "test_gui_frame_pacer.moc"
