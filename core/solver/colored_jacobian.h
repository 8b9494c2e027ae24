// Finite-difference Jacobian J = dF/dy + cj dF/dy' by column groups: columns
// that share no row are perturbed together (Curtis-Powell-Reid), so a
// Jacobian costs one residual per colour instead of one per state.
//
// The pattern is structural (each element couples its own states with the
// states of the nodes it touches, as the builder recorded them) united with a
// numerical one: the residual's dependencies found by perturbing each state at
// the initial point and at a few pseudo-random states around it (pressures x0.4..2.5, temperatures x0.8..1.25, others
// shifted), so that a flow which is choked (insensitive downstream) at the
// start still shows its coupling; the numerical part finds couplings through
// signals. A dependency neither finds would be missing from J: IDA's Newton
// iteration then converges slowly or fails, never to a different solution,
// and Simulation falls back to IDA's full difference quotient.
#pragma once

#include "solver/system.h"

#include <atomic>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace pm {

class ColoredJacobian {
 public:
  // `stop`, when given, is looked at before each sample of the pattern and
  // each colour group sampled: once set (from another thread: a modal
  // analysis's Cancel) the construction ends at once, and stopped() says
  // the pattern is incomplete and must not be used.
  ColoredJacobian(System& sys, double t, const double* y, const double* yp,
                  const std::atomic<bool>* stop = nullptr);
  bool stopped() const { return stopped_; }

  int colors() const { return static_cast<int>(groups_.size()); }
  // The columns of each colour (no two share a row of the pattern).
  const std::vector<std::vector<int>>& groups() const { return groups_; }
  // Every column its own colour and every entry in the pattern: IDA's plain
  // dense difference quotient.
  void makeDense();
  size_t nonZeros() const;
  const std::vector<int>& rowsOf(int column) const { return colRows_[column]; }
  // Fills column-major dense storage `J` (N x N, zeroed here). `ewt` are IDA's
  // error weights, `h` the current step; `r` the residual at (t, y, yp).
  // Returns the residual's status (0 ok, > 0 recoverable).
  int fill(double t, double cj, const double* y, const double* yp, const double* r, const double* ewt, double h,
           double* J);
  // The same into compressed-sparse-column storage with this pattern
  // (colPtr has N+1 entries, rowIdx and values nonZeros()).
  int fillSparse(double t, double cj, const double* y, const double* yp, const double* r, const double* ewt, double h,
                 long* colPtr, long* rowIdx, double* values);

  // dF/dy' on the pattern (y' perturbed alone, one residual per colour).
  // With it the last Jacobian filled serves another cj without a residual:
  // J + (cj' - cj) dF/dy', exact in cj when F is linear in y', as every
  // element writes it; only dF/dy is then as old as that fill.
  int fillMass(double t, double cj, const double* y, const double* yp, const double* r, const double* ewt, double h);
  bool hasMass() const { return !mass_.empty(); }
  void dropMass() { mass_.clear(); }
  void refill(double cj, double* J) const;
  void refillSparse(double cj, long* colPtr, long* rowIdx, double* values) const;

  // A second thread takes colours of every difference quotient, with a
  // System equal to this one (the same project; `discrete()` gives this
  // one's discrete state, System::saveDiscrete, which the task loads first).
  // `post` hands a task to that thread and returns at once; the task may run
  // late, then finds every colour taken and does nothing. The colours'
  // columns are the same whichever System evaluates them (a residual is a
  // function of t, y, y' and the discrete state), so J does not depend on
  // which thread took which colour.
  using Task = std::function<void(System&)>;
  void setAside(std::function<void(Task)> post, std::function<bool(std::vector<double>&)> discrete) {
    post_ = std::move(post);
    discrete_ = std::move(discrete);
  }

 private:
  void sampleGrouped(double t, std::vector<double>& y, std::vector<double>& yp, std::vector<std::set<int>>& cols);
  template <class Store>
  int difference(double t, double cj, const double* y, const double* yp, const double* r, const double* ewt, double h,
                 Store store, bool perturbY = true);
  void layout();
  bool stopRequested();
  System& sys_;
  const std::atomic<bool>* stop_ = nullptr;
  bool stopped_ = false;
  int n_;
  std::vector<std::vector<int>> colRows_;  // rows of each column
  std::vector<std::vector<int>> groups_;   // columns of each colour
  // Per column: a junction's pressure or temperature, perturbed by
  // sqrt(uround) |y| rather than IDA's 1 / ewt (rel_tol |y| + atol, 100 Pa at
  // rel_tol 1e-3 and 1 bar). That increment spans the laminar zone of every
  // flow at the junction (0.1 % of p, where the flow's slope changes threefold)
  // and the upwind switch of the enthalpy it carries, so where a flow
  // reverses the chord slopes misled Newton (seed 003 at rel_tol 1e-3 failed
  // at h = 3.6e-12 s). A junction's residuals are smooth sums of flows,
  // free of noise, and its states far from zero (absolute p and T): the plain
  // forward difference is accurate to ~1e-8 there.
  std::vector<char> fineIncrement_;
  void writePattern(long* colPtr, long* rowIdx) const;
  std::vector<double> y_, yp_, r1_;
  std::vector<size_t> start_;        // per column: first entry in the layouts below
  std::vector<double> last_, mass_;  // last fill and dF/dy', entries column by column
  double lastCj_ = 0.0;
  std::function<void(Task)> post_;
  std::function<bool(std::vector<double>&)> discrete_;
  std::vector<double> helperY_, helperYp_, helperR_;  // the other thread's scratch
};

}  // namespace pm
