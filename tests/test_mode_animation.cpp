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
//  - stresses stay magnitudes; a bad mode or frame count is refused;
//  - a large turn composes with the rest orientation: a part resting at
//    roll-pitch-yaw (0.3, -0.4, 0.6) whose mode turns it about the world
//    axis (1, 2, -0.5), at 50 % of a 1 m mechanism (0.5 rad), has in every
//    row the rotation exp(s cos(2 pi t) [phi]x) R0 to 1e-12, orthonormal to
//    1e-12 (adding the angles is off by ~1e-2 there), and its origin
//    moved by the same rigid motion: exp of the twist (the turn, the
//    origin's displacement) as the 4 x 4 matrix exponential gives it, 1e-12;
//  - a pure rotation about a pin at a large amplitude (up to 1.5 rad) is
//    rigid: every marker keeps its distance to the pin and the part's
//    point on the pin stays there, 1e-9 m (the linear positions carried
//    the part along the tangent, off by ~0.1 m); the example pendulum
//    swung 1.2 rad keeps its pivot marker on the ground's pivot and its
//    bob l from it (to the mode's accuracy, 1e-6 of the swing).
#include "analyses/mode_animation.h"
#include "engine/engine.h"
#include "model/orientation.h"
#include "support/test_project.h"

#include <QtTest>

#include <Eigen/Geometry>
#include <unsupported/Eigen/MatrixFunctions>

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

  void largeTurnsCompose() {
    const Vec3 rpy0{0.3, -0.4, 0.6};
    const Eigen::Matrix3d R0 = rotationFromRpy(rpy0);
    // The world angular velocity of roll-pitch-yaw rates (R = Rz Ry Rx):
    // yaw' e_z + pitch' Rz e_y + roll' Rz Ry e_x.
    const Eigen::Matrix3d Rz = Eigen::AngleAxisd(rpy0[2], Eigen::Vector3d::UnitZ()).toRotationMatrix();
    const Eigen::Matrix3d Ry = Eigen::AngleAxisd(rpy0[1], Eigen::Vector3d::UnitY()).toRotationMatrix();
    Eigen::Matrix3d E;
    E << Rz * Ry * Eigen::Vector3d::UnitX(), Rz * Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ();
    const Eigen::Vector3d phi = Eigen::Vector3d(1, 2, -0.5).normalized();  // the mode's turn, world axes
    const Eigen::Vector3d rates = E.inverse() * phi;  // what the linearised angle channels hold
    // (That they are the angles' rates of that turn: a small turn by finite differences.)
    const double eps = 1e-6;
    auto anglesOf = [](const Eigen::Matrix3d& R) {  // R = Rz Ry Rx, |pitch| < pi / 2
      return Eigen::Vector3d(std::atan2(R(2, 1), R(2, 2)), std::asin(-R(2, 0)), std::atan2(R(1, 0), R(0, 0)));
    };
    const Eigen::Vector3d fd = (anglesOf(Eigen::AngleAxisd(eps, phi).toRotationMatrix() * R0) -
                                anglesOf(Eigen::AngleAxisd(-eps, phi).toRotationMatrix() * R0)) / (2 * eps);
    QVERIFY((fd - rates).norm() < 1e-8);

    ModalResult r;
    r.channels = {{"arm.x", "m"}, {"arm.y", "m"}, {"arm.z", "m"}, {"arm.roll", "rad"}, {"arm.pitch", "rad"}, {"arm.yaw", "rad"}};
    r.outputs = {0.2, -0.1, 0.4, rpy0[0], rpy0[1], rpy0[2]};
    Mode m;
    m.lambda = {0.0, 2 * std::numbers::pi};
    m.frequency = 1.0;
    m.oscillating = true;
    m.channels.push_back({"arm.x", "m", 0.1, 0.0});
    const char* angles[3] = {"arm.roll", "arm.pitch", "arm.yaw"};
    for (int a = 0; a < 3; ++a)
      m.channels.push_back({angles[a], "rad", std::abs(rates[a]), rates[a] < 0 ? std::numbers::pi : 0.0});
    r.modes = {m};
    // 50 % of a 1 m mechanism: the largest motion, a turn counted times 1 m, is 0.5.
    const double s = modeScale(r, 0, 0.5, 1.0);
    const double turn = s * phi.norm();
    qInfo("scale %.6g: the part turns by up to %.6g rad about (%.4f, %.4f, %.4f)", s, turn, phi.x(), phi.y(), phi.z());
    QVERIFY(turn > 0.3);
    ResultStore rows;
    modeAnimation(r, 0, s, 40, rows);
    double worstAdded = 0;
    for (size_t i = 0; i <= 40; ++i) {
      const double t = i / 40.0;
      const double c = std::cos(2 * std::numbers::pi * t);
      const Eigen::Matrix3d want = Eigen::AngleAxisd(s * c, phi).toRotationMatrix() * R0;
      const Eigen::Matrix3d got = rotationFromRpy({value(rows, "arm.roll", i), value(rows, "arm.pitch", i), value(rows, "arm.yaw", i)});
      QVERIFY2((got - want).norm() < 1e-12, qPrintable(QString("row %1: off by %2").arg(i).arg((got - want).norm())));
      const Eigen::Matrix3d R = modeOrientation(r, 0, "arm", s, t);
      QVERIFY((R.transpose() * R - Eigen::Matrix3d::Identity()).norm() < 1e-12);
      QVERIFY(std::abs(R.determinant() - 1) < 1e-12);
      QVERIFY((R - want).norm() < 1e-12);
      // The old way, the angles added, for the record.
      const Eigen::Vector3d added = Eigen::Vector3d(rpy0[0], rpy0[1], rpy0[2]) + s * c * rates;
      worstAdded = std::max(worstAdded, (rotationFromRpy({added[0], added[1], added[2]}) - want).norm());
      // The origin: the twist's exponential, [[theta]x, v; 0, 0] with v the
      // velocity of the point at the world origin (u - theta x p0).
      const Eigen::Vector3d theta = s * c * phi, u(s * 0.1 * c, 0, 0), p0(0.2, -0.1, 0.4);
      Eigen::Matrix4d xi = Eigen::Matrix4d::Zero();
      xi.topLeftCorner<3, 3>() << 0, -theta.z(), theta.y(), theta.z(), 0, -theta.x(), -theta.y(), theta.x(), 0;
      xi.topRightCorner<3, 1>() = u - theta.cross(p0);
      const Eigen::Matrix4d g = xi.exp();
      const Eigen::Vector3d origin = g.topLeftCorner<3, 3>() * p0 + g.topRightCorner<3, 1>();
      const Eigen::Vector3d row(value(rows, "arm.x", i), value(rows, "arm.y", i), value(rows, "arm.z", i));
      QVERIFY2((row - origin).norm() < 1e-12, qPrintable(QString("row %1: origin off by %2").arg(i).arg((row - origin).norm())));
      QVERIFY((g.topLeftCorner<3, 3>() * R0 - want).norm() < 1e-12);  // the same turn
      QVERIFY((modeOrigin(r, 0, "arm", s, t) - origin).norm() < 1e-12);
    }
    qInfo("angles added instead: off by up to %.3g", worstAdded);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, modeOrientation(r, 0, "nothing", s, 0.0));
  }

  void pureRotationIsRigid() {
    const Vec3 rpy0{0.3, -0.4, 0.6};
    const Eigen::Matrix3d R0 = rotationFromRpy(rpy0);
    const Eigen::Vector3d p0(0.2, -0.1, 0.4), pin(0.5, 0.3, -0.2);
    const Eigen::Vector3d phi = Eigen::Vector3d(1, 2, -0.5).normalized();
    const Eigen::Matrix3d Rz = Eigen::AngleAxisd(rpy0[2], Eigen::Vector3d::UnitZ()).toRotationMatrix();
    const Eigen::Matrix3d Ry = Eigen::AngleAxisd(rpy0[1], Eigen::Vector3d::UnitY()).toRotationMatrix();
    Eigen::Matrix3d E;
    E << Rz * Ry * Eigen::Vector3d::UnitX(), Rz * Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ();
    // The linearised mode of a turn phi about the pin: angle rates E^-1 phi,
    // the origin's displacement phi x (p0 - pin), all in one phase.
    const Eigen::Vector3d rates = E.inverse() * phi, u = phi.cross(p0 - pin);
    ModalResult r;
    r.channels = {{"crank.x", "m"}, {"crank.y", "m"}, {"crank.z", "m"}, {"crank.roll", "rad"}, {"crank.pitch", "rad"}, {"crank.yaw", "rad"}};
    r.outputs = {p0.x(), p0.y(), p0.z(), rpy0[0], rpy0[1], rpy0[2]};
    Mode m;
    m.lambda = {-0.3, 2 * std::numbers::pi};
    m.frequency = 1.0;
    m.oscillating = true;
    const double phase = 0.7;
    auto amplitude = [&](const char* channel, const char* unit, double v) {
      m.channels.push_back({channel, unit, std::abs(v), phase + (v < 0 ? std::numbers::pi : 0.0)});
    };
    const char* names[6] = {"crank.x", "crank.y", "crank.z", "crank.roll", "crank.pitch", "crank.yaw"};
    for (int a = 0; a < 3; ++a) amplitude(names[a], "m", u[a]);
    for (int a = 0; a < 3; ++a) amplitude(names[3 + a], "rad", rates[a]);
    r.modes = {m};
    const double s = 1.5;  // turns of up to 1.5 rad
    // Markers in the crank's axes, and its point on the pin.
    const std::vector<Eigen::Vector3d> markers{{0.1, 0.05, -0.2}, {-0.3, 0.2, 0.1}, R0.transpose() * (pin - p0)};
    ResultStore rows;
    modeAnimation(r, 0, s, 40, rows);
    double worst = 0, worstLinear = 0;
    for (size_t i = 0; i <= 40; ++i) {
      const Eigen::Vector3d p(value(rows, "crank.x", i), value(rows, "crank.y", i), value(rows, "crank.z", i));
      const Eigen::Matrix3d R = rotationFromRpy({value(rows, "crank.roll", i), value(rows, "crank.pitch", i), value(rows, "crank.yaw", i)});
      const Eigen::Vector3d linear = p0 + s * std::cos(2 * std::numbers::pi * i / 40.0 + phase) * u;
      for (const Eigen::Vector3d& k : markers) {
        const double rest = (p0 + R0 * k - pin).norm();
        worst = std::max(worst, std::abs((p + R * k - pin).norm() - rest));
        worstLinear = std::max(worstLinear, std::abs((linear + R * k - pin).norm() - rest));
      }
      worst = std::max(worst, (p + R * markers[2] - pin).norm());
    }
    qInfo("distances to the pin kept to %.3g m (the linear positions: off by %.3g m)", worst, worstLinear);
    QVERIFY(worst < 1e-9);
    QVERIFY(worstLinear > 1e-2);
  }

  void pendulumSwingKeepsThePivot() {
    const Project p = engine::load(projectPath("pendulum.pneumech.json"));
    const PartDef* bob = p.mechanism.part("bob");
    QVERIFY(bob && bob->markers.size() == 1);
    const Eigen::Vector3d pivot(bob->markers[0].position[0], bob->markers[0].position[1], bob->markers[0].position[2]);
    // Swung 1.2 rad: bob.pitch's amplitude is the turn.
    const double s = 1.2 / amplitudeOf(r_.modes[k_], "bob.pitch")->amplitude;
    ResultStore rows;
    modeAnimation(r_, k_, s, 40, rows);
    double worstPivot = 0, worstArm = 0, widest = 0;
    for (size_t i = 0; i <= 40; ++i) {
      const Eigen::Vector3d o(value(rows, "bob.x", i), value(rows, "bob.y", i), value(rows, "bob.z", i));
      const Eigen::Matrix3d R = rotationFromRpy({value(rows, "bob.roll", i), value(rows, "bob.pitch", i), value(rows, "bob.yaw", i)});
      worstPivot = std::max(worstPivot, (o + R * pivot).norm());  // the ground's pivot is the world origin
      worstArm = std::max(worstArm, std::abs(o.norm() - kL));
      widest = std::max(widest, std::abs(o.x()));
    }
    qInfo("swung to x = %.6g m: pivot off by %.3g m, arm length by %.3g m", widest, worstPivot, worstArm);
    QVERIFY(std::abs(widest - kL * std::sin(1.2)) < 1e-6);
    QVERIFY(worstPivot < 1e-6 * 1.2);
    QVERIFY(worstArm < 1e-6 * 1.2);
  }

  void badArguments() {
    ResultStore rows;
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, modeAnimation(r_, r_.modes.size(), 1.0, 10, rows));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modeAnimation(r_, k_, 1.0, 0, rows));
  }
};

QTEST_MAIN(TestModeAnimation)
#include "test_mode_animation.moc"
