// The run's rows on their way to the GUI thread (issue 25 point 7): when the
// GUI falls behind, it is given every k-th row and the newest instead of a
// growing backlog (RowQueue), so the time it shows stays within a bound of
// the engine's and the run's last row is shown; after such a run the plotted
// copy is made again from the results file (ResultBuffer::finish, on a
// thread of its own), so the plots still show every channel's extremes.
#include "result_buffer.h"
#include "row_queue.h"

#include "engine/engine.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

using namespace pm;
using namespace pm::gui;
using Clock = std::chrono::steady_clock;

namespace {

// Row i: time i * 1 ms, values v_c = t * (c + 1) (each row checkable).
constexpr int kWidth = 40;
constexpr double kDt = 1e-3;

std::vector<double> rowValues(double t) {
  std::vector<double> v(kWidth - 1);
  for (int c = 0; c < kWidth - 1; ++c) v[size_t(c)] = t * (c + 1);
  return v;
}

std::vector<double> timesOf(const std::vector<double>& rows, size_t n) {
  std::vector<double> t;
  for (size_t r = 0; r < n; ++r) t.push_back(rows[r * kWidth]);
  return t;
}

}  // namespace

class TestGuiRowQueue : public QObject {
  Q_OBJECT
 private slots:
  // Which rows a full queue keeps, by hand: at most 4 held; the 5th row
  // halves them (rows 0, 2, 4; every 2nd from then on), the 9th again
  // (0, 4, 8; every 4th), and the newest (9) is always given. The next
  // intake starts again with every row.
  void keepsEveryKthAndTheNewest() {
    RowQueue q(4);
    q.setWidth(kWidth);
    for (int i = 0; i < 10; ++i) q.push(i * kDt, rowValues(i * kDt).data());
    std::vector<double> rows;
    const size_t n = q.take(rows);
    QCOMPARE(n, size_t(4));
    QCOMPARE(rows.size(), n * kWidth);
    const std::vector<double> want{0 * kDt, 4 * kDt, 8 * kDt, 9 * kDt};
    QCOMPARE(timesOf(rows, n), want);
    for (size_t r = 0; r < n; ++r) QCOMPARE(rows[r * kWidth + 5], rows[r * kWidth] * 5);  // whole rows
    QCOMPARE(q.dropped(), uint64_t(6));
    QVERIFY(q.thinned());
    q.push(10 * kDt, rowValues(10 * kDt).data());
    q.push(11 * kDt, rowValues(11 * kDt).data());
    QCOMPARE(q.take(rows), size_t(2));
    QCOMPARE(timesOf(rows, 2), (std::vector<double>{10 * kDt, 11 * kDt}));
    QCOMPARE(q.dropped(), uint64_t(6));
    // The newest row at an odd place when the queue thins (row 3 of 0..3,
    // room for 3) is given all the same.
    RowQueue r(3);
    r.setWidth(kWidth);
    for (int i = 0; i < 4; ++i) r.push(i * kDt, rowValues(i * kDt).data());
    QCOMPARE(r.take(rows), size_t(3));
    QCOMPARE(timesOf(rows, 3), (std::vector<double>{0, 2 * kDt, 3 * kDt}));
    QCOMPARE(r.dropped(), uint64_t(1));
  }

  // A producer pushes 100 rows (0.1 s of simulated time) per millisecond of
  // wall time for 4 s; the consumer, as a GUI thread drawing them, spends
  // 20 us per row it is given: half the rate of the rows. Bound: after each
  // intake is drawn, the time shown (the intake's last row) lags the
  // engine's newest by at most the rows of one full intake drawn
  // (2049 x 20 us = 41 ms) plus 400 ms of scheduling on a loaded machine, at
  // 100 s of simulated time per second: 44.1 s. Queued whole, the backlog
  // would grow by half the rows each second (a lag of some 200 s at the end).
  void slowConsumerStaysWithinTheBound() {
    RowQueue q(2048);
    q.setWidth(kWidth);
    const int rowsPerMs = 100, wallMs = 4000, total = rowsPerMs * wallMs;
    std::atomic<double> engineT{-1.0};
    std::atomic<bool> done{false};
    std::thread producer([&] {
      const auto t0 = Clock::now();
      int i = 0;
      while (i < total) {
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        const int due = std::min(total, int(ms * rowsPerMs) + 1);
        for (; i < due; ++i) {
          const double t = i * kDt;
          q.push(t, rowValues(t).data());
          engineT.store(t);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      done.store(true);
    });
    const double bound = (2049 * 20e-6 + 0.4) * rowsPerMs * 1000 * kDt;
    std::vector<double> rows;
    double shown = -1.0, worst = 0.0;
    size_t intakes = 0, given = 0;
    bool ordered = true, whole = true;
    for (;;) {
      const bool last = done.load();
      const size_t n = q.take(rows);
      if (n > 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(20 * n));  // drawing them
        for (size_t r = 0; r < n; ++r) {
          ordered = ordered && rows[r * kWidth] > shown;
          whole = whole && rows[r * kWidth + kWidth - 1] == rows[r * kWidth] * (kWidth - 1);
          shown = rows[r * kWidth];
        }
        worst = std::max(worst, engineT.load() - shown);
        ++intakes;
        given += n;
      }
      if (last && n == 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the next frame
    }
    producer.join();
    qInfo("%zu intakes, %zu of %d rows given, worst lag %.2f s of simulated time (bound %.2f s)", intakes, given,
          total, worst, bound);
    QVERIFY(ordered && whole);
    QVERIFY2(worst <= bound, qPrintable(QString("lag %1 s > %2 s").arg(worst).arg(bound)));
    QVERIFY(q.thinned());  // it did fall behind
    QCOMPARE(shown, (total - 1) * kDt);  // the final row is shown
  }

  // A run whose rows reached the buffer thinned (every 10th) lacks a spike;
  // finish() with rowsLeftOut makes the copy again from the results file:
  // the spike and every row are there, as if every row had been appended.
  void thinnedRunIsPlottedFromTheFileAfterwards() {
    QTemporaryDir dir;
    RawResultFile file(dir.path().toStdString());
    const std::vector<ChannelInfo> channels{{"cyl1.pA", "Pa"}, {"cyl1.x", "m"}};
    file.setChannels(channels);
    ResultBuffer thinned, all;
    thinned.begin(channels);
    all.begin(channels);
    const int n = 30001;
    std::vector<double> fed, every;
    for (int i = 0; i < n; ++i) {
      const double t = i * kDt, p = i == 12345 ? 9e5 : 2e5 + 1e3 * std::sin(t), x = 0.1 * t;
      const double row[] = {p, x};
      file.append(t, row);
      every.insert(every.end(), {t, p, x});
      if (i % 10 == 0 || i == n - 1) fed.insert(fed.end(), {t, p, x});
    }
    file.flush();
    thinned.append(fed, fed.size() / 3);
    all.append(every, size_t(n));
    const auto& pA = thinned.columns()[0];
    QVERIFY(*std::max_element(pA.begin(), pA.end()) <= 2e5 + 1e3);  // the spike was left out
    const uint64_t generation = thinned.generation();
    auto shared = std::shared_ptr<const RawResultFile>(&file, [](const RawResultFile*) {});
    QSignalSpy replaced(&thinned, &ResultBuffer::rowsReplaced);
    thinned.finish(shared, true);  // made again on a thread of its own
    QVERIFY(replaced.wait(30000));
    QVERIFY(!thinned.reloading());
    QVERIFY(thinned.generation() != generation);  // views copying rows start over
    all.finish(shared, false);
    QCOMPARE(thinned.times(), all.times());
    QCOMPARE(thinned.columns(), all.columns());
    QCOMPARE(*std::max_element(thinned.columns()[0].begin(), thinned.columns()[0].end()), 9e5);
    QCOMPARE(thinned.times().back(), (n - 1) * kDt);
    QCOMPARE(thinned.store()->rows(), thinned.rows());
  }
};

QTEST_MAIN(TestGuiRowQueue)
#include "test_gui_row_queue.moc"
