#include "analyses/modal_analysis.h"

#include "analyses/modal_oscillating.h"
#include "analyses/modal_pencil.h"
#include "analyses/modal_windows.h"
#include "analyses/simulation.h"
#include "mechanics/minimum_norm.h"
#include "solver/result_store.h"
#include "model/message_text.h"
#include "model/project_error.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseQR>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <sstream>

namespace pm {

namespace {

using Complex = std::complex<double>;
using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kTwoPi = 2.0 * std::numbers::pi;
// Above this many states the modal analysis is sparse unless told otherwise.
constexpr int kDenseUpTo = 400;
// The sparse path's modes when neither a count nor a frequency limit is given.
constexpr int kDefaultSparseModes = 30;
// Asked of the sparse solver beyond the modes wanted: a rigid pair that
// rounding split into two real eigenvalues counts as one zero mode.
constexpr int kSplitPairs = 6;

// The residual at (t, y, y' = 0), its rows divided by `rows`.
VectorXd staticResidual(System& sys, double t, const std::vector<double>& y, const VectorXd& rows, bool& ok) {
  const int n = sys.size();
  std::vector<double> yp(n, 0.0), r(n);
  ok = sys.residual(t, y.data(), yp.data(), r.data()) == 0;
  VectorXd f = Eigen::Map<VectorXd>(r.data(), n).cwiseQuotient(rows);
  if (!ok || !f.allFinite()) ok = false;
  return f;
}

// The rank of a sparse matrix (column-pivoted sparse QR).
int sparseRank(const modal::SpMat& A) {
  Eigen::SparseQR<modal::SpMat, Eigen::COLAMDOrdering<int>> qr;
  qr.setPivotThreshold(1e-12);
  qr.compute(A);
  return qr.info() == Eigen::Success ? static_cast<int>(qr.rank()) : static_cast<int>(A.cols());
}

// Newton on F(t, y, 0) = 0 from y: steps of least norm in the scaled
// states (a direction the equations leave free stays where it was), halved
// until the scaled residual falls. Sparse: the step by a sparse LU where
// the Jacobian is regular, else the sparse QR's minimum norm.
std::vector<double> staticEquilibrium(System& sys, double t, std::vector<double> y, double relTol, bool sparse,
                                      std::vector<std::string>& notes, const std::atomic<bool>* cancel) {
  const int n = sys.size();
  const std::vector<double> zero(n, 0.0);
  double worst = INFINITY;
  for (int it = 0; it < 60; ++it) {
    VectorXd rows;
    const VectorXd d = modal::stateScales(sys, y, relTol);
    modal::Pencil dense;
    modal::SparsePencil thin;
    if (sparse) thin = modal::lineariseSparse(sys, t, y, zero, d, false, &rows, modal::kStep, nullptr, cancel);
    else dense = modal::linearise(sys, t, y, zero, d, false, &rows, modal::kStep, nullptr, cancel);
    bool ok = false;
    const VectorXd f = staticResidual(sys, t, y, rows, ok);
    if (!ok) throw std::runtime_error("the residual cannot be evaluated on the way to the static equilibrium");
    worst = f.cwiseAbs().maxCoeff();
    if (worst < 1e-11) {
      // Rank and step: factorisations (dense: n^3) a cancel need not wait for.
      const int rank = sparse ? modal::leavable([A = thin.A] { return sparseRank(A); }, cancel)
                              : modal::leavable([A = dense.A] { return int(A.completeOrthogonalDecomposition().rank()); }, cancel);
      if (rank < n)
        notes.push_back("the static equilibrium is not unique (" + std::to_string(n - rank) +
                        " free directions: a free part, a closed chamber's gas): the one nearest the start is used");
      notes.push_back("static equilibrium after " + std::to_string(it) + " Newton steps");
      return y;
    }
    const VectorXd dz =
        sparse ? modal::leavable([A = thin.A, f] { return mb::minimumNormSquare(A, -f); }, cancel)
               : modal::leavable([A = dense.A, f] { return VectorXd(A.completeOrthogonalDecomposition().solve(-f)); }, cancel);
    double step = 1.0;
    std::vector<double> trial(n);
    for (; step > 1e-4; step /= 2) {
      for (int j = 0; j < n; ++j) trial[j] = y[j] + step * d[j] * dz[j];
      const VectorXd ft = staticResidual(sys, t, trial, rows, ok);
      if (ok && ft.norm() < (1.0 - 1e-4 * step) * f.norm()) break;
    }
    if (!(step > 1e-4)) break;
    y = trial;
  }
  throw std::runtime_error("no static equilibrium found (largest scaled residual " + numberText(worst) +
                           "): a motion driven at a rate, or a force nothing balances, has none");
}

// Beam node bodies ("arm_n3") count for their beam ("arm").
std::string objectName(const std::string& object, const std::vector<std::string>& beams) {
  for (const auto& b : beams)
    if (object.size() > b.size() + 2 && object.rfind(b + "_n", 0) == 0 &&
        std::all_of(object.begin() + static_cast<long>(b.size()) + 2, object.end(), ::isdigit))
      return b;
  return object;
}

std::vector<ModeShare> sharesOf(System& sys, const Eigen::VectorXcd& z, const std::vector<std::string>& beams) {
  std::map<std::string, double> by;
  double all = 0.0;
  for (int j = 0; j < sys.size(); ++j) {
    if (sys.states()[j].kind != StateKind::Differential) continue;
    const double e = std::norm(z[j]);
    by[objectName(sys.stateObject(j), beams)] += e;
    all += e;
  }
  std::vector<ModeShare> out;
  for (const auto& [o, e] : by)
    if (all > 0 && e / all >= 0.01) out.push_back({o, e / all});
  std::sort(out.begin(), out.end(), [](const ModeShare& a, const ModeShare& b) { return a.share > b.share; });
  return out;
}

// The outputs linearised along the mode: d(out) = (out(y + h v) - out(y - h v)) / 2h
// for the real and the imaginary part of v (and of lambda v for y').
std::vector<ChannelAmplitude> channelShape(System& sys, double t, const std::vector<double>& y,
                                           const std::vector<double>& yp, const Eigen::VectorXcd& v, Complex lambda,
                                           const VectorXd& d) {
  const int n = sys.size();
  const size_t nc = sys.channels().size();
  std::vector<double> yy(n), yyp(n), hi(nc), lo(nc);
  std::vector<Complex> amp(nc);
  double size = 0.0;
  for (int j = 0; j < n; ++j) size = std::max(size, std::abs(v[j]) / d[j]);
  const double h = 1e-6 / std::max(size, 1e-300);
  for (int part = 0; part < 2; ++part) {
    auto side = [&](double s, std::vector<double>& row) {
      for (int j = 0; j < n; ++j) {
        const Complex dv = v[j], dvp = lambda * v[j];
        yy[j] = y[j] + s * h * (part == 0 ? dv.real() : dv.imag());
        yyp[j] = yp[j] + s * h * (part == 0 ? dvp.real() : dvp.imag());
      }
      sys.outputs(t, yy.data(), yyp.data(), row.data());
    };
    side(1.0, hi);
    side(-1.0, lo);
    for (size_t c = 0; c < nc; ++c) {
      const double g = (hi[c] - lo[c]) / (2 * h);
      amp[c] += part == 0 ? Complex(g, 0.0) : Complex(0.0, g);
    }
  }
  std::vector<ChannelAmplitude> out;
  for (size_t c = 0; c < nc; ++c) {
    // Noise of the quotient: a channel that does not move in the mode is left out.
    if (!(std::abs(amp[c]) * h > 1e-10 * std::abs(hi[c]))) continue;
    out.push_back({sys.channels()[c].name, sys.channels()[c].unit, std::abs(amp[c]), std::arg(amp[c])});
  }
  return out;
}

// Scaled so the largest scaled state is 1 at phase 0.
Eigen::VectorXcd normalised(const Eigen::VectorXcd& z) {
  Eigen::Index k = 0;
  z.cwiseAbs().maxCoeff(&k);
  return z / z[k];
}

std::vector<std::string> beamIds(const Project& pr) {
  std::vector<std::string> ids;
  for (const auto& b : pr.mechanism.flexible_bodies) ids.push_back(b.id);
  return ids;
}

// The eigensolver's rounding (backward error eps |C| on C = (A + s B)^-1 B)
// splits a defective theta = 1/s by sqrt(eps |C| / s), lambda = s - 1/theta
// by s^2 times that: up to 10 times it a mode is that split.
double solverZero(const modal::Eigenpairs& ep) {
  return 10.0 * ep.shift * ep.shift * std::sqrt(2.2e-16 * ep.operatorNorm / ep.shift);
}

// The largest |lambda| among the eigenvalues taken for zero modes.
double zeroSize(const modal::Eigenpairs& ep) {
  double most = 0.0;
  for (const Eigen::Index k : ep.zeros.members) most = std::max(most, std::abs(ep.lambda[k]));
  return most;
}

// What the sparse solver did, for the result's notes.
std::string sparseNote(const modal::Eigenpairs& ep, int n, bool oscillatingOnly, size_t modes) {
  std::ostringstream o;
  if (oscillatingOnly) {
    o << "sparse solver (" << n << " states), oscillating modes only: every one with damping ratio up to "
      << modal::kCoveredZeta << " between " << numberText(modal::kLowestOmega / std::sqrt(2.0) / kTwoPi) << " and "
      << numberText(ep.reach / kTwoPi) << " Hz, by shift-invert Arnoldi at " << ep.windows.size()
      << " shifts on the imaginary axis (" << ep.applications << " products, Krylov dimension up to "
      << ep.krylovDimension << ")";
    return o.str();
  }
  o << "sparse solver (" << n << " states): the lowest " << modes << " modes, by shift-invert Arnoldi (Krylov dimension "
    << ep.krylovDimension << ", " << ep.applications << " products, " << ep.factorisations << " factorisation"
    << (ep.factorisations > 1 ? "s" : "") << "; " << ep.windows.size() << " window" << (ep.windows.size() > 1 ? "s" : "")
    << " at shifts";
  for (double s : ep.windows) o << " " << numberText(s);
  o << " 1/s)";
  return o.str();
}

Mode makeMode(Complex lambda) {
  Mode m;
  m.lambda = lambda;
  const double w = std::abs(lambda);
  m.naturalFrequency = w / kTwoPi;
  // A double real root splits into a pair under rounding (Im ~ sqrt(eps)
  // |lambda|): a damping ratio within 1e-3 of critical is no oscillation.
  m.oscillating = lambda.imag() > 0.045 * w;
  m.frequency = m.oscillating ? lambda.imag() / kTwoPi : 0.0;
  m.dampingRatio = w > 0 ? -lambda.real() / w : 0.0;
  return m;
}

}  // namespace

ModalResult runModalAnalysis(const Project& project, const std::string& file, const ModalOptions& options) {
  return runModalAnalysis(project, file, options, BuildOptions{});
}

ModalResult runModalAnalysis(const Project& project, const std::string& file, const ModalOptions& options,
                             const BuildOptions& build) {
  if (!(options.at >= 0.0) || !std::isfinite(options.at))
    throw ProjectError("--at", numberText(options.at), "", "the operating point's time must be 0 or positive");
  if (options.at > 0.0 && options.at < project.simulation.output_interval * 1e-6)
    throw ProjectError("--at", numberText(options.at), "", "is shorter than the output interval allows");
  // One DAE: the co-simulation's two sides are linearised together.
  Project pr = project;
  pr.simulation.coupling = "monolithic";
  // Absolute coordinates: the reduced formulation's expansion is a Newton
  // solve (and a table for one degree of freedom), too noisy to difference.
  pr.simulation.mechanism_formulation = "absolute";
  Simulation sim(pr, file, build);
  sim.setEndTime(options.at);
  sim.setOutputRows(OutputRows::Solver);
  ResultStore rows;
  const std::atomic<bool>* cancel = options.cancel;
  auto checkCancel = [&] { modal::throwIfCancelled(cancel); };
  auto stage = [&](ModalStage s) {
    checkCancel();
    if (options.onStage) options.onStage(s);
  };
  stage(ModalStage::Run);
  const RunResult run = sim.run(rows, cancel);
  checkCancel();
  if (!run.ok() || run.yEnd.empty())
    throw std::runtime_error("the run to the operating point (t = " + numberText(options.at) +
                             " s) failed: " + run.message);
  System& sys = sim.system();
  ModalResult res;
  res.t = run.stats.tReached;
  for (const auto& s : sys.states()) res.states.push_back(s.name), res.stateUnits.push_back(s.unit);
  const int n = sys.size();
  const bool sparse = options.solver == ModalSolver::Sparse || (options.solver == ModalSolver::Auto && n > kDenseUpTo);
  res.solver = sparse ? "sparse" : "dense";
  std::vector<double> y = run.yEnd, yp = run.ypEnd;
  if (options.staticEquilibrium) {
    stage(ModalStage::StaticEquilibrium);
    y = staticEquilibrium(sys, res.t, y, pr.simulation.rel_tol, sparse, res.notes, cancel);
    yp.assign(yp.size(), 0.0);
    res.staticEquilibrium = true;
  }
  res.y = y;
  res.channels = sys.channels();
  res.outputs.assign(res.channels.size(), 0.0);
  sys.outputs(res.t, y.data(), yp.data(), res.outputs.data());
  const VectorXd d = modal::stateScales(sys, y, pr.simulation.rel_tol);
  // The sparse path finds the lowest modes only: as many as asked, else
  // those below the frequency limit, else kDefaultSparseModes.
  // A rigid pair split into two real eigenvalues is one zero mode: a few
  // more for those.
  const int wanted = options.modes > 0 ? options.modes : options.maxOmega > 0 ? 0 : kDefaultSparseModes;
  modal::Eigenpairs ep;
  VectorXd rowScale;
  if (sparse) {
    stage(ModalStage::Linearise);
    const modal::SparsePencil p = modal::lineariseSparse(sys, res.t, y, yp, d, true, &rowScale, modal::kStep, nullptr, cancel);
    stage(ModalStage::Eigensolve);
    ep = options.oscillatingOnly ? modal::solveOscillating(p, wanted, options.maxOmega, cancel)
                                 : modal::solveSparse(p, wanted > 0 ? wanted + kSplitPairs : 0, options.maxOmega, cancel);
    stage(ModalStage::Modes);
    // A again at twice the step: the difference is A's error (zero_modes.h).
    const modal::SpMat E =
        (p.A - modal::lineariseSparse(sys, res.t, y, yp, d, false, nullptr, 2 * modal::kStep, &rowScale, cancel).A)
            .cwiseAbs();
    ep.zeros = modal::findZeroModes(ep.lambda, ep.z,
                                    {[&](const MatrixXd& x) { return MatrixXd(p.A * x); },
                                     [&](const MatrixXd& x) { return MatrixXd(E * x); }, p.A.norm(),
                                     solverZero(ep)});
  } else {
    stage(ModalStage::Linearise);
    const modal::Pencil p = modal::linearise(sys, res.t, y, yp, d, true, &rowScale, modal::kStep, nullptr, cancel);
    stage(ModalStage::Eigensolve);
    ep = modal::solveDense(p, cancel);
    stage(ModalStage::Modes);
    const MatrixXd E =
        (p.A - modal::linearise(sys, res.t, y, yp, d, false, nullptr, 2 * modal::kStep, &rowScale, cancel).A)
            .cwiseAbs();
    ep.zeros = modal::findZeroModes(ep.lambda, ep.z,
                                    {[&](const MatrixXd& x) { return MatrixXd(p.A * x); },
                                     [&](const MatrixXd& x) { return MatrixXd(E * x); }, p.A.norm(),
                                     solverZero(ep)});
  }
  res.shift = ep.shift;
  res.infinite = ep.infinite;
  res.krylovDimension = ep.krylovDimension;
  res.factorisations = ep.factorisations;
  res.applications = ep.applications;
  const std::vector<std::string> beams = beamIds(pr);
  const std::vector<Eigen::Index>& zeroMembers = ep.zeros.members;
  std::vector<int> order;
  for (int k = 0; k < ep.lambda.size(); ++k) {
    const Complex l = ep.lambda[k];
    if (l.imag() < -1e-9 * std::abs(l)) continue;  // the pair's other half
    if (std::find(zeroMembers.begin(), zeroMembers.end(), k) != zeroMembers.end()) continue;
    if (options.oscillatingOnly && !makeMode(l).oscillating) continue;
    if (options.maxOmega > 0 && std::abs(l) > options.maxOmega) {
      ++res.aboveLimit;
      continue;
    }
    order.push_back(k);
  }
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return std::abs(ep.lambda[a]) < std::abs(ep.lambda[b]); });
  const int keep = options.modes > 0 ? options.modes : sparse && options.maxOmega <= 0 ? kDefaultSparseModes : 0;
  const int zeros = options.oscillatingOnly ? 0 : static_cast<int>(ep.zeros.directions.cols());
  res.zeroModes = keep > 0 ? std::min(zeros, keep) : zeros;
  for (int k = 0; k < res.zeroModes; ++k) {
    Mode m = makeMode(0.0);
    m.zero = true;
    const Eigen::VectorXcd z = normalised(ep.zeros.directions.col(k).cast<Complex>());
    m.shares = sharesOf(sys, z, beams);
    const Eigen::VectorXcd v = d.cast<Complex>().cwiseProduct(z);
    m.shape.assign(v.data(), v.data() + v.size());
    res.modes.push_back(std::move(m));
  }
  if (keep > 0 && static_cast<int>(order.size()) > keep - res.zeroModes) order.resize(keep - res.zeroModes);
  if (zeros > 0) {
    std::ostringstream o;
    o << zeros << " zero mode" << (zeros > 1 ? "s" : "") << " (rigid-body motions, integrators): "
      << ep.zeros.members.size() << " eigenvalues below " << numberText(zeroSize(ep)) << " 1/s whose span holds "
      << zeros << " null direction" << (zeros > 1 ? "s" : "") << " of the linearisation (backward error up to "
      << numberText(ep.zeros.worst) << "; the eigensolver's own split reaches " << numberText(solverZero(ep))
      << " 1/s)";
    res.notes.push_back(o.str());
  }
  if (sparse) res.notes.push_back(sparseNote(ep, n, options.oscillatingOnly, order.size() + res.zeroModes));
  for (int k : order) {
    checkCancel();
    Mode m = makeMode(ep.lambda[k]);
    const Eigen::VectorXcd z = normalised(ep.z.col(k));
    m.shares = sharesOf(sys, z, beams);
    const Eigen::VectorXcd v = d.cast<Complex>().cwiseProduct(z);
    m.shape.assign(v.data(), v.data() + v.size());
    if (m.oscillating) m.channels = channelShape(sys, res.t, y, yp, v, m.lambda, d);
    res.modes.push_back(std::move(m));
  }
  return res;
}

// ---- presentation ---------------------------------------------------------

namespace {

std::string sharesText(const Mode& m) {
  std::ostringstream o;
  for (size_t i = 0; i < m.shares.size() && i < 4; ++i)
    o << (i ? " " : "") << m.shares[i].object << " " << std::lround(100 * m.shares[i].share) << "%";
  return o.str();
}

const char* kindOf(const Mode& m) {
  if (m.zero) return "zero";
  if (m.oscillating) return "oscillating";
  if (std::abs(m.lambda) == 0.0 || std::abs(m.lambda.real()) < 1e-9) return "static";
  return m.lambda.real() < 0 ? "decaying" : "growing";
}

}  // namespace

std::string ModalResult::tableCsv() const {
  std::ostringstream o;
  o.precision(10);
  o << "mode,frequency [Hz],natural frequency [Hz],damping ratio,re lambda [1/s],im lambda [1/s],kind,objects\n";
  for (size_t i = 0; i < modes.size(); ++i) {
    const Mode& m = modes[i];
    o << i + 1 << "," << m.frequency << "," << m.naturalFrequency << "," << m.dampingRatio << "," << m.lambda.real()
      << "," << m.lambda.imag() << "," << kindOf(m) << ",\"" << sharesText(m) << "\"\n";
  }
  return o.str();
}

std::string ModalResult::json() const {
  nlohmann::json j;
  j["t"] = t;
  j["operating_point"] = staticEquilibrium ? "static equilibrium" : "run";
  j["shift"] = shift;
  j["solver"] = solver;
  if (infinite >= 0) j["infinite_eigenvalues"] = infinite;
  j["zero_modes"] = zeroModes;
  j["above_limit"] = aboveLimit;
  j["notes"] = notes;
  j["states"] = states;
  nlohmann::json ms = nlohmann::json::array();
  for (size_t i = 0; i < modes.size(); ++i) {
    const Mode& m = modes[i];
    nlohmann::json x;
    x["mode"] = i + 1;
    x["frequency"] = m.frequency;
    x["natural_frequency"] = m.naturalFrequency;
    x["damping_ratio"] = m.dampingRatio;
    x["lambda"] = {m.lambda.real(), m.lambda.imag()};
    x["kind"] = kindOf(m);
    for (const auto& s : m.shares) x["shares"][s.object] = s.share;
    if (m.oscillating) {
      nlohmann::json sh = nlohmann::json::object();
      for (size_t k = 0; k < m.shape.size(); ++k)
        if (std::abs(m.shape[k]) > 0) sh[states[k]] = {std::abs(m.shape[k]), std::arg(m.shape[k])};
      x["shape"] = sh;
      for (const auto& c : m.channels) x["channels"][c.channel] = {{"amplitude", c.amplitude}, {"phase", c.phase}, {"unit", c.unit}};
    }
    ms.push_back(std::move(x));
  }
  j["modes"] = ms;
  return j.dump(2) + "\n";
}

std::string ModalResult::text(int maxModes) const {
  std::ostringstream o;
  o << "Modes of the linearised system at " << (staticEquilibrium ? "the static equilibrium, inputs of " : "")
    << "t = " << t << " s: " << modes.size() << " finite (";
  if (infinite >= 0) o << infinite << " infinite eigenvalues of the algebraic equations";
  else o << "the lowest, from the sparse solver";
  if (aboveLimit) o << ", " << aboveLimit << " above the frequency limit";
  o << ")\n";
  o << "  mode   frequency [Hz]   damping ratio   objects\n";
  int shown = 0;
  for (size_t i = 0; i < modes.size() && shown < maxModes; ++i) {
    const Mode& m = modes[i];
    if (!m.oscillating) continue;
    char line[128];
    std::snprintf(line, sizeof line, "  %4zu   %14.6g   %13.4g   ", i + 1, m.frequency, m.dampingRatio);
    o << line << sharesText(m) << "\n";
    ++shown;
  }
  if (zeroModes > 0) {
    o << "  " << zeroModes << " zero mode" << (zeroModes > 1 ? "s" : "") << " (rigid-body motions, integrators):";
    for (const Mode& m : modes)
      if (m.zero) o << " [" << sharesText(m) << "]";
    o << "\n";
  }
  const long real =
      std::count_if(modes.begin(), modes.end(), [](const Mode& m) { return !m.oscillating && !m.zero; });
  o << "  (" << real << " non-oscillating modes: see the CSV or JSON)\n";
  for (const auto& n : notes) o << "note: " << n << "\n";
  return o.str();
}

}  // namespace pm
