// The exchange between the two integrators of a co-simulation (seed 000
// sec. 5-6, "simulator backplane"): per attached actuator, the mechanics'
// stroke x and velocity v at the start of the current exchange interval
// [t0, t1], and the pneumatic pressure force at both ends of it.
//
// Pneumatics leads (seed 000 sec. 6.5 d): it integrates [t0, t1] with the
// actuator moving as extrapolated from the mechanics' last consistent values,
// x(t) = x0 + v0 s + a0 s^2 / 2, v(t) = v0 + a0 s (s = t - t0, a0 the
// mechanics' mean acceleration over the previous interval; x' = v holds
// inside the interval, so the chamber volumes stay consistent). Then the
// mechanics integrates [t0, t1] with the pressure force interpolated linearly
// between F0 = F(t0) and F1 = F(t1) (seed 000 sec. 6.4); friction and stop
// forces it evaluates itself at every request from its own x, v (stiff; not
// held). Both interpolants are pure functions of t: an integrator that
// rejects a step and asks again at an earlier time gets the same values.
#pragma once

#include "element/element.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pm {

// What a System compiled for a run contains. Monolithic: everything in one
// DAE. Pneumatic: the circuit, attached actuators moved by the backplane,
// no mechanism. Mechanical: the mechanism and the attached actuators'
// mechanical side (friction, stops, load, the interpolated pressure force).
enum class CouplingRole { Monolithic, Pneumatic, Mechanical };

class Backplane {
 public:
  struct Actuator {
    std::string id;
    // Pneumatic side: pressure force (or torque) along the actuator's
    // coordinate, from an evaluation of the pneumatic System.
    std::function<double(const Eval&)> pressureForce;
    // Mechanical side: the actuator's coordinate and rate from an
    // evaluation of the mechanical System.
    std::function<void(const Eval&, double& x, double& v)> kinematics;
    double x0 = 0.0, v0 = 0.0, a0 = 0.0;  // mechanics at t0
    double F0 = 0.0, F1 = 0.0;            // pressure force at t0, t1
    // Circuit values a force computed on the mechanical side reads (a user
    // component's port pressures and temperatures, states, inputs: what only
    // the pneumatic System has), sent like the pressure force: evaluated at
    // t0 and t1 on the pneumatic side, interpolated linearly between them.
    // The mechanics evaluates that force with them and its own x, v, so a
    // spring or damper in it stays implicit. Unset for cylinders.
    int nValues = 0;
    std::function<void(const Eval&, double* values)> circuitValues;
    std::vector<double> c0, c1;  // at t0, t1
  };

  // Index of the actuator `id`, added on first use (both Systems register
  // the same actuators, in any order).
  int index(const std::string& id) {
    for (size_t i = 0; i < act_.size(); ++i)
      if (act_[i].id == id) return static_cast<int>(i);
    act_.push_back({});
    act_.back().id = id;
    return static_cast<int>(act_.size()) - 1;
  }
  std::vector<Actuator>& actuators() { return act_; }
  const std::vector<Actuator>& actuators() const { return act_; }
  Actuator& operator[](int i) { return act_.at(i); }

  // A mechanism quantity read by a circuit element ("arm.angle" for a
  // limit switch or a controller). The circuit's System has no mechanism,
  // so it sees the mechanics' value at t0 extrapolated with its mean rate
  // over the previous interval, like the actuators' motion. A step signal
  // (a latch's `engaged`, a contact's `in_contact`: 0 or 1) is held at its
  // value at t0: extrapolated, a jump would carry on as a ramp.
  struct Signal {
    std::string ref;          // "<object>.<quantity>"
    std::string owner, field; // the first reader, for messages
    std::function<double(const Eval&)> read;  // mechanical side
    double v0 = 0.0, rate = 0.0;
    bool step = false;
  };
  int mechanismSignal(const std::string& ref, const std::string& owner, const std::string& field) {
    for (size_t i = 0; i < sig_.size(); ++i)
      if (sig_[i].ref == ref) return static_cast<int>(i);
    sig_.push_back({ref, owner, field, {}, 0.0, 0.0, false});
    return static_cast<int>(sig_.size()) - 1;
  }
  std::vector<Signal>& mechanismSignals() { return sig_; }
  double signalAt(int i, double t) const { return sig_[i].v0 + sig_[i].rate * (t - t0_); }

  double t0() const { return t0_; }
  double t1() const { return t1_; }
  void setInterval(double t0, double t1) {
    if (!(t1 > t0)) throw std::logic_error("backplane: empty exchange interval");
    t0_ = t0;
    t1_ = t1;
  }

  // Extrapolated motion seen by the pneumatics within the interval.
  void kinematicsAt(int i, double t, double& x, double& v) const {
    const Actuator& a = act_[i];
    const double s = t - t0_;
    x = a.x0 + a.v0 * s + 0.5 * a.a0 * s * s;
    v = a.v0 + a.a0 * s;
  }
  // Interpolated pressure force seen by the mechanics (the same straight
  // line continued outside [t0, t1], which no integrator with its stop time
  // at t1 asks for).
  double forceAt(int i, double t) const {
    const Actuator& a = act_[i];
    return a.F0 + (a.F1 - a.F0) * (t - t0_) / (t1_ - t0_);
  }
  // Circuit value k of actuator i, interpolated as the force is.
  double valueAt(int i, int k, double t) const {
    const Actuator& a = act_[i];
    return a.c0[k] + (a.c1[k] - a.c0[k]) * (t - t0_) / (t1_ - t0_);
  }

 private:
  std::vector<Actuator> act_;
  std::vector<Signal> sig_;
  double t0_ = 0.0, t1_ = 1.0;
};

}  // namespace pm
