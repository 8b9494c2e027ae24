// The mechanism as one element of the System: it owns every multibody state
// (parts, multipliers), writes their residuals, and tells the solver which of
// them couple (part by part, joint by joint) so the Jacobian stays sparse.
#pragma once

#include "mechanics/multibody.h"
#include "solver/element.h"

#include <memory>

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

 private:
  std::unique_ptr<mb::MultibodySystem> mb_;
  int base_ = 0;
};

}  // namespace pm
