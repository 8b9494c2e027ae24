// A mode shown as motion (analyses/mode_animation.h, issue #22): the
// example pendulum (bob 1 kg at l = 0.5 m from the pin, J = m l^2 + 1e-4)
// linearised about its static equilibrium:
//  - the operating point's outputs put the bob under the pin (x = 0,
//    z = -l to 1e-9 m);
//  - in its one mode the bob's origin swings l times as far as it turns
//    (amplitude of bob.x over that of bob.pitch = l to 1e-6), and not up
//    or down to first order;
//  - the animation's rows are the operating point plus the scaled
//    oscillation: half a period apart the bob is on the other side by the
//    same distance (1e-12 m), and modeScale makes its largest motion (a
//    turn counted times the mechanism's size) the size asked for (1e-9 m);
//  - stresses stay magnitudes; a bad mode or frame count is refused.
#include "analyses/mode_animation.h"
#include "engine/engine.h"
#include "support/test_project.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <stdexcept>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kL = 0.5;

const ChannelAmplitude* amplitudeOf(const Mode& m, const std::string& channel) {
  for (const ChannelAmplitude& c : m.channels)
    if (c.channel == channel) return &c;
  return nullptr;
}

double value(const ResultStore& rows, const std::string& channel, size_t row) { return rows.column(channel).at(row); }

double outputOf(const ModalResult& r, const std::string& channel) {
  for (size_t c = 0; c < r.channels.size(); ++c)
    if (r.channels[c].name == channel) return r.outputs.at(c);
  throw std::runtime_error("no channel " + channel);
}

}  // namespace

class TestModeAnimation : public QObject {
  Q_OBJECT
  ModalResult r_;
  size_t k_ = 0;  // the swing (the other mode is the pin's static, lambda = 0)

 private slots:
  void initTestCase() {
    const std::string file = projectPath("pendulum.pneumech.json");
    ModalOptions o;
    o.staticEquilibrium = true;
    r_ = engine::modal(engine::load(file), file, o);
    int swings = 0;
    for (size_t k = 0; k < r_.modes.size(); ++k)
      if (r_.modes[k].oscillating) k_ = k, ++swings;
    QCOMPARE(swings, 1);
    // sqrt(m g l / J) / 2 pi, J = 1 * 0.25 + 1e-4
    QVERIFY(std::abs(r_.modes[k_].frequency - std::sqrt(9.80665 * kL / (kL * kL + 1e-4)) / (2 * std::numbers::pi)) < 1e-6);
  }

  void operatingPointOutputs() {
    QCOMPARE(r_.outputs.size(), r_.channels.size());
    QVERIFY(!r_.channels.empty());
    QVERIFY(std::abs(outputOf(r_, "bob.x")) < 1e-9);
    QVERIFY(std::abs(outputOf(r_, "bob.z") + kL) < 1e-9);
  }

  void bobSwingsLTimesItsTurn() {
    const Mode& m = r_.modes[k_];
    const ChannelAmplitude* x = amplitudeOf(m, "bob.x");
    const ChannelAmplitude* turn = amplitudeOf(m, "bob.pitch");
    QVERIFY(x && turn);
    qInfo("amplitudes: x %.9g m, pitch %.9g rad, ratio %.9g", x->amplitude, turn->amplitude, x->amplitude / turn->amplitude);
    QVERIFY(std::abs(x->amplitude / turn->amplitude - kL) < 1e-6);
    const ChannelAmplitude* z = amplitudeOf(m, "bob.z");
    QVERIFY(!z || z->amplitude < 1e-6 * x->amplitude);
    const ModeMotion mm = modeMotion(r_, k_);
    QCOMPARE(mm.displacement, x->amplitude);
    QCOMPARE(mm.rotation, turn->amplitude);
  }

  void rowsOscillateAboutTheOperatingPoint() {
    const double size = 0.05;
    // A turn counts times the mechanism's size: with 1 m the bob's turn
    // (1 m per rad) is the larger motion, with 0.4 m its swing (0.5 m per rad).
    const ModeMotion mm = modeMotion(r_, k_);
    QVERIFY(std::abs(modeScale(r_, k_, size, 1.0) * mm.rotation * 1.0 - size) < 1e-12);
    const double s = modeScale(r_, k_, size, 0.4);
    QVERIFY(std::abs(s * mm.displacement - size) < 1e-12);
    ResultStore rows;
    modeAnimation(r_, k_, s, 40, rows);
    QCOMPARE(rows.rows(), size_t(41));
    QCOMPARE(rows.times().front(), 0.0);
    QCOMPARE(rows.times().back(), 1.0);
    const double x0 = outputOf(r_, "bob.x");
    for (size_t i = 0; i < 20; ++i) {
      const double a = value(rows, "bob.x", i) - x0, b = value(rows, "bob.x", i + 20) - x0;
      QVERIFY2(std::abs(a + b) < 1e-12, qPrintable(QString("row %1: %2 vs %3").arg(i).arg(a).arg(b)));
    }
    // The largest offset over the period is the size asked for: within the
    // sampling (40 rows: cos(pi / 40) of it at worst) and never above.
    double largest = 0;
    for (size_t i = 0; i <= 40; ++i) largest = std::max(largest, std::abs(value(rows, "bob.x", i) - x0));
    qInfo("largest offset %.12g m of %.3g (bob.x phase %.6f rad)", largest, size, amplitudeOf(r_.modes[k_], "bob.x")->phase);
    QVERIFY(largest <= size + 1e-12 && largest >= size * std::cos(std::numbers::pi / 40));
    // A channel the mode leaves still keeps its operating-point value.
    QCOMPARE(value(rows, "bob.y", 7), outputOf(r_, "bob.y"));
  }

  void stressesStayMagnitudes() {
    ModalResult r = r_;
    r.channels.push_back({"arm_e0.stress", "Pa"});
    r.outputs.push_back(1e6);
    r.modes[k_].channels.push_back({"arm_e0.stress", "Pa", 3e6, 0.0});
    ResultStore rows;
    modeAnimation(r, k_, 1.0, 4, rows);
    const std::vector<double> s = rows.column("arm_e0.stress");
    QCOMPARE(s.at(0), 4e6);
    QCOMPARE(s.at(2), 2e6);  // 1e6 - 3e6, a magnitude
  }

  void badArguments() {
    ResultStore rows;
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, modeAnimation(r_, r_.modes.size(), 1.0, 10, rows));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modeAnimation(r_, k_, 1.0, 0, rows));
  }
};

QTEST_MAIN(TestModeAnimation)
#include "test_mode_animation.moc"
