// Helpers the signal blocks (core/control) share: reading an input reference,
// logic levels with exact switching, piecewise-linear regions, sample clocks
// and a guard against algebraic loops. Header only; every block stays one
// registered Element class.
//
// How blocks keep IDA from stalling at discontinuities (the pattern of
// pressure_switch and limit_switch): every place where a block's output or
// equations switch (a limit reached, a threshold crossed, a logic level
// changing, a sample instant) is a root function, and the branch in use is a
// discrete state changed only in update(). Between events the equations are
// smooth (a branch is extended past its switching point until the event is
// handled), so Newton never meets a kink.
#pragma once

#include "element/element.h"
#include "model/project.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace pm::signal {

// The reference given for input `name`, or "" when it is not connected.
inline std::string inputRef(const Component& c, const std::string& name) {
  auto it = c.inputs.find(name);
  return it == c.inputs.end() ? std::string() : it->second;
}

// Tolerance within which a time root is taken as the instant it aims at.
inline double timeEps(double t) { return 1e-9 * std::max(1.0, std::abs(t)); }

// A logic level read from a signal: on above 0.5. root() is the crossing
// function; update() decides the level at an event. A root can land exactly
// on 0.5: that tie is a crossing away from the level known before the event
// (update() runs several times per event, so the level before is remembered).
class LogicInput {
 public:
  SignalInput in;
  bool on = false;

  double root(const Eval& e) const { return in.connected() ? in(e)-0.5 : -1.0; }
  // Returns true when the level changed.
  bool update(const Eval& e) {
    if (e.t != tEvent_) {
      tEvent_ = e.t;
      before_ = on;
    }
    const double v = in(e);
    const bool now = v > 0.5 || (v == 0.5 && !e.initializing && !before_);
    if (now == on) return false;
    on = now;
    return true;
  }
  // True when the level rose during the current event (also at the start when
  // the input is on at t = 0: callers that count edges ignore that one).
  bool rose() const { return on && !before_; }
  void discrete(DiscreteState& s) { s(on, before_, tEvent_); }

 private:
  bool before_ = false;
  double tEvent_ = -std::numeric_limits<double>::infinity();
};

// Region of a value against a band [lo, hi]: -1 below lo, 0 inside, +1 above
// hi. Two roots (v - lo, v - hi). A tie on an edge is a crossing away from the
// region before the event; at the start a value on an edge is inside.
class Band {
 public:
  int region = 0;

  static void roots(double v, double lo, double hi, double* g) {
    g[0] = v - lo;
    g[1] = v - hi;
  }
  bool update(const Eval& e, double v, double lo, double hi) {
    if (e.t != tEvent_) {
      tEvent_ = e.t;
      before_ = region;
    }
    int r = 0;
    if (v > hi)
      r = 1;
    else if (v < lo)
      r = -1;
    else if (!e.initializing && v == hi && before_ == 0 && lo < hi)
      r = 1;
    else if (!e.initializing && v == lo && before_ == 0 && lo < hi)
      r = -1;
    if (r == region) return false;
    region = r;
    return true;
  }
  void discrete(DiscreteState& s) { s(region, before_, tEvent_); }

 private:
  int before_ = 0;
  double tEvent_ = -std::numeric_limits<double>::infinity();
};

// Sample instants k * Ts, k = 0, 1, ... (Ts = 0: continuous, never ticks).
// root() is the time to the next instant; tick() is true while an update
// pass runs at a sample instant: the first pass at a new instant advances the
// clock, later passes at the same instant (the System repeats update() until
// nothing changes) are true as well, so a block recomputes its new discrete
// state from the state before the instant with its inputs' latest values,
// and the result does not depend on the order of the elements.
class SampleClock {
 public:
  explicit SampleClock(double Ts = 0.0) : Ts_(Ts) {}
  bool sampled() const { return Ts_ > 0.0; }
  double period() const { return Ts_; }
  // Where the solver stops at every next() anyway, no root: IDA would find
  // it exactly at the step's end and check it again after the instant.
  double root(const Eval& e) const { return sampled() && !e.stopsAtTimeEvents ? e.t - next_ : 1.0; }
  // The instant root() aims at (infinity when continuous).
  double next() const { return sampled() ? next_ : std::numeric_limits<double>::infinity(); }
  // True when this pass is the first one at a new instant.
  bool fresh() const { return fresh_; }
  bool tick(const Eval& e) {
    fresh_ = false;
    if (!sampled()) return false;
    if (e.t == tNow_) return true;
    if (!e.initializing && e.t < next_ - timeEps(next_)) return false;
    k_ = e.initializing ? 0 : std::lround(std::floor((e.t + timeEps(e.t)) / Ts_));
    tNow_ = e.t;
    next_ = static_cast<double>(k_ + 1) * Ts_;
    fresh_ = true;
    return true;
  }
  void discrete(DiscreteState& s) { s(next_, tNow_, k_, fresh_); }

 private:
  double Ts_;
  double next_ = 0.0;
  double tNow_ = -std::numeric_limits<double>::infinity();
  long k_ = -1;
  bool fresh_ = false;
};

// Direct-feedthrough blocks read their inputs when their own output is read;
// a loop of such blocks would recurse forever. The guard turns that into an
// error naming the block.
class LoopGuard {
 public:
  LoopGuard(bool& busy, const std::string& id) : busy_(busy) {
    if (busy_)
      throw std::runtime_error(id +
                               ": algebraic loop (the block's output feeds back to its input without a "
                               "state in between; put a lag, integrator or sampled block in the loop)");
    busy_ = true;
  }
  ~LoopGuard() { busy_ = false; }
  LoopGuard(const LoopGuard&) = delete;
  LoopGuard& operator=(const LoopGuard&) = delete;

 private:
  bool& busy_;
};

// Absolute tolerance of the differential states of signal blocks.
constexpr double kStateAtol = 1e-8;

}  // namespace pm::signal
