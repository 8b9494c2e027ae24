#include "pneumatics/actuator_coupling.h"

#include "element/system_builder.h"
#include "mechanics/mechanism_element.h"
#include "model/project.h"

#include <stdexcept>

namespace pm {

ActuatorCoupling::ActuatorCoupling(const Component& c, Coordinate coordinate) : id_(c.id), c_(coordinate) {
  if (c.data.is_object() && c.data.contains("attach") && c.data["attach"].is_object()) {
    const auto& a = c.data["attach"];
    joint_ = a.value("joint", "");
    barrel_ = a.value("barrel", "");
    rod_ = a.value("rod", "");
  }
}

void ActuatorCoupling::begin(SystemBuilder& b) {
  side_ = attached() ? b.couplingRole() : CouplingRole::Monolithic;
  if (side_ == CouplingRole::Monolithic) return;
  bp_ = b.backplane();
  if (!bp_) throw std::logic_error(id_ + ": co-simulation without a backplane");
  bpIndex_ = bp_->index(id_);
}

void ActuatorCoupling::declareStates(SystemBuilder& b, double q0, std::function<double(const Eval&)> pressure,
                                     std::function<double(const Eval&)> force) {
  q0_ = q0;
  pressure_ = std::move(pressure);
  const double atol = c_.atol > 0.0 ? c_.atol : b.absTolPosition();
  const std::string q = c_.q, w = c_.w;
  if (side_ == CouplingRole::Pneumatic) {
    // Moved by the mechanics' exchanged coordinate and rate; contact is the
    // mechanical side's business.
    sq_ = b.state(q, c_.qUnit, StateKind::Algebraic, q0, atol, q + " - " + q + "_backplane(t)   [co-simulation]");
    sw_ = b.state(w, c_.wUnit, StateKind::Algebraic, 0.0, atol, w + " - " + w + "_backplane(t)   [co-simulation]");
    (*bp_)[bpIndex_].pressureForce = pressure_;
  } else if (attached()) {
    attachToMechanism(b, std::move(force));
    if (side_ == CouplingRole::Mechanical)
      // From the geometry, not the algebraic q, w (those hold only to the
      // Newton tolerance).
      (*bp_)[bpIndex_].kinematics = [this](const Eval& e, double& x, double& v) { x = coordinate(e, &v); };
  } else {
    sq_ = b.state(q, c_.qUnit, StateKind::Differential, q0, atol, "d" + q + "/dt - " + w);
    sw_ = b.state(w, c_.wUnit, StateKind::Differential, 0.0, 1e-6, c_.freeRateEquation);
  }
}

void ActuatorCoupling::attachToMechanism(SystemBuilder& b, std::function<double(const Eval&)> force) {
  mech_ = mechanismOf(b);
  if (!mech_)
    throw std::runtime_error(std::string("data.attach: the project has no mechanism to attach the ") + c_.noun + " to");
  if (!joint_.empty()) {
    // Along the joint's coordinate: q follows it, the force drives the joint.
    try {
      jointIndex_ = mech_->jointIndex(joint_, c_.rotary);
    } catch (const std::exception& ex) {
      throw std::runtime_error(std::string("data.attach.joint: ") + ex.what());
    }
    const std::string& type = mech_->jointType(jointIndex_);
    if (!c_.rotary && type != "translational" && type != "cylindrical")
      throw std::runtime_error("data.attach.joint: joint '" + joint_ + "' is " + type + "; a " + c_.noun +
                               " drives a translational or cylindrical joint");
    c0_ = mech_->initialJointCoordinate(jointIndex_);
    offset_ = c0_ - q0_;
    reads_ = mech_->jointPartStates(jointIndex_);
    writes_ = mech_->forceRows(reads_);
    b.touches(reads_, writes_);
  } else {
    // Along the line between the two markers (spherical ends).
    try {
      barrelIndex_ = mech_->markerIndex(barrel_);
      rodIndex_ = mech_->markerIndex(rod_);
    } catch (const std::exception& ex) {
      throw std::runtime_error(std::string("data.attach: ") + ex.what());
    }
    if (barrelIndex_ == rodIndex_) throw std::runtime_error("data.attach: barrel and rod ends are the same marker");
    c0_ = mech_->initialDistance(barrelIndex_, rodIndex_);
    if (markerOffset_) {
      offset_ = markerOffset_(c0_, barrel_, rod_);
    } else {
      offset_ = c0_ - q0_;
      if (!(offset_ > 0.0))
        throw std::runtime_error("data.attach: the markers are " + std::to_string(offset_ + q0_) +
                                 " m apart at the start, less than " + c_.q + "0; the retracted length must be positive");
    }
    for (int m : {barrelIndex_, rodIndex_}) {
      const std::vector<int> r = mech_->partStates(m), w = mech_->forceRows(r);
      reads_.insert(reads_.end(), r.begin(), r.end());
      writes_.insert(writes_.end(), w.begin(), w.end());
      b.touches(r, w);
    }
  }
  const double atol = c_.atol > 0.0 ? c_.atol : b.absTolPosition();
  sq_ = b.state(c_.q, c_.qUnit, StateKind::Algebraic, q0_, atol, algebraicEquation(false));
  sw_ = b.state(c_.w, c_.wUnit, StateKind::Algebraic, 0.0, atol, algebraicEquation(true));
  mech_->attach({id_, barrelIndex_, rodIndex_, std::move(force), jointIndex_, sq_, sw_, offset_});
}

std::string ActuatorCoupling::algebraicEquation(bool rate) const {
  const std::string q = c_.q, w = c_.w;
  if (jointIndex_ < 0)
    return rate ? w + " - d|P_rod - P_barrel|/dt   [mechanism]" : q + " - (|P_rod - P_barrel| - d0)   [mechanism]";
  if (c_.rotary)
    return rate ? w + " - joint rate   [mechanism]" : q + " - (joint angle - angle0 + " + q + "0)   [mechanism]";
  return rate ? w + " - joint velocity   [mechanism]" : q + " - (joint travel - s0)   [mechanism]";
}

double ActuatorCoupling::coordinate(const Eval& e, double* rate) const {
  const double c = jointIndex_ >= 0 ? mech_->jointCoordinate(e, jointIndex_, rate)
                                    : mech_->distance(e, barrelIndex_, rodIndex_, rate);
  return c_.rotary ? c - c0_ + q0_ : c - offset_;
}

}  // namespace pm
