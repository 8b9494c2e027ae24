#include "analyses/mode_animation.h"

#include "mechanics/spatial.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>
#include <string>

namespace pm {

namespace {

bool endsWith(const std::string& s, const char* tail) {
  const std::string t(tail);
  return s.size() > t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

bool isPosition(const std::string& c) { return endsWith(c, ".x") || endsWith(c, ".y") || endsWith(c, ".z"); }
bool isAngle(const std::string& c) { return endsWith(c, ".roll") || endsWith(c, ".pitch") || endsWith(c, ".yaw"); }
bool isStress(const std::string& c) { return endsWith(c, ".stress") || endsWith(c, ".max_stress"); }

const Mode& modeAt(const ModalResult& r, std::size_t k) {
  if (k >= r.modes.size())
    throw std::out_of_range("mode " + std::to_string(k + 1) + " of " + std::to_string(r.modes.size()));
  return r.modes[k];
}

using Complex = std::complex<double>;
using CVec3 = Eigen::Matrix<Complex, 3, 1>;

int channelIndex(const ModalResult& r, const std::string& name) {
  const auto it = std::find_if(r.channels.begin(), r.channels.end(), [&](const ChannelInfo& c) { return c.name == name; });
  return it == r.channels.end() ? -1 : static_cast<int>(it - r.channels.begin());
}

// A part's pose in a mode: its rest pose and the mode's twist, a rotation
// vector in world axes and its origin's displacement (complex: amplitude
// and phase per axis).
struct Turning {
  std::string part;
  int column[3] = {-1, -1, -1};  // roll, pitch, yaw
  int at[3] = {-1, -1, -1};      // x, y, z (-1: no such channel)
  Eigen::Matrix3d R0 = Eigen::Matrix3d::Identity();
  Eigen::Vector3d p0 = Eigen::Vector3d::Zero();
  CVec3 phi = CVec3::Zero();
  CVec3 d = CVec3::Zero();
};

// The part's origin channels and the mode's displacement of it; false when
// one of the three is missing (its position then stays linear).
bool originOf(const ModalResult& r, const Mode& mode, Turning& turn) {
  static const char* kAxes[3] = {".x", ".y", ".z"};
  for (int a = 0; a < 3; ++a) {
    turn.at[a] = channelIndex(r, turn.part + kAxes[a]);
    if (turn.at[a] < 0 || static_cast<std::size_t>(turn.at[a]) >= r.outputs.size()) {
      turn.at[0] = -1;
      return false;
    }
    turn.p0[a] = r.outputs[static_cast<std::size_t>(turn.at[a])];
    for (const ChannelAmplitude& c : mode.channels)
      if (c.channel == turn.part + kAxes[a]) turn.d[a] = std::polar(c.amplitude, c.phase);
  }
  return true;
}

// The turning of `part` in `mode`; false when it lacks one of the three
// angle channels, or its pitch is +-90 degrees (the angles' rates do not
// give its turn there: they stay linear).
bool turningOf(const ModalResult& r, const Mode& mode, const std::string& part, Turning& out) {
  static const char* kAngles[3] = {".roll", ".pitch", ".yaw"};
  out.part = part;
  Vec3 rpy{};
  CVec3 rates = CVec3::Zero();
  for (int a = 0; a < 3; ++a) {
    out.column[a] = channelIndex(r, part + kAngles[a]);
    if (out.column[a] < 0 || static_cast<std::size_t>(out.column[a]) >= r.outputs.size()) return false;
    rpy[a] = r.outputs[static_cast<std::size_t>(out.column[a])];
    for (const ChannelAmplitude& c : mode.channels)
      if (c.channel == part + kAngles[a]) rates[a] = std::polar(c.amplitude, c.phase);
  }
  if (std::abs(std::cos(rpy[1])) < 1e-9) return false;
  out.R0 = rotationFromRpy(rpy);
  // R = Rz(yaw) Ry(pitch) Rx(roll): world angular velocity
  // = roll' Rz Ry e_x + pitch' Rz e_y + yaw' e_z.
  const Eigen::Matrix3d Rz = Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()).toRotationMatrix();
  const Eigen::Matrix3d Ry = Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()).toRotationMatrix();
  Eigen::Matrix3d E;
  E.col(0) = Rz * Ry * Eigen::Vector3d::UnitX();
  E.col(1) = Rz * Eigen::Vector3d::UnitY();
  E.col(2) = Eigen::Vector3d::UnitZ();
  out.phi = E.cast<Complex>() * rates;
  originOf(r, mode, out);
  return true;
}

// The twist's rotation vector theta and origin displacement u at the
// fraction t of the period.
void twistAt(const Turning& turn, double scale, double t, Eigen::Vector3d& theta, Eigen::Vector3d& u) {
  const Complex e = std::polar(1.0, 2.0 * std::numbers::pi * t);
  theta = scale * (turn.phi * e).real();
  u = scale * (turn.d * e).real();
}

Eigen::Matrix3d orientationAt(const Turning& turn, double scale, double t) {
  Eigen::Vector3d theta, u;
  twistAt(turn, scale, t, theta, u);
  const double angle = theta.norm();
  if (angle == 0.0) return turn.R0;
  return Eigen::AngleAxisd(angle, theta / angle).toRotationMatrix() * turn.R0;
}

// The origin moved by the twist's exponential (a rigid motion, so every
// point of the part keeps its distances to every point the mode leaves
// still): with the velocity of the point at the world origin
// v = u - theta x p0, p = exp(theta) p0 + V v,
// V = I + (1 - cos a) / a^2 [theta]x + (a - sin a) / a^3 [theta]x^2, a = |theta|.
// To first order p0 + u, the linear oscillation.
Eigen::Vector3d originAt(const Turning& turn, double scale, double t) {
  Eigen::Vector3d theta, u;
  twistAt(turn, scale, t, theta, u);
  const double a = theta.norm();
  if (a == 0.0) return turn.p0 + u;
  const Eigen::Vector3d v = u - theta.cross(turn.p0);
  const Eigen::Vector3d tv = theta.cross(v);
  // (1 - cos a) / a^2 and (a - sin a) / a^3 without cancellation at small a.
  const double a2 = a * a;
  const double c1 = a < 1e-2 ? 0.5 - a2 / 24 + a2 * a2 / 720 : (1 - std::cos(a)) / a2;
  const double c2 = a < 1e-2 ? 1.0 / 6 - a2 / 120 + a2 * a2 / 5040 : (a - std::sin(a)) / (a2 * a);
  return Eigen::AngleAxisd(a, theta / a) * turn.p0 + v + c1 * tv + c2 * theta.cross(tv);
}

// Every part with the three angle channels (a name "<part>.roll" with the unit rad).
std::vector<std::string> turningParts(const ModalResult& r) {
  std::vector<std::string> parts;
  for (const ChannelInfo& c : r.channels)
    if (c.unit == "rad" && endsWith(c.name, ".roll")) parts.push_back(c.name.substr(0, c.name.size() - 5));
  return parts;
}

// The angle a + 2 pi n nearest `near`.
double nearest(double a, double near) {
  const double twoPi = 2.0 * std::numbers::pi;
  return a + twoPi * std::round((near - a) / twoPi);
}

}  // namespace

Eigen::Matrix3d modeOrientation(const ModalResult& result, std::size_t k, const std::string& part, double scale,
                                double t) {
  Turning turn;
  if (!turningOf(result, modeAt(result, k), part, turn))
    throw std::out_of_range("no orientation channels " + part + ".roll/pitch/yaw");
  return orientationAt(turn, scale, t);
}

Eigen::Vector3d modeOrigin(const ModalResult& result, std::size_t k, const std::string& part, double scale, double t) {
  Turning turn;
  if (!turningOf(result, modeAt(result, k), part, turn) || turn.at[0] < 0)
    throw std::out_of_range("no pose channels " + part + ".x/y/z/roll/pitch/yaw");
  return originAt(turn, scale, t);
}

ModeMotion modeMotion(const ModalResult& result, std::size_t k) {
  ModeMotion m;
  for (const ChannelAmplitude& c : modeAt(result, k).channels) {
    if (c.unit == "m" && isPosition(c.channel)) m.displacement = std::max(m.displacement, c.amplitude);
    if (c.unit == "rad" && isAngle(c.channel)) m.rotation = std::max(m.rotation, c.amplitude);
  }
  return m;
}

double modeScale(const ModalResult& result, std::size_t k, double size, double length) {
  const ModeMotion m = modeMotion(result, k);
  const double largest = std::max(m.displacement, m.rotation * length);
  return largest > 0 ? size / largest : 0.0;
}

void modeAnimation(const ModalResult& result, std::size_t k, double scale, int frames, ResultStore& out) {
  const Mode& mode = modeAt(result, k);
  if (frames < 1) throw std::invalid_argument("a mode animation needs at least one frame");
  const std::size_t n = result.channels.size();
  // Amplitude and phase per column (0 for the channels the mode leaves still).
  std::vector<double> amp(n, 0.0), phase(n, 0.0);
  std::vector<bool> stress(n, false);
  for (std::size_t c = 0; c < n; ++c) stress[c] = isStress(result.channels[c].name);
  for (const ChannelAmplitude& a : mode.channels) {
    const auto it = std::find_if(result.channels.begin(), result.channels.end(),
                                 [&](const ChannelInfo& ci) { return ci.name == a.channel; });
    if (it == result.channels.end()) continue;
    const auto c = static_cast<std::size_t>(it - result.channels.begin());
    amp[c] = a.amplitude;
    phase[c] = a.phase;
  }
  std::vector<Turning> turning;
  for (const std::string& part : turningParts(result)) {
    Turning turn;
    if (turningOf(result, mode, part, turn) && turn.phi.norm() > 0) turning.push_back(turn);
  }
  out.setChannels(result.channels);
  std::vector<double> row(n);
  for (int i = 0; i <= frames; ++i) {
    const double t = static_cast<double>(i) / frames;
    for (std::size_t c = 0; c < n; ++c) {
      const double base = c < result.outputs.size() ? result.outputs[c] : 0.0;
      row[c] = base + scale * amp[c] * std::cos(2.0 * std::numbers::pi * t + phase[c]);
      if (stress[c]) row[c] = std::abs(row[c]);
    }
    // The turns composed with the rest orientations, as the angles nearest
    // the linear ones (of the two triples of one rotation, and modulo 2 pi):
    // the rows jump neither by 2 pi nor to the other triple.
    for (const Turning& turn : turning) {
      const Eigen::Vector3d rpy = mb::toRpy(orientationAt(turn, scale, t));
      const double pi = std::numbers::pi;
      const Eigen::Vector3d other(rpy[0] + pi, pi - rpy[1], rpy[2] + pi);
      Eigen::Vector3d best[2], linear;
      for (int a = 0; a < 3; ++a) {
        linear[a] = row[static_cast<std::size_t>(turn.column[a])];
        best[0][a] = nearest(rpy[a], linear[a]);
        best[1][a] = nearest(other[a], linear[a]);
      }
      const Eigen::Vector3d& pick = (best[0] - linear).norm() <= (best[1] - linear).norm() ? best[0] : best[1];
      for (int a = 0; a < 3; ++a) row[static_cast<std::size_t>(turn.column[a])] = pick[a];
      if (turn.at[0] < 0) continue;
      const Eigen::Vector3d p = originAt(turn, scale, t);
      for (int a = 0; a < 3; ++a) row[static_cast<std::size_t>(turn.at[a])] = p[a];
    }
    out.append(t, row.data());
  }
}

}  // namespace pm
