// The mechanism as one element of the System: it owns every multibody state
// (parts, multipliers), writes their residuals, and tells the solver which of
// them couple (part by part, joint by joint) so the Jacobian stays sparse.
#pragma once

#include "mechanics/multibody.h"
#include "solver/element.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pm {

class MechanismElement : public Element {
 public:
  explicit MechanismElement(const Mechanism& m);
  mb::MultibodySystem& multibody() { return *mb_; }
  int firstState() const { return base_; }

  void setup(SystemBuilder& b) override;
  void evaluate(Eval& e) override;
  void roots(const Eval& e, double* g) override;
  void output(const Eval& e, double* channels) override;
  void makeConsistent(System& sys, double t, double* y, double* yp) override;

  // An actuator acting along the line between two markers (seed 002 sec. 3:
  // x = |d|, xdot from the markers' relative velocity): `force(e)` pushes
  // the rod-end marker away from the barrel-end marker, equal and opposite.
  // Or, with joint >= 0, an actuator driving a joint's coordinate (a
  // semi-rotary actuator on a revolute joint): `force` is then the torque
  // (or force) on I's part along the coordinate.
  struct Attachment {
    std::string owner;
    int barrel = -1, rod = -1;  // marker indices
    std::function<double(const Eval&)> force;
    int joint = -1;
  };
  int jointIndex(const std::string& id, bool revoluteOnly) const;
  const std::string& jointType(int joint) const { return mb_->jointType(joint); }
  double jointCoordinate(const Eval& e, int joint, double* rate) const;
  double initialJointCoordinate(int joint) const;
  std::vector<int> jointPartStates(int joint) const;
  // Resolves "part.marker"; throws with a message naming the reference.
  int markerIndex(const std::string& ref) const;
  void attach(Attachment a) { attachments_.push_back(std::move(a)); }
  // Distance between two markers and its rate, from the states in e.y.
  double distance(const Eval& e, int barrel, int rod, double* rate) const;
  double initialDistance(int barrel, int rod) const;
  // States of the part carrying a marker (empty for the ground).
  std::vector<int> partStates(int marker) const;
  // Of a part's states (as partStates gives them), the momentum rows (v, w')
  // that an attached force feeds.
  static std::vector<int> forceRows(const std::vector<int>& partStates);

 private:
  std::unique_ptr<mb::MultibodySystem> mb_;
  int base_ = 0;
  std::vector<Attachment> attachments_;
  std::vector<std::string> jointIds_;
  const Eval* cur_ = nullptr;  // the evaluation in progress, for the attachments' forces
};

}  // namespace pm
