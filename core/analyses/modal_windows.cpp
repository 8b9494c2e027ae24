#include "analyses/modal_windows.h"

#include "analyses/arnoldi_eigen.h"
#include "analyses/modal_analysis.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

namespace pm::modal {

namespace {

using Complex = std::complex<double>;
using Eigen::VectorXd;
using LU = Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>>;

// Windows opened after the first before falling back to the first one's
// growing iteration (which ends, at the latest, with the whole space).
constexpr int kMaxWindows = 12;
// A window stops once its converged leading Ritz values have not grown for
// this many checks (the checks are a third of the dimension apart).
constexpr int kStalledChecks = 2;
// A Ritz value this close to the real axis (|Im| / |lambda|) may be a
// window's shift: a real shift separates real eigenvalues only.
constexpr double kNearlyReal = 0.05;
// A window that found nothing ("probe") takes its leading Ritz value for
// the nearest eigenvalue, and the disk this much of the way to it for empty.
constexpr double kEmpty = 0.9;
// The next window opens this fraction of the way back from that estimate
// towards the probe: every step ten times nearer the accumulation, whose
// members it separates once it is nearer them than they are to each other.
// (Each probe's empty disk then reaches its successor's shift.)
constexpr double kApproach = 0.1;
// A disk's edge, widened by rounding: an eigenvalue on it belongs to it.
constexpr double kEdge = 1e-9;
// An unconverged Ritz value theta with residual r has an eigenvalue within
// r of it (Bauer-Fike, for a normal C; this factor for C's departure from
// it): |lambda - lambda_ritz| <= kNearby r / |theta|^2.
constexpr double kNearby = 10.0;
// The first window's unconverged Ritz values this close to a later
// window's shift (relative) stand for the accumulation that window
// resolves: at 80 elements they lay up to 5e-3 1/s (3e-6) off the
// eigenvalues, further than their residuals say.
constexpr double kAccumulation = 1e-2;

// Each complex pair once (Im >= 0), as the analysis counts modes.
bool upperHalf(Complex l) { return l.imag() >= -1e-9 * std::abs(l); }

// Whether the factorised A + s B is regular enough: |M| |M^-1 r| / |r| for
// two random r, a lower bound of the condition number, below 1e13 (the
// dense path's reciprocal condition 1e-13).
bool regularEnough(const SpMat& M, const LU& lu) {
  double norm = 0.0;
  for (int j = 0; j < M.outerSize(); ++j) {
    double column = 0.0;
    for (SpMat::InnerIterator it(M, j); it; ++it) column += std::abs(it.value());
    norm = std::max(norm, column);
  }
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  for (int k = 0; k < 2; ++k) {
    VectorXd r(M.rows());
    for (Eigen::Index i = 0; i < r.size(); ++i) r[i] = g(rng);
    const VectorXd x = lu.solve(r);
    if (!x.allFinite() || x.lpNorm<1>() * norm > 1e13 * r.lpNorm<1>()) return false;
  }
  return true;
}

// How far from the Ritz value k's lambda an eigenvalue it approximates may lie.
double nearby(const RitzValues& r, Eigen::Index k) {
  return kNearby * r.residual[k] / std::norm(r.theta[k]);
}

// One shift's operator C = (A + s B)^-1 B, its iteration and its disk.
struct Window {
  double shift = 0.0;
  std::shared_ptr<LU> lu;
  double radius = 0.0;  // every eigenvalue with |lambda - shift| <= radius is found
  ArnoldiResult ar;
  std::vector<Complex> lambda;  // of ar.theta
  bool probe = false;           // found none: its disk is one without eigenvalues
  Complex nearest;              // a probe's estimate of the nearest eigenvalue
  bool holds(Complex l, double around = 0.0) const {
    return std::abs(l - shift) + around <= radius * (1.0 + kEdge);
  }
  // Whether the first window's Ritz value l (give or take `around`) is one
  // this window accounts for.
  bool explains(Complex l, double around) const {
    return std::abs(l - shift) + around <= radius * (1.0 + kEdge) ||
           (!probe && std::abs(l - shift) <= kAccumulation * std::abs(shift));
  }
};

// A + s B factorised at the first of `shifts` where it is regular enough.
// `regular`: only where A + s B is regular enough (the first window; a
// later one is meant to sit next to an eigenvalue).
std::optional<Window> factorise(const SparsePencil& p, const std::vector<double>& shifts, int& factorisations,
                                bool regular, const std::atomic<bool>* cancel) {
  for (double s : shifts) {
    throwIfCancelled(cancel);
    SpMat M = p.A + s * p.B;
    M.makeCompressed();
    auto lu = std::make_shared<LU>();
    lu->compute(M);
    ++factorisations;
    if (lu->info() != Eigen::Success || (regular && !regularEnough(M, *lu))) continue;
    Window w;
    w.shift = s;
    w.lu = std::move(lu);
    return w;
  }
  return std::nullopt;
}

// The disk of a window's converged leading Ritz values, leaving out the
// pencil's infinite eigenvalues (theta ~ 0).
double radiusOf(const RitzValues& r, double shift) {
  const double big = r.theta.size() ? std::abs(r.theta[0]) : 0.0;
  const double infinite = kInfinite * std::max(big, 1.0 / std::max(std::abs(shift), 1.0));
  double radius = 0.0;
  for (int k = 0; k < r.leading; ++k)
    if (std::abs(r.theta[k]) > infinite) radius = 1.0 / std::abs(r.theta[k]);
  return radius;
}

class WindowedSolve {
 public:
  WindowedSolve(const SparsePencil& p, int count, double maxOmega, const std::atomic<bool>* cancel)
      : p_(p), n_(static_cast<int>(p.A.rows())), count_(count), maxOmega_(maxOmega), cancel_(cancel) {}

  Eigenpairs run();

 private:
  void iterate(Window& w, bool mayStall);
  // What the windows have found so far: the reach R and the eigenvalues
  // (window, index into its ar.theta) with |lambda| <= R.
  double reach() const;
  std::vector<std::pair<int, int>> found(double reach) const;
  int modesWithin(double reach) const;
  std::optional<double> nextShift() const;
  std::optional<std::pair<Complex, double>> unexplained() const;
  std::optional<double> openBelow(const Window& w) const;

  const SparsePencil& p_;
  int n_;
  int count_;
  double maxOmega_;
  const std::atomic<bool>* cancel_;
  std::vector<Window> windows_;
  int factorisations_ = 0, applications_ = 0, dimensions_ = 0;
};

// The windows' Ritz values (theta, converged) as the checks see them:
// iterate() keeps the first window's last view in windows_[0].ar.ritz.
void WindowedSolve::iterate(Window& w, bool mayStall) {
  const std::shared_ptr<LU> lu = w.lu;
  auto apply = [&](const VectorXd& x, VectorXd& y) { y = lu->solve(p_.B * x); };
  int lastLeading = -1, stalls = 0;
  const bool first = &w == &windows_.front();
  auto enough = [&](const RitzValues& r) {
    // The view so far serves reach() and found() meanwhile.
    w.radius = radiusOf(r, w.shift);
    w.ar.ritz = r;
    w.ar.theta = r.theta;
    w.ar.leading = r.leading;
    w.lambda.clear();
    for (Eigen::Index k = 0; k < r.theta.size(); ++k) w.lambda.push_back(w.shift - 1.0 / r.theta[k]);
    if (first) {
      // Its converged leading Ritz values alone decide.
      int modes = 0;
      const double reach = w.radius - std::abs(w.shift);
      for (int k = 0; k < r.leading; ++k) {
        const Complex l = w.shift - 1.0 / r.theta[k];
        if (1.0 / std::abs(r.theta[k]) <= w.radius && upperHalf(l) && std::abs(l) <= reach) ++modes;
      }
      if ((count_ > 0 && modes >= count_) || (maxOmega_ > 0 && reach >= maxOmega_)) return true;
    } else {
      const double R = reach();
      if ((count_ > 0 && modesWithin(R) >= count_) || (maxOmega_ > 0 && R >= maxOmega_)) return true;
    }
    stalls = r.leading == lastLeading ? stalls + 1 : 0;
    lastLeading = r.leading;
    if (!mayStall || stalls < kStalledChecks || r.leading >= r.dimension) return false;
    const Complex next = w.shift - 1.0 / r.theta[r.leading];
    return std::abs(next.imag()) <= kNearlyReal * std::abs(next);
  };
  ArnoldiOptions opt;
  // A later window finds a few of its nearest (it is given up on sooner).
  opt.firstCheck = first ? std::max(40, 3 * count_ + 20) : 40;
  opt.cancel = cancel_;
  w.ar = arnoldiLargest(n_, apply, enough, opt);
  if (w.ar.cancelled) throw ModalCancelled();
  applications_ += w.ar.applications;
  dimensions_ += w.ar.dimension;
  // A later window's space is "whole" only to rounding: next to its
  // shift |C| is large, and the far eigenvalues drop below its noise.
  w.radius = w.ar.complete && first ? INFINITY : radiusOf(w.ar.ritz, w.shift);
  // One that found nothing still tells where the nearest eigenvalue is: its
  // leading Ritz value (the iteration's first to settle).
  if (!first && w.ar.leading == 0 && w.ar.ritz.theta.size() > 0) {
    w.probe = true;
    w.nearest = w.shift - 1.0 / w.ar.ritz.theta[0];
    w.radius = kEmpty * std::abs(w.nearest - w.shift);
  }
  w.lambda.clear();
  for (Eigen::Index k = 0; k < w.ar.theta.size(); ++k) w.lambda.push_back(w.shift - 1.0 / w.ar.theta[k]);
}

// The first window's unconverged Ritz value that no later window accounts
// for (by its disk, or as the accumulation it sits in), with the least
// |lambda| less its uncertainty; with that uncertainty.
std::optional<std::pair<Complex, double>> WindowedSolve::unexplained() const {
  std::optional<std::pair<Complex, double>> out;
  const Window& w = windows_.front();
  const RitzValues& r = w.ar.ritz;
  for (Eigen::Index k = 0; k < r.theta.size(); ++k) {
    if (r.converged[k]) continue;
    const Complex l = w.shift - 1.0 / r.theta[k];
    const double near = nearby(r, k);
    if (std::any_of(windows_.begin() + 1, windows_.end(), [&](const Window& o) { return o.explains(l, near); })) continue;
    if (!out || std::abs(l) - near < std::abs(out->first) - out->second) out = std::make_pair(l, near);
  }
  return out;
}

// The point of a later window's disk on the real axis nearest 0 (its lower
// edge), if no other window's disk (nor the first's reach) holds it: the
// members of the accumulation below it are not known.
std::optional<double> WindowedSolve::openBelow(const Window& w) const {
  const double below = w.shift - std::copysign(w.radius, w.shift);
  if (std::abs(below) <= windows_.front().radius - std::abs(windows_.front().shift)) return std::nullopt;
  for (const Window& o : windows_)
    if (&o != &w && &o != &windows_.front() && o.holds(below)) return std::nullopt;
  return below;
}

double WindowedSolve::reach() const {
  const Window& first = windows_.front();
  if (first.ar.complete) return INFINITY;
  double R = INFINITY;
  for (size_t j = 1; j < windows_.size(); ++j) {
    if (windows_[j].probe) continue;
    R = std::min(R, std::abs(windows_[j].shift) + windows_[j].radius);
    if (const auto below = openBelow(windows_[j])) R = std::min(R, std::abs(*below));
  }
  if (const auto u = unexplained()) R = std::min(R, std::abs(u->first) - u->second);
  return std::min(R, first.radius > 0 && windows_.size() == 1 ? first.radius - std::abs(first.shift) : R);
}

std::vector<std::pair<int, int>> WindowedSolve::found(double reach) const {
  std::vector<std::pair<int, int>> out;
  const double big = windows_.front().ar.theta.size() ? std::abs(windows_.front().ar.theta[0]) : 0.0;
  const double infinite = kInfinite * std::max(big, 1.0 / std::max(std::abs(windows_.front().shift), 1.0));
  for (size_t j = 1; j <= windows_.size(); ++j) {
    const size_t i = j % windows_.size();  // the later windows first, the first one last
    const Window& w = windows_[i];
    for (size_t k = 0; k < w.lambda.size(); ++k) {
      const Complex l = w.lambda[k];
      if (std::abs(l) > reach) continue;
      if (i == 0 && std::abs(w.ar.theta[static_cast<long>(k)]) <= infinite) continue;
      if (i > 0 && (static_cast<int>(k) >= w.ar.leading || !w.holds(l))) continue;
      // Taken from an earlier window (in this order) whose disk holds it.
      bool earlier = false;
      for (size_t q = 1; q < j; ++q) earlier = earlier || windows_[q % windows_.size()].holds(l);
      if (!earlier) out.emplace_back(static_cast<int>(i), static_cast<int>(k));
    }
  }
  return out;
}

int WindowedSolve::modesWithin(double reach) const {
  int modes = 0;
  for (const auto& [i, k] : found(reach)) modes += upperHalf(windows_[i].lambda[k]) ? 1 : 0;
  return modes;
}

// Where the next window opens. After a probe: kApproach of the way back
// from its estimate of the nearest eigenvalue (the first window's Ritz
// values place an accumulation only roughly: 22 1/s below it once at 80
// elements, so from there its members are inseparable; each probe's
// estimate is better, and the chain of empty disks certifies the way up
// to it). Else below a window whose disk's lower edge nothing else holds,
// else at the first window's unexplained Ritz value, if nearly real.
std::optional<double> WindowedSolve::nextShift() const {
  std::optional<double> next;
  const Window& last = windows_.back();
  if (windows_.size() > 1 && last.probe) {
    const Complex e = last.nearest;
    if (std::abs(e.imag()) > kNearlyReal * std::abs(e)) return std::nullopt;
    next = e.real() + kApproach * (last.shift - e.real());
  } else {
    for (size_t j = 1; j < windows_.size() && !next; ++j)
      if (!windows_[j].probe)
        if (const auto below = openBelow(windows_[j])) next = *below - kApproach * windows_[j].radius * std::copysign(1.0, *below);
    if (!next) {
      const auto u = unexplained();
      if (!u || std::abs(u->first.imag()) > kNearlyReal * std::abs(u->first)) return std::nullopt;
      next = u->first.real();
    }
  }
  for (const Window& w : windows_)
    if (std::abs(*next - w.shift) <= 1e-12 * std::abs(w.shift)) return std::nullopt;
  return next;
}

Eigenpairs WindowedSolve::run() {
  std::optional<Window> first = factorise(p_, std::vector<double>(std::begin(kShifts), std::end(kShifts)),
                                          factorisations_, true, cancel_);
  if (!first)
    throw std::runtime_error("the linearised system is singular at every shift tried (a state the equations do not fix)");
  windows_.push_back(std::move(*first));
  iterate(windows_.front(), true);
  auto satisfied = [&] {
    const double R = reach();
    return windows_.front().ar.complete || (count_ > 0 && modesWithin(R) >= count_) || (maxOmega_ > 0 && R >= maxOmega_);
  };
  for (int opened = 0; !satisfied() && opened < kMaxWindows; ++opened) {
    const std::optional<double> c = nextShift();
    if (!c) break;
    std::optional<Window> w = factorise(p_, {*c, *c * (1 + 1e-12), *c * (1 - 1e-12)}, factorisations_, false, cancel_);
    if (!w) break;
    windows_.push_back(std::move(*w));
    iterate(windows_.back(), true);
  }
  if (!satisfied()) {  // the windows did not do: the first one's space grown until enough
    windows_.resize(1);
    iterate(windows_.front(), false);
  }
  Eigenpairs out;
  out.shift = windows_.front().shift;
  out.infinite = -1;
  out.krylovDimension = dimensions_;
  out.applications = applications_;
  out.factorisations = factorisations_;
  for (const Window& w : windows_) out.windows.push_back(w.shift);
  {
    // |C|_F estimated from C r of a random r (E |C r|^2 = |C|_F^2 |r|^2 / n).
    std::mt19937 rng(11);
    std::normal_distribution<double> g;
    VectorXd r(n_);
    for (int i = 0; i < n_; ++i) r[i] = g(rng);
    out.operatorNorm = VectorXd(windows_.front().lu->solve(p_.B * r)).norm() / r.norm() * std::sqrt(double(n_));
  }
  out.reach = reach();
  const std::vector<std::pair<int, int>> keep = found(out.reach);
  out.lambda.resize(static_cast<long>(keep.size()));
  out.z.resize(n_, static_cast<long>(keep.size()));
  VectorXd re(n_), im(n_);
  for (size_t i = 0; i < keep.size(); ++i) {
    const Window& w = windows_[keep[i].first];
    const Complex th = w.ar.theta[keep[i].second];
    out.lambda[static_cast<long>(i)] = w.lambda[keep[i].second];
    // One more product purifies the Ritz vector of what rounding left of
    // the infinite eigenvalues' directions.
    const Eigen::VectorXcd& x = w.ar.vectors.col(keep[i].second);
    re = w.lu->solve(p_.B * x.real());
    im = w.lu->solve(p_.B * x.imag());
    out.z.col(static_cast<long>(i)) = (re.cast<Complex>() + Complex(0, 1) * im.cast<Complex>()) / th;
  }
  return out;
}

}  // namespace

Eigenpairs solveSparse(const SparsePencil& p, int count, double maxOmega, const std::atomic<bool>* cancel) {
  return WindowedSolve(p, count, maxOmega, cancel).run();
}

}  // namespace pm::modal
