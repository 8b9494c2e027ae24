// MechanismElement's latches (issue 27): when each engages and releases.
// The multibody system holds the joints and makes the impact
// (multibody_latches.cpp); here are the conditions, read at every discrete
// update, and the roots that make the integrator stop where they change:
// the capture distance (distance - capture_radius) and the engage and
// release signals that change between events (signal - 0.5). A signal that
// changes only at events (a sequence's step) needs no root. A latch with a
// closing time (the seed 004 boom's latch, too slow to catch a tip that
// bounces out) starts closing where its condition comes and engages where
// it has held for that time: one more root, t - (onset + closing time).
#include "mechanics/mechanism_element.h"

#include "element/system_builder.h"

#include <algorithm>

namespace pm {

namespace {
constexpr double kOn = 0.5;  // a signal above this engages or releases
}  // namespace

void MechanismElement::setupLatches(SystemBuilder& b) {
  const std::vector<LatchDef>& defs = mechanism_.latches;
  latchIn_ = std::vector<LatchInputs>(defs.size());  // the inputs' addresses stay: the builder keeps them
  latchImpulse_.assign(defs.size(), 0);
  latchRoots_ = 0;
  for (size_t l = 0; l < defs.size(); ++l) {
    LatchInputs& in = latchIn_[l];
    b.input(in.engage, "engage", defs[l].engage);
    b.input(in.release, "release", defs[l].release);
    in.engage.owner = in.release.owner = defs[l].id;  // an unknown signal names the latch
    in.engageRoot = !defs[l].engage.empty() && !b.held(defs[l].engage);
    in.releaseRoot = !defs[l].release.empty() && !b.held(defs[l].release);
    latchRoots_ += (mb_->latches()[l].capture > 0.0) + in.engageRoot + in.releaseRoot;
    latchRoots_ += mb_->latches()[l].closingTime > 0.0;
  }
}

void MechanismElement::engageLatchesAtStart(std::vector<double>& y) {
  for (size_t l = 0; l < mechanism_.latches.size(); ++l) {
    const auto& p = mechanism_.latches[l].params;
    const auto e = p.find("engaged");
    if (e == p.end() || e->second <= 0.5) continue;
    const int i = static_cast<int>(l);
    mb_->engageLatch(i, 0.0, y.data());
    mb_->latchImpulse(i, 0.0, y.data());
    mb_->setLatchArmed(i, false);  // after a release it engages again only once its condition was false
  }
}

// As the result channels' reaction (jointReaction), from the state alone:
// a signal is read between outputs.
double MechanismElement::latchForce(const double* y, int l) const {
  const mb::LatchRT& L = mb_->latches()[l];
  if (!L.engaged) return 0.0;
  std::vector<mb::Kin> k;
  std::vector<mb::Row> rows;
  mb_->constraintRows(0.0, y, k, rows);  // the rows' directions do not depend on time
  const int bi = mb_->markerBody(L.joint.I);
  mb::V3 F = mb::V3::Zero();
  for (int r = L.joint.firstRow; r < L.joint.firstRow + L.joint.nRows; ++r) {
    const mb::RowInfo& info = mb_->rows()[r];
    if (!info.active) continue;
    for (int q = 0; q < rows[r].n; ++q)
      if (rows[r].b[q] == bi) F -= rows[r].r[q] * y[info.lambda];
  }
  return F.norm();
}

bool MechanismElement::rootsReadStatesOnly() const {
  for (const LatchInputs& in : latchIn_)
    for (const SignalInput* s : {&in.engage, &in.release})
      if (s->connected() && !s->readsStatesOnly) return false;
  return true;
}

void MechanismElement::latchRoots(const Eval& e, double* g) const {
  const double* y = e.y + base_;
  int n = 0;
  for (size_t l = 0; l < latchIn_.size(); ++l) {
    const mb::LatchRT& L = mb_->latches()[l];
    // Engaged, the distance sits at the radius (where it engaged): a root
    // there would chatter on rounding.
    if (L.capture > 0.0)
      g[n++] = L.engaged ? -L.capture : mb_->latchDistance(y, static_cast<int>(l), nullptr) - L.capture;
    if (latchIn_[l].engageRoot) g[n++] = latchIn_[l].engage(e) - kOn;
    if (latchIn_[l].releaseRoot) g[n++] = latchIn_[l].release(e) - kOn;
    if (L.closingTime > 0.0) g[n++] = L.closing ? e.t - (L.conditionTime + L.closingTime) : 1.0;
  }
}

bool MechanismElement::updateLatches(const Eval& e) {
  const double* y = e.y + base_;
  bool changed = false;
  for (size_t l = 0; l < latchIn_.size(); ++l) {
    const int i = static_cast<int>(l);
    const mb::LatchRT& L = mb_->latches()[l];
    const LatchInputs& in = latchIn_[l];
    const bool release = in.release.connected() && in.release(e) > kOn;
    if (L.engaged) {
      if (release) {
        mb_->releaseLatch(i);
        latchImpulse_[l] = 0;
        changed = true;
      }
      continue;
    }
    // Each condition given must hold. At the capture root the distance is
    // at the radius to the root finder's accuracy: a relative 1e-9 slack.
    // Closing, the condition holds on while the distance stays inside the
    // radius whichever way it moves; it drops where the distance's root
    // finds it at the radius and opening.
    bool condition = true, holds = true;
    if (L.capture > 0.0) {
      double rate = 0.0;
      const double d = mb_->latchDistance(y, i, &rate);
      condition = d <= L.capture * (1.0 + 1e-9) && rate <= 0.0;
      holds = condition || d < L.capture * (1.0 - 1e-9);
    }
    if (in.engage.connected()) {
      const bool on = in.engage(e) > kOn;
      condition = condition && on;
      holds = holds && on;
    }
    if (L.closingTime > 0.0) {
      changed = closeLatch(i, e.t, y, condition, holds && !release) || changed;
      continue;
    }
    if (!condition) {
      mb_->setLatchArmed(i, true);
      continue;
    }
    if (!L.armed || release) continue;
    mb_->engageLatch(i, e.t, y);
    latchImpulse_[l] = 1;
    changed = true;
  }
  return changed;
}

bool MechanismElement::closeLatch(int i, double t, const double* y, bool condition, bool holds) {
  const mb::LatchRT& L = mb_->latches()[i];
  if (L.closing) {
    if (!holds) {
      mb_->setLatchClosing(i, false, t);  // dropped before the time was up: it starts again
      if (!condition) mb_->setLatchArmed(i, true);
      return true;
    }
    // The time's root lands within the root finder's accuracy of its end.
    if (t < L.conditionTime + L.closingTime - 1e-9 * std::max(1.0, t)) return false;
    mb_->engageLatch(i, t, y);
    latchImpulse_[i] = 1;
    return true;
  }
  if (!condition || !holds) {
    if (!condition) mb_->setLatchArmed(i, true);
    return false;
  }
  if (!L.armed) return false;
  mb_->setLatchClosing(i, true, t);
  return true;
}

void MechanismElement::latchDiscrete(DiscreteState& s) {
  mb_->latchDiscrete(s);
  s(latchImpulse_);
}

void MechanismElement::applyLatchImpulses(double t, double* y) {
  for (size_t l = 0; l < latchImpulse_.size(); ++l)
    if (latchImpulse_[l]) {
      mb_->latchImpulse(static_cast<int>(l), t, y);
      latchImpulse_[l] = 0;
    }
}

}  // namespace pm
