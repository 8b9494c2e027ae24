#include "mechanics/mechanism_element.h"

#include "element/system_builder.h"
#include "model/project_error.h"
#include "model/message_text.h"

#include <algorithm>
#include <vector>

namespace pm {

MechanismElement::MechanismElement(const Mechanism& m, std::string formulation, const mb::ExternalLoads& loads)
    : Element("mechanism"), mechanism_(m), loads_(loads), formulation_(std::move(formulation)) {
  for (const JointDef& j : m.joints) jointIds_.push_back(j.id);
}

void MechanismElement::build(const BuildOptions& o) {
  mb_ = std::make_unique<mb::MultibodySystem>(mechanism_, loads_, mb::MultibodyOptions{o.lumpFixedJoints, o.forceDense});
  mb_->externalForces = [this](double, const double* y, const std::vector<mb::Kin>& k, mb::MultibodySystem& sys) {
    if (cur_) {
      applyAttachments(*cur_, k, sys);
    } else if (held_) {  // an analysis with the circuit held
      syncHeld(y);
      held_->withEval(0.0, heldY_.data(), heldYp_.data(), [&](Eval& e) { applyAttachments(e, k, sys); });
    }
  };
}

void MechanismElement::applyAttachments(const Eval& e, const std::vector<mb::Kin>& k, mb::MultibodySystem& sys) const {
  for (const Attachment& a : attachments_) {
    if (a.joint >= 0) {
      sys.applyJointEffort(a.joint, k, a.force(e));
      continue;
    }
    const mb::V3 pb = sys.markerPoint(a.barrel, k), pr = sys.markerPoint(a.rod, k);
    const mb::V3 d = pr - pb;
    const double l = d.norm();
    if (!(l > 0.0)) continue;
    const mb::V3 u = d / l;
    const double F = a.force(e);
    sys.applyForce(sys.markerBody(a.rod), pr, F * u);
    sys.applyForce(sys.markerBody(a.barrel), pb, -F * u);
  }
}

void MechanismElement::holdCircuit(Evaluator& sys, std::vector<double> y) {
  held_ = &sys;
  heldY_ = std::move(y);
  heldYp_.assign(heldY_.size(), 0.0);
}

void MechanismElement::syncHeld(const double* y) {
  for (const Attachment& a : attachments_) {
    if (a.xState < 0) continue;
    double rate = 0.0, q = 0.0;
    if (a.joint >= 0) {
      q = mb_->jointCoordinateAt(y, a.joint, &rate);
    } else {
      mb::V3 pb, vb, pr, vr;
      mb_->markerState(y, a.barrel, pb, vb);
      mb_->markerState(y, a.rod, pr, vr);
      q = (pr - pb).norm();
      rate = q > 0.0 ? (pr - pb).dot(vr - vb) / q : 0.0;
    }
    heldY_[a.xState] = q - a.offset;
    heldY_[a.vState] = rate;
  }
}

std::vector<std::pair<std::string, double>> MechanismElement::heldForces(const double* y) {
  std::vector<std::pair<std::string, double>> f;
  if (!held_) return f;
  syncHeld(y);
  held_->withEval(0.0, heldY_.data(), heldYp_.data(), [&](Eval& e) {
    for (const Attachment& a : attachments_) f.emplace_back(a.owner, a.force(e));
  });
  return f;
}

int MechanismElement::markerIndex(const std::string& ref) const {
  const int m = mb_->marker(ref);
  if (m < 0) throw std::runtime_error("no marker '" + ref + "' in the mechanism (write '<part>.<marker>')");
  return m;
}

int MechanismElement::jointIndex(const std::string& id, bool revoluteOnly) const {
  const int j = mb_->joint(id);
  if (j < 0) throw std::runtime_error("no joint '" + id + "' in the mechanism");
  if (revoluteOnly && mb_->jointType(j) != "revolute")
    throw std::runtime_error("joint '" + id + "' is " + mb_->jointType(j) + ", not revolute");
  return j;
}

double MechanismElement::jointCoordinate(const Eval& e, int joint, double* rate) const {
  return mb_->jointCoordinateAt(local(e), joint, rate);
}

const double* MechanismElement::local(const Eval& e) const {
  if (!rc_) return e.y + base_;
  const double* r = e.y + base_;
  if (keyValid_ && e.t == keyT_ && std::equal(r, r + nReduced_, key_.begin())) return full_.data();
  const int f = rc_->dof();
  keyValid_ = false;
  if (!rc_->expand(e.t, r, r + f, r + 2 * f, full_.data()))
    throw RecoverableError("mechanism: the constraints do not close at t = " + numberText(e.t) +
                           " s (a lock-up, or a linkage driven through a dead point where its links cannot go)");
  key_.assign(r, r + nReduced_);
  keyT_ = e.t;
  keyValid_ = true;
  return full_.data();
}

void MechanismElement::checkState(const Eval& e) {
  // Reduced coordinates close the constraints by construction: local()
  // throws where they cannot close, at every residual and for every row's
  // outputs. Expanding once more here would cost a closure per row on the
  // solver's thread and check nothing new.
  if (rc_) return;
  const std::string why = mb_->constraintBreach(e.t, local(e));
  if (!why.empty()) throw std::runtime_error(why);
}

double MechanismElement::initialJointCoordinate(int joint) const {
  return mb_->jointCoordinateAt(mb_->initialState().data(), joint, nullptr);
}

std::vector<int> MechanismElement::jointPartStates(int joint) const {
  std::vector<int> v;
  if (rc_) {  // every absolute coordinate depends on all independent ones
    for (int k = 0; k < 2 * rc_->dof(); ++k) v.push_back(base_ + k);
    return v;
  }
  for (int b : mb_->jointBodies(joint)) {
    const auto& body = mb_->bodies()[b];
    if (!body.ground)
      for (int k = 0; k < 14; ++k) v.push_back(base_ + body.slot + k);
  }
  return v;
}

double MechanismElement::distance(const Eval& e, int barrel, int rod, double* rate) const {
  mb::V3 pb, vb, pr, vr;
  const double* y = local(e);
  mb_->markerState(y, barrel, pb, vb);
  mb_->markerState(y, rod, pr, vr);
  const mb::V3 d = pr - pb;
  const double l = d.norm();
  if (rate) *rate = l > 0.0 ? d.dot(vr - vb) / l : 0.0;
  return l;
}

double MechanismElement::initialDistance(int barrel, int rod) const {
  mb::V3 pb, vb, pr, vr;
  mb_->markerState(mb_->initialState().data(), barrel, pb, vb);
  mb_->markerState(mb_->initialState().data(), rod, pr, vr);
  return (pr - pb).norm();
}

std::vector<int> MechanismElement::forceRows(const std::vector<int>& partStates) const {
  std::vector<int> v;
  if (rc_) {  // the rates' rows (accelerations)
    for (int s : partStates)
      if (s >= base_ + rc_->dof() && s < base_ + 2 * rc_->dof()) v.push_back(s);
    return v;
  }
  for (size_t k = 0; k < partStates.size(); ++k)
    if (k % 14 >= 7 && k % 14 < 13) v.push_back(partStates[k]);
  return v;
}

std::vector<int> MechanismElement::partStates(int marker) const {
  std::vector<int> v;
  if (rc_) {
    for (int k = 0; k < 2 * rc_->dof(); ++k) v.push_back(base_ + k);
    return v;
  }
  const auto& b = mb_->bodies()[mb_->markerBody(marker)];
  if (!b.ground)
    for (int k = 0; k < 14; ++k) v.push_back(base_ + b.slot + k);
  return v;
}

void MechanismElement::setup(SystemBuilder& b) {
  build(b.options());
  const auto decls = mb_->stateDecls(b.absTolPosition());
  const auto& y0 = mb_->initialState();
  if (formulation_ == "reduced" && !mb_->latches().empty())
    throw std::runtime_error(
        "simulation.mechanism_formulation: latches need the absolute formulation (their joints switch on and off)");
  if (formulation_ == "reduced")
    for (const auto& c : mb_->contacts())
      if (c.stick >= 0)
        throw std::runtime_error("simulation.mechanism_formulation: contact " + c.id +
                                 ": a stick state (stiction_deformation > 0) needs the absolute formulation");
  if (formulation_ == "reduced") {
    try {
      // The copies of a run's System share the tabulated expansion's nodes.
      const BuildOptions& o = b.options();
      mb::ReducedCoordinates::Sharing sharing{o.tabulateOneDof, nullptr, o.solverCopy};
      if (o.shared) sharing.tables = o.shared->get<mb::ReducedCoordinates::Tables>(id() + ".tables");
      rc_ = std::make_unique<mb::ReducedCoordinates>(*mb_, 0.0, y0.data(), sharing);
    } catch (const std::exception& ex) {
      throw std::runtime_error(std::string("simulation.mechanism_formulation: ") + ex.what());
    }
  }
  if (rc_) {
    setupReduced(b, decls);
  } else {
    setupLatches(b);
    setupAbsolute(b, decls);
  }
  publishSignals(b);
}

void MechanismElement::setupReduced(SystemBuilder& b, const std::vector<mb::MultibodySystem::StateDecl>& decls) {
  const auto& y0 = mb_->initialState();
  const int f = rc_->dof();
  std::vector<double> z(f), u(f);
  rc_->reduce(y0.data(), z.data(), u.data());
  std::vector<int> all;
  // Names appended to a std::string (GCC 12's -Wrestrict misfires on
  // "literal" + std::to_string(...)).
  auto qName = [](int i) {
    std::string n = "q";
    n += std::to_string(i + 1);
    return n;
  };
  for (int i = 0; i < f; ++i) {
    const std::string first = rc_->coordinateName(i), unit = rc_->isEulerParameter(i) ? "1" : "m";
    std::string eq = "dq/dt - u   [independent coordinate ";
    eq += std::to_string(i + 1) + " of " + std::to_string(f) + ", at the start " + first +
          "; the others follow from the constraints]";
    all.push_back(b.state(qName(i), unit, StateKind::Differential, z[i], b.absTolPosition(), eq));
  }
  for (int i = 0; i < f; ++i)
    all.push_back(b.state(qName(i) + "_rate", rc_->isEulerParameter(i) ? "1/s" : "m/s", StateKind::Differential, u[i],
                          b.absTolPosition(),
                          "du/dt - d2q/dt2 from M a + C^T lambda = F, C a = gamma   [coordinate partitioning]"));
  for (int w : mb_->windingStates())
    all.push_back(b.state(decls[w].name, decls[w].unit, StateKind::Differential, y0[w], decls[w].atol, decls[w].equation));
  base_ = all.empty() ? 0 : all.front();
  nReduced_ = static_cast<int>(all.size());
  full_.assign(mb_->size(), 0.0);
  work_.assign(mb_->size(), 0.0);
  workp_.assign(mb_->size(), 0.0);
  if (!all.empty()) b.couple(all);
  for (const auto& c : mb_->channels()) b.channelNamed(c.name, c.unit);
  // The mechanism's own roots, then the partition's conditioning.
  b.roots(mb_->numRoots() + 1);
}

void MechanismElement::setupAbsolute(SystemBuilder& b, const std::vector<mb::MultibodySystem::StateDecl>& decls) {
  std::vector<double> y0 = mb_->initialState();
  engageLatchesAtStart(y0);
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
  auto entries = mb_->couplingEntries();
  for (auto& [r, c] : entries) r += base_, c += base_;
  b.entries(std::move(entries));
  for (const auto& c : mb_->channels()) b.channelNamed(c.name, c.unit);
  if (mb_->numRoots() + latchRoots_ > 0) b.roots(mb_->numRoots() + latchRoots_);
  b.highIndex();
}

void MechanismElement::publishSignals(SystemBuilder& b) {
  // Part positions, orientations and velocities, and joint coordinates and
  // rates, as signals for sensors, switches and controllers.
  for (size_t p = 0; p < mb_->parts().size(); ++p) {
    const mb::PartRT& part = mb_->parts()[p];
    const char* xyz[] = {"x", "y", "z"};
    const char* rpy[] = {"roll", "pitch", "yaw"};
    if (part.lumped) {  // welded into another body: from that body's states
      const int i = static_cast<int>(p);
      for (int a = 0; a < 3; ++a) {
        b.publishNamed(part.id + ".cm_" + xyz[a], [this, i, a](const Eval& e) {
          mb::Kin k;
          mb_->partKinematics(local(e), i, k);
          return k.r[a];
        });
        b.publishNamed(part.id + ".v" + xyz[a], [this, i, a](const Eval& e) {
          mb::Kin k;
          mb_->partKinematics(local(e), i, k);
          return k.v[a];
        });
        b.publishNamed(part.id + "." + rpy[a], [this, i, a](const Eval& e) {
          mb::Kin k;
          mb_->partKinematics(local(e), i, k);
          return mb::toRpy(k.A)[a];
        });
      }
      continue;
    }
    const int s = mb_->bodies()[part.body].slot;
    const std::string id = part.id;
    for (int a = 0; a < 3; ++a) {
      b.publishNamed(id + ".cm_" + xyz[a], [this, s, a](const Eval& e) { return local(e)[s + a]; });
      b.publishNamed(id + ".v" + xyz[a], [this, s, a](const Eval& e) { return local(e)[s + 7 + a]; });
      b.publishNamed(id + "." + rpy[a], [this, s, a](const Eval& e) {
        const double* y = local(e) + s;
        return mb::toRpy(mb::rotation(mb::Q4(y[3], y[4], y[5], y[6]).normalized()))[a];
      });
    }
  }
  for (const std::string& id : jointIds_) {
    const int j = mb_->joint(id);
    if (j < 0) continue;  // a fixed joint lumped: no coordinate
    const std::string& type = mb_->jointType(j);
    const bool rev = type == "revolute";
    if (!rev && type != "translational" && type != "cylindrical") continue;
    b.publishNamed(id + (rev ? ".angle" : ".displacement"),
                   [this, j](const Eval& e) { return mb_->jointCoordinateAt(local(e), j, nullptr); });
    b.publishNamed(id + (rev ? ".rate" : ".velocity"), [this, j](const Eval& e) {
      double rate = 0.0;
      mb_->jointCoordinateAt(local(e), j, &rate);
      return rate;
    });
  }
  for (size_t l = 0; l < mb_->latches().size(); ++l) {
    const int i = static_cast<int>(l);
    b.publishNamed(
        mb_->latches()[l].id + ".engaged", [this, i](const Eval&) { return mb_->latches()[i].engaged ? 1.0 : 0.0; }, true);
    b.publishNamed(mb_->latches()[l].id + ".force", [this, i](const Eval& e) { return latchForce(local(e), i); });
    if (mb_->latches()[l].closingTime > 0.0)
      b.publishNamed(
          mb_->latches()[l].id + ".closing", [this, i](const Eval&) { return mb_->latches()[i].closing ? 1.0 : 0.0; },
          true);
  }
  // Contact pairs: "part present" (in_contact, 1 or 0) and the forces, for
  // sequences and controllers.
  for (size_t c = 0; c < mb_->contacts().size(); ++c) {
    const int i = static_cast<int>(c);
    const std::string& id = mb_->contacts()[c].id;
    b.publishNamed(
        id + ".in_contact",
        [this, i](const Eval& e) { return mb_->contactAt(local(e), i).geometry.touching() ? 1.0 : 0.0; }, true);
    b.publishNamed(id + ".normal_force", [this, i](const Eval& e) { return mb_->contactAt(local(e), i).normal; });
    b.publishNamed(id + ".friction_force",
                   [this, i](const Eval& e) { return mb_->contactAt(local(e), i).friction.norm(); });
    b.publishNamed(id + ".penetration", [this, i](const Eval& e) { return mb_->contactAt(local(e), i).penetration; });
  }
}

void MechanismElement::evaluate(Eval& e) {
  forcesOf_ = {};
  if (!rc_) {
    // Root checks read the mechanism's quantities from the states (its
    // signals and roots compute them on demand): its residual is not needed.
    if (e.forRoots) return;
    cur_ = &e;
    mb_->residual(e.t, e.y + base_, e.yp + base_, e.res + base_);
    cur_ = nullptr;
    return;
  }
  // dz/dt = u, du/dt = the independent coordinates' accelerations, windings
  // at the joints' rates.
  const int f = rc_->dof();
  const double* y = local(e);
  if (e.forRoots) return;
  const double* r = e.y + base_;
  const double* rp = e.yp + base_;
  double* res = e.res + base_;
  std::vector<double>& zdd = zdd_;
  std::vector<double>& rates = rates_;
  // Sized at the first evaluation (resize() is a call even when nothing changes).
  if (zdd.size() != static_cast<size_t>(f)) zdd.resize(f);
  if (rates.size() != static_cast<size_t>(nReduced_ - 2 * f)) rates.resize(nReduced_ - 2 * f);
  cur_ = &e;
  try {
    mb_->appliedForces(e.t, y, F_, N_, rates.data());
  } catch (...) {
    cur_ = nullptr;
    throw;
  }
  cur_ = nullptr;
  rc_->accelerations(e.t, y, F_, N_, zdd.data());
  forcesOf_ = {&e, e.t, e.y};
  for (int i = 0; i < f; ++i) {
    res[i] = rp[i] - r[f + i];
    res[f + i] = rp[f + i] - zdd[i];
  }
  for (size_t w = 0; w < rates.size(); ++w) res[2 * f + w] = rp[2 * f + w] - rates[w];
}

void MechanismElement::roots(const Eval& e, double* g) {
  if (!rc_) {
    mb_->roots(e.t, e.y + base_, g);
    latchRoots(e, g + mb_->numRoots());
    return;
  }
  if (mb_->numRoots() == 0 && rc_->tabulated()) {
    // The partition's conditioning alone: from the table's nodes, without
    // expanding the state (a root check at every step end).
    const double* r = e.y + base_;
    const int f = rc_->dof();
    if (!rc_->tableMargin(e.t, r, r + 2 * f, g[0]))
      throw RecoverableError("mechanism: the constraints do not close at t = " + numberText(e.t) + " s");
    return;
  }
  mb_->roots(e.t, local(e), g);
  g[mb_->numRoots()] = rc_->margin();
}

bool MechanismElement::update(const Eval& e) {
  // At the partition's root: choose new independent coordinates there
  // (makeConsistent does it, as it may rewrite the states).
  if (!rc_) return updateLatches(e);
  if (repartition_) return false;
  local(e);
  if (rc_->margin() > 1e-3) return false;
  repartition_ = true;
  return true;
}

bool MechanismElement::discrete(DiscreteState& s) {
  s(repartition_);
  latchDiscrete(s);
  if (!rc_) return true;
  // z and u mean what the partition makes them mean: a copy repartitions at
  // the same pose, which gives it the same coordinates (and table grid).
  long index = rc_->partitionIndex();
  double t = rc_->partitionTime();
  std::vector<double> pose = rc_->partitionPose();
  s(index, t, pose);
  if (s.loading() && index != rc_->partitionIndex()) {
    rc_->partition(t, pose.data(), index);
    keyValid_ = false;
  }
  return true;
}

bool MechanismElement::idleWork() {
  if (!rc_ || !rc_->tabulated()) return false;
  if (!ahead_) ahead_ = rc_->prefetcher(0.0, mb_->initialState().data());
  return ahead_ && ahead_->prefetchAhead();
}

void MechanismElement::output(const Eval& e, double* channels) {
  // Reactions and accelerations from the index-1 equations at the output
  // point: the integrator's multipliers are index-2 variables outside its
  // error test, accurate only to the Newton tolerance.
  if (rc_) {
    // The accelerations are the reduced equations' own (W d2z/dt2 + a_c,
    // on the constraints by construction); only the multipliers are
    // solved for. A tabulated expansion needs no anchor (its nodes
    // continue from their neighbours).
    const double* y = local(e);
    if (zdd_.size() != static_cast<size_t>(rc_->dof())) zdd_.resize(rc_->dof());
    cur_ = &e;
    try {
      // System::outputs evaluates first: the forces and accelerations of
      // that evaluation are these.
      if (!(forcesOf_.eval == &e && forcesOf_.t == e.t && forcesOf_.y == e.y)) {
        mb_->appliedForces(e.t, y, F_, N_);
        rc_->accelerations(e.t, y, F_, N_, zdd_.data());
      }
      std::copy(y, y + mb_->size(), work_.begin());
      std::fill(workp_.begin(), workp_.end(), 0.0);
      rc_->partAccelerations(e.t, y, zdd_.data(), workp_.data());
      mb_->multipliersFor(e.t, work_.data(), workp_.data(), F_, N_);
    } catch (...) {
      cur_ = nullptr;
      throw;
    }
    cur_ = nullptr;
    mb_->outputs(e.t, work_.data(), workp_.data(), channels, true);
    if (!rc_->tabulated()) rc_->setAnchor(e.t, y, false);
    return;
  }
  const int n = mb_->size();
  std::vector<double> y(e.y + base_, e.y + base_ + n), yp(e.yp + base_, e.yp + base_ + n);
  cur_ = &e;
  mb_->makeConsistent(e.t, y.data(), yp.data());
  mb_->outputs(e.t, y.data(), yp.data(), channels, true);
  cur_ = nullptr;
}

void MechanismElement::makeConsistent(Evaluator& sys, double t, double* y, double* yp) {
  if (rc_) {
    // A restart: the pose here becomes the anchor (at the partition's root,
    // new independent coordinates first).
    sys.withEval(t, y, yp, [&](Eval& e) {
      std::vector<double> full(local(e), local(e) + mb_->size());
      if (repartition_) {
        rc_->partition(t, full.data());
        rc_->reduce(full.data(), y + base_, y + base_ + rc_->dof());
      } else {
        rc_->setAnchor(t, full.data(), true);
      }
      keyValid_ = false;
    });
    repartition_ = false;
    return;
  }
  applyLatchImpulses(t, y + base_);
  sys.withEval(t, y, yp, [&](Eval& e) {
    cur_ = &e;
    mb_->makeConsistent(t, y + base_, yp + base_);
    cur_ = nullptr;
  });
}

IntegrationNeeds MechanismElement::integrationNeeds() const {
  IntegrationNeeds n;
  n.secondOrder = true;
  // Reduced coordinates expand from an anchor that follows the motion;
  // their independent coordinates move little when the pattern is sampled.
  n.residualHasHistory = reduced();
  n.samplingMove = reduced() ? 1e-3 : 1.0;
  return n;
}

std::string MechanismElement::stateObject(const std::string& localName) const {
  return localName.substr(0, localName.find('.'));
}

void MechanismElement::checkForRun(const std::string& file) const {
  try {
    mb_->requireMass();
  } catch (const std::runtime_error& e) {
    throwMechanismError(file, e.what());
  }
}

}  // namespace pm
