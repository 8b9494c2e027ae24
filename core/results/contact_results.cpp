#include "results/contact_results.h"

#include <cmath>

namespace pm {

namespace {

// Where the distance passes through 0 between samples i-1 and i, or t[i]
// when it does not change sign there (a flag set by the geometry's points).
double zeroCrossing(const std::vector<double>& t, const std::vector<double>& d, size_t i) {
  const double d0 = d[i - 1], d1 = d[i];
  if ((d0 > 0.0) == (d1 > 0.0) || d0 == d1) return t[i];
  return t[i - 1] + d0 / (d0 - d1) * (t[i] - t[i - 1]);
}

void peak(double value, double at, double& max, double& tMax) {
  if (value > max) max = value, tMax = at;
}

}  // namespace

ContactPairResult contactPairResult(const std::string& id, const std::string& shapes, const std::vector<double>& t,
                                    const ContactChannels& c) {
  ContactPairResult r;
  r.id = id;
  r.shapes = shapes;
  bool was = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const bool in = c.inContact[i] > 0.5;
    if (in && !was) r.touches.push_back({i == 0 ? t[0] : zeroCrossing(t, c.distance, i), 0.0, false});
    if (!in && was) r.touches.back().tEnd = zeroCrossing(t, c.distance, i);
    was = in;
    peak(std::abs(c.normal[i]), t[i], r.normalMax, r.tNormalMax);
    peak(std::abs(c.friction[i]), t[i], r.frictionMax, r.tFrictionMax);
    peak(c.penetration[i], t[i], r.penetrationMax, r.tPenetrationMax);
    if (in) peak(std::abs(c.slip[i]), t[i], r.slipMax, r.tSlipMax);
  }
  if (was) r.touches.back().tEnd = t.back(), r.touches.back().open = true;
  for (const ContactTouch& k : r.touches) r.timeInContact += k.tEnd - k.tStart;
  return r;
}

LatchResult latchResult(const std::string& id, const std::string& type, const std::vector<double>& t,
                        const LatchChannels& c) {
  LatchResult r;
  r.id = id;
  r.type = type;
  bool was = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const bool on = c.engaged[i] > 0.5;
    if (on && !was) {
      const double before = i == 0 ? 0.0 : c.energyLost[i - 1];
      r.engagements.push_back({t[i], c.velocityJump[i], c.energyLost[i] - before, c.impulse[i]});
    }
    if (!on && was) r.engagements.back().tRelease = t[i];
    if (on) peak(std::hypot(c.Fx[i], c.Fy[i], c.Fz[i]), t[i], r.forceMax, r.tForceMax);
    was = on;
  }
  r.engagedAtEnd = was;
  r.energyLost = c.energyLost.empty() ? 0.0 : c.energyLost.back();
  return r;
}

const std::vector<std::string>& contactResultQuantities() {
  static const std::vector<std::string> q = {"in_contact", "distance", "normal_force", "friction_force", "penetration",
                                             "slip_speed"};
  return q;
}

const std::vector<std::string>& latchResultQuantities() {
  static const std::vector<std::string> q = {"engaged", "Fx", "Fy", "Fz", "velocity_jump", "energy_lost", "impulse"};
  return q;
}

}  // namespace pm
