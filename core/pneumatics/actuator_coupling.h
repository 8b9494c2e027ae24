// How a pneumatic actuator's coordinate q (a cylinder's stroke x, a swivel
// drive's angle theta) and its rate w join the rest of the model, the same
// for every actuator type:
//  - free: q, w differential, moved by the actuator's own equation of
//    motion (its lumped mass or inertia);
//  - attached to the mechanism (data.attach: {"joint": id}, or a cylinder's
//    {"barrel": "part.marker", "rod": "part.marker"}): q, w algebraic from
//    the mechanism's geometry, the actuator's force (or torque) driving the
//    joint or pushing the markers apart (seed 002 sec. 3);
//  - co-simulation (simulation.coupling "cosimulation", element/backplane.h),
//    pneumatic side: q, w algebraic, the backplane's extrapolated motion;
//    the chambers' pressure force is sent back to it;
//  - co-simulation, mechanical side: attached as above, without chambers;
//    the pressure force is the backplane's interpolation.
#pragma once

#include "element/backplane.h"
#include "element/element.h"

#include <functional>
#include <string>
#include <vector>

namespace pm {

class MechanismElement;
class SystemBuilder;
struct Component;

class ActuatorCoupling {
 public:
  // How an actuator names its coordinate, and what it can drive.
  struct Coordinate {
    const char* q;      // "x", "theta"
    const char* qUnit;  // "m", "rad"
    const char* w;      // "v", "omega"
    const char* wUnit;  // "m/s", "rad/s"
    // A revolute joint's angle; else a translational or cylindrical
    // joint's travel, or the distance between two markers.
    bool rotary;
    // Absolute tolerance of the algebraic q, w and of the free q; 0: the
    // run's position tolerance.
    double atol;
    const char* noun;               // in messages: "cylinder", "actuator"
    const char* freeRateEquation;  // the free w's equation, as listed
  };

  // Reads data.attach.
  ActuatorCoupling(const Component& c, Coordinate coordinate);

  // Attached between two markers: d0 in q = distance - d0 from the markers'
  // distance at the assembled start, throwing what is wrong with it (a
  // cylinder checks it against its length). Without one: distance - q0,
  // which must be positive.
  using MarkerOffset = std::function<double(double distance, const std::string& barrel, const std::string& rod)>;
  void setMarkerOffset(MarkerOffset f) { markerOffset_ = std::move(f); }

  bool attached() const { return !joint_.empty() || !barrel_.empty(); }
  // First in setup(): which side of a co-simulation this System is, for an
  // attached actuator (monolithic otherwise).
  void begin(SystemBuilder& b);
  bool pneumaticSide() const { return side_ == CouplingRole::Pneumatic; }
  bool mechanicalSide() const { return side_ == CouplingRole::Mechanical; }
  // Declares q (starting at q0) and w for the mode. `pressure`: the
  // chambers' force (or torque) along q, sent to the backplane on the
  // pneumatic side; `force`: the actuator's whole force on the mechanism
  // when attached.
  void declareStates(SystemBuilder& b, double q0, std::function<double(const Eval&)> pressure,
                     std::function<double(const Eval&)> force);
  int qState() const { return sq_; }
  int wState() const { return sw_; }
  // Attached: the mechanism's states the force reads and the rows it feeds.
  bool onMechanism() const { return mech_ != nullptr; }
  const std::vector<int>& reads() const { return reads_; }
  const std::vector<int>& writes() const { return writes_; }

  // q, w that move the chambers: the states, or on the pneumatic side the
  // backplane's motion (a function of t alone).
  void motion(const Eval& e, double& q, double& w) const {
    q = e.y[sq_];
    w = e.y[sw_];
    if (side_ == CouplingRole::Pneumatic) bp_->kinematicsAt(bpIndex_, e.t, q, w);
  }
  // The pressure force the mechanism feels: on the mechanical side the
  // backplane's interpolation, else the chambers' own.
  double pressureForce(const Eval& e) const {
    return side_ == CouplingRole::Mechanical ? bp_->forceAt(bpIndex_, e.t) : pressure_(e);
  }
  // A force that reads circuit values (a user component's) is computed on
  // the mechanical side from the values the pneumatic side sends
  // (Backplane::Actuator::circuitValues): there, `n` values written by
  // `values`; on the mechanical side, value k at t, interpolated over the
  // exchange interval.
  void sendCircuitValues(int n, std::function<void(const Eval&, double*)> values) {
    (*bp_)[bpIndex_].nValues = n;
    (*bp_)[bpIndex_].circuitValues = std::move(values);
  }
  double circuitValue(int k, double t) const { return bp_->valueAt(bpIndex_, k, t); }
  // The residuals of q and w: the backplane's motion (q, w from motion()),
  // the mechanism's geometry, or free dq/dt = w, dw/dt = freeAcceleration().
  template <class Acceleration>
  void residuals(Eval& e, double q, double w, Acceleration freeAcceleration) const {
    if (side_ == CouplingRole::Pneumatic) {
      e.res[sq_] = e.y[sq_] - q;
      e.res[sw_] = e.y[sw_] - w;
    } else if (mech_) {
      mechanismResiduals(e);
    } else {
      e.res[sq_] = e.yp[sq_] - w;
      e.res[sw_] = e.yp[sw_] - freeAcceleration();
    }
  }
  void mechanismResiduals(Eval& e) const {
    double rate = 0.0;
    const double q = coordinate(e, &rate);
    e.res[sq_] = e.y[sq_] - q;
    e.res[sw_] = e.y[sw_] - rate;
  }

 private:
  // q and its rate from the mechanism's geometry: an angle as c - c0 + q0,
  // a stroke as c - offset, offset = c0 - q0 or the marker offset (c the
  // joint coordinate or marker distance, c0 its value at the assembled
  // start), the rounding each has always had.
  double coordinate(const Eval& e, double* rate) const;
  void attachToMechanism(SystemBuilder& b, std::function<double(const Eval&)> force);
  std::string algebraicEquation(bool rate) const;

  std::string id_;
  Coordinate c_;
  std::string joint_, barrel_, rod_;  // data.attach
  CouplingRole side_ = CouplingRole::Monolithic;
  Backplane* bp_ = nullptr;
  int bpIndex_ = -1;
  MechanismElement* mech_ = nullptr;
  int jointIndex_ = -1, barrelIndex_ = -1, rodIndex_ = -1;
  double q0_ = 0.0, c0_ = 0.0, offset_ = 0.0;  // offset_: c0 - q0, or markerOffset_'s
  std::vector<int> reads_, writes_;
  int sq_ = -1, sw_ = -1;
  std::function<double(const Eval&)> pressure_;
  MarkerOffset markerOffset_;
};

}  // namespace pm
