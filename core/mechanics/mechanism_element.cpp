#include "mechanics/mechanism_element.h"

#include "solver/system.h"

#include <vector>

namespace pm {

MechanismElement::MechanismElement(const Mechanism& m)
    : Element("mechanism"), mb_(std::make_unique<mb::MultibodySystem>(m)) {}

void MechanismElement::setup(SystemBuilder& b) {
  const auto decls = mb_->stateDecls(b.absTolPosition());
  const auto& y0 = mb_->initialState();
  for (size_t i = 0; i < decls.size(); ++i) {
    const auto& d = decls[i];
    const int s = b.state(d.name, d.unit, d.differential ? StateKind::Differential : StateKind::Algebraic, y0[i],
                          d.atol, d.equation);
    if (i == 0) base_ = s;
  }
  for (auto g : mb_->couplingGroups()) {
    for (int& s : g) s += base_;
    b.couple(std::move(g));
  }
  for (const auto& c : mb_->channels()) b.channelNamed(c.name, c.unit);
  if (mb_->numRoots() > 0) b.roots(mb_->numRoots());
  b.highIndex();
  // Part positions and velocities as signals, for sensors and couplings.
  for (const auto& body : mb_->bodies()) {
    if (body.ground) continue;
    const int s = base_ + body.slot;
    const char* xyz[] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
      b.publishNamed(body.id + ".cm_" + xyz[a], [s, a](const Eval& e) { return e.y[s + a]; });
      b.publishNamed(body.id + ".v" + xyz[a], [s, a](const Eval& e) { return e.y[s + 7 + a]; });
    }
  }
}

void MechanismElement::evaluate(Eval& e) { mb_->residual(e.t, e.y + base_, e.yp + base_, e.res + base_); }

void MechanismElement::roots(const Eval& e, double* g) { mb_->roots(e.t, e.y + base_, g); }

void MechanismElement::output(const Eval& e, double* channels) {
  // Reactions and accelerations from the index-1 equations at the output
  // point: the integrator's multipliers are index-2 variables outside its
  // error test, accurate only to the Newton tolerance.
  const int n = mb_->size();
  std::vector<double> y(e.y + base_, e.y + base_ + n), yp(e.yp + base_, e.yp + base_ + n);
  mb_->makeConsistent(e.t, y.data(), yp.data());
  mb_->outputs(e.t, y.data(), yp.data(), channels);
}

void MechanismElement::makeConsistent(System&, double t, double* y, double* yp) {
  mb_->makeConsistent(t, y + base_, yp + base_);
}

}  // namespace pm
