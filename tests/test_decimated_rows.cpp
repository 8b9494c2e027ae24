// results/decimated_rows.h, the studio's bounded copy of a run's rows: on a
// run far longer than its target it stays bounded, keeps each channel's
// exact minimum and maximum (rows where they happened, with their time),
// the final row, and only rows the run had; a short run is kept whole.
#include "results/decimated_rows.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace pm;

namespace {

// Row i of a synthetic run: a sine per channel at its own frequency, noise,
// and one spike per channel at a row of its own.
std::vector<double> rowAt(size_t i, size_t channels, std::mt19937& rng) {
  std::normal_distribution<double> noise(0.0, 0.1);
  std::vector<double> r(channels);
  for (size_t c = 0; c < channels; ++c) {
    r[c] = std::sin(0.001 * double(i) * double(c + 1)) + noise(rng);
    if (i == 1000 + 7919 * c) r[c] += 50.0;        // a spike up
    if (i == 3000 + 6007 * c) r[c] -= 40.0;        // and one down
  }
  if (i % 1000 == 17) r[0] = NAN;  // NaN rows count for no extreme
  return r;
}

}  // namespace

class TestDecimatedRows : public QObject {
  Q_OBJECT
 private slots:
  void shortRunIsKeptWhole() {
    DecimatedRows d(100);
    d.setChannels(2);
    for (int i = 0; i < 150; ++i) {
      const double row[2] = {double(i), -double(i)};
      d.append(0.01 * i, row);
    }
    QCOMPARE(d.rows(), size_t(150));
    QCOMPARE(d.stride(), size_t(1));
    QCOMPARE(d.columns()[1][149], -149.0);
  }

  void longRunKeepsExactExtremesAndTheLastRowWithinItsBound() {
    const size_t channels = 12, rows = 200000, target = 500;
    DecimatedRows d(target);
    d.setChannels(channels);
    std::mt19937 rng(7);
    std::vector<double> lo(channels, INFINITY), hi(channels, -INFINITY), tLo(channels), tHi(channels), last;
    size_t most = 0;
    for (size_t i = 0; i < rows; ++i) {
      const double t = 1e-3 * double(i);
      const auto r = rowAt(i, channels, rng);
      for (size_t c = 0; c < channels; ++c) {
        if (r[c] < lo[c]) lo[c] = r[c], tLo[c] = t;
        if (r[c] > hi[c]) hi[c] = r[c], tHi[c] = t;
      }
      d.append(t, r.data());
      most = std::max(most, d.rows());
      last = r;
    }
    QCOMPARE(d.rowsSeen(), rows);
    QVERIFY2(most <= 2 * target + 2 * channels + 1, qPrintable(QString::number(most)));
    QVERIFY(d.stride() >= rows / target / 2);
    QVERIFY(d.rows() >= target / 2);
    for (size_t c = 0; c < channels; ++c) {
      const auto& col = d.columns()[c];
      const auto mn = std::min_element(col.begin(), col.end(), [](double a, double b) { return a < b || std::isnan(b); });
      const auto mx = std::max_element(col.begin(), col.end(), [](double a, double b) { return a < b || std::isnan(a); });
      QCOMPARE(*mn, lo[c]);  // exact: the very row
      QCOMPARE(*mx, hi[c]);
      QCOMPARE(d.times()[size_t(mn - col.begin())], tLo[c]);
      QCOMPARE(d.times()[size_t(mx - col.begin())], tHi[c]);
      QVERIFY(col.back() == last[c] || (std::isnan(col.back()) && std::isnan(last[c])));
    }
    QCOMPARE(d.times().back(), 1e-3 * double(rows - 1));
    // Only the run's own rows, in time order.
    std::mt19937 again(7);
    std::vector<std::vector<double>> all;
    for (size_t i = 0; i < rows; ++i) all.push_back(rowAt(i, channels, again));
    for (size_t k = 0; k < d.rows(); ++k) {
      const size_t g = d.index(k);
      QCOMPARE(d.times()[k], 1e-3 * double(g));
      if (k > 0) QVERIFY(d.index(k - 1) < g);
      for (size_t c = 1; c < channels; ++c) QCOMPARE(d.columns()[c][k], all[g][c]);
    }
  }

  void risingChannelKeepsTheNewestAsItsMaximum() {
    // Every row is a new maximum: each replaces the last, the copy stays small.
    DecimatedRows d(64);
    d.setChannels(1);
    for (int i = 0; i < 100000; ++i) {
      const double v = i;
      d.append(i, &v);
      QVERIFY(d.rows() <= 2 * 64 + 3);
    }
    QCOMPARE(d.columns()[0].back(), 99999.0);
    QCOMPARE(d.columns()[0].front(), 0.0);
  }

  void batchesKeepWhatRowByRowKeeps() {
    // The studio appends the rows of an intake at once (a row the next one
    // replaces is never copied in): after every batch the copy must be the
    // one appending row by row gives, row for row, with the same generation
    // and stride. Spikes, NaNs, a rising and a falling channel, a constant
    // one, over many compactions; batches of 1 to 700 rows.
    const size_t channels = 9, target = 300;
    DecimatedRows one(target), batch(target);
    one.setChannels(channels);
    batch.setChannels(channels);
    std::mt19937 rng(11), sizes(3);
    std::uniform_int_distribution<size_t> size(1, 700);
    const size_t width = channels + 1;
    size_t i = 0, batches = 0;
    while (i < 150000) {
      const size_t n = size(sizes);
      std::vector<double> rows;
      for (size_t r = 0; r < n; ++r, ++i) {
        auto v = rowAt(i, channels - 3, rng);
        v.push_back(double(i));          // rising: every row a new maximum
        v.push_back(-0.5 * double(i));   // falling: every row a new minimum
        v.push_back(1.0);                // constant
        rows.push_back(1e-3 * double(i));
        rows.insert(rows.end(), v.begin(), v.end());
        one.append(rows[rows.size() - width], rows.data() + rows.size() - width + 1);
      }
      batch.append(rows.data(), n, width);
      ++batches;
      QCOMPARE(batch.rowsSeen(), one.rowsSeen());
      QCOMPARE(batch.rows(), one.rows());
      QCOMPARE(batch.generation(), one.generation());
      QCOMPARE(batch.stride(), one.stride());
      for (size_t k = 0; k < one.rows(); ++k) {
        QCOMPARE(batch.index(k), one.index(k));
        QCOMPARE(batch.times()[k], one.times()[k]);
        for (size_t c = 0; c < channels; ++c) {
          const double a = batch.columns()[c][k], b = one.columns()[c][k];
          QVERIFY2(a == b || (std::isnan(a) && std::isnan(b)), qPrintable(QString("row %1 channel %2").arg(k).arg(c)));
        }
      }
    }
    QVERIFY2(one.stride() >= 128 && one.generation() >= 5,  // the case was a long one
             qPrintable(QString("stride %1, generation %2").arg(one.stride()).arg(one.generation())));
  }
};

QTEST_GUILESS_MAIN(TestDecimatedRows)
#include "test_decimated_rows.moc"
