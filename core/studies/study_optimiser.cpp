#include "studies/study_optimiser.h"

#include "model/project_error.h"

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace pm::studies {

namespace {

struct Problem {
  const StudySetup& setup;
  Evaluator& evaluator;
  OptimisationResult& out;
  double sign = 1.0;          // -1 to maximise
  double failedObjective = 0; // what a failed variant scores (worse than any seen)
  bool penalty = false;       // constraints folded into the objective
};

double objectiveOf(const Problem& pb, size_t i) {
  const double v = variantValue(pb.setup, pb.out.points[i], pb.out.results[i], pb.setup.study.optimisation.objective);
  return pb.out.results[i].ok && std::isfinite(v) ? pb.sign * v : std::numeric_limits<double>::quiet_NaN();
}

// Constraint k as g <= 0, scaled by its bound; NaN (undefined, failed) is violated by 1.
double violation(const Problem& pb, size_t i, const Constraint& c) {
  const double v = variantValue(pb.setup, pb.out.points[i], pb.out.results[i], c.result);
  if (!pb.out.results[i].ok || !std::isfinite(v)) return 1.0;
  const double scale = std::max(std::abs(c.bound), 1e-12);
  return (c.upper ? v - c.bound : c.bound - v) / scale;
}

double totalViolation(const Problem& pb, size_t i) {
  double s = 0.0;
  for (const Constraint& c : pb.setup.study.constraints) s += std::max(0.0, violation(pb, i, c));
  return s;
}

// Evaluates x (memoised: COBYLA asks for the objective and then each
// constraint at the same point) and returns its index.
size_t evaluateAt(Problem& pb, const double* x) {
  const size_t n = pb.setup.study.parameters.size();
  if (!pb.out.points.empty() && std::equal(x, x + n, pb.out.points.back().begin())) return pb.out.points.size() - 1;
  std::vector<double> p(x, x + n);
  std::vector<VariantResult> r = pb.evaluator.evaluate({p});
  pb.out.points.push_back(p);
  pb.out.results.push_back(std::move(r.at(0)));
  return pb.out.points.size() - 1;
}

double nloptObjective(unsigned, const double* x, double*, void* data) {
  Problem& pb = *static_cast<Problem*>(data);
  const size_t i = evaluateAt(pb, x);
  double f = objectiveOf(pb, i);
  if (std::isnan(f)) return pb.failedObjective;
  if (pb.penalty) {
    const double v = totalViolation(pb, i);
    if (v > 0.0) f = std::max(f, pb.failedObjective * 0.5) + std::abs(pb.failedObjective) * v;
  }
  return f;
}

struct ConstraintData {
  Problem* pb;
  const Constraint* c;
};

double nloptConstraint(unsigned, const double* x, double*, void* data) {
  const ConstraintData& cd = *static_cast<ConstraintData*>(data);
  return violation(*cd.pb, evaluateAt(*cd.pb, x), *cd.c);
}

// Index of the best: feasible with the least objective, else the least violation.
size_t bestOf(const Problem& pb, bool& feasible) {
  size_t best = 0;
  feasible = false;
  double bestF = 0.0, bestV = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < pb.out.points.size(); ++i) {
    const double f = objectiveOf(pb, i);
    if (pb.out.results[i].feasible && std::isfinite(f)) {
      if (!feasible || f < bestF) best = i, bestF = f, feasible = true;
    } else if (!feasible) {
      const double v = totalViolation(pb, i);
      if (v < bestV) best = i, bestV = v;
    }
  }
  return best;
}

const char* statusText(nlopt_result r) {
  switch (r) {
    case NLOPT_SUCCESS: return "converged";
    case NLOPT_STOPVAL_REACHED: return "stop value reached";
    case NLOPT_FTOL_REACHED: return "objective tolerance reached";
    case NLOPT_XTOL_REACHED: return "parameter tolerance reached";
    case NLOPT_MAXEVAL_REACHED: return "evaluation limit reached";
    case NLOPT_MAXTIME_REACHED: return "time limit reached";
    case NLOPT_ROUNDOFF_LIMITED: return "round-off limited";
    case NLOPT_FORCED_STOP: return "stopped";
    case NLOPT_OUT_OF_MEMORY: return "out of memory";
    case NLOPT_INVALID_ARGS: return "invalid arguments";
    default: return "failed";
  }
}

// i is better than j: feasible before infeasible, then the lower objective;
// among infeasible ones the smaller violation.
bool better(const Problem& pb, size_t i, size_t j) {
  const double fi = objectiveOf(pb, i), fj = objectiveOf(pb, j);
  const bool oi = pb.out.results[i].feasible && std::isfinite(fi), oj = pb.out.results[j].feasible && std::isfinite(fj);
  if (oi != oj) return oi;
  if (oi) return fi < fj;
  return totalViolation(pb, i) < totalViolation(pb, j);
}

// A point of the pattern search: an index into each list (values, parts)
// and a value in each range.
struct Lattice {
  const StudyDefinition& st;
  std::vector<std::vector<double>> lists;  // per parameter: its sorted values (empty: a range)
  std::vector<double> toPoint(const std::vector<double>& z) const {
    std::vector<double> x(z.size());
    for (size_t k = 0; k < z.size(); ++k) x[k] = lists[k].empty() ? z[k] : lists[k][static_cast<size_t>(z[k])];
    return x;
  }
};

// Compass search over discrete and continuous parameters: from the middle
// (each list's middle entry, each range's midpoint) it evaluates the 2n
// neighbours (one list entry either way, a range's value +- its step) as
// one parallel batch and moves to the best one if it is better; with none
// better the ranges' steps halve, and the search ends when none is above
// its tolerance (lists alone: at the first point without a better neighbour).
void patternSearch(Problem& pb) {
  const StudyDefinition& st = pb.setup.study;
  const size_t n = st.parameters.size();
  Lattice lat{st, std::vector<std::vector<double>>(n)};
  std::vector<double> z(n), step(n), tol(n);
  for (size_t k = 0; k < n; ++k) {
    const StudyParameter& p = st.parameters[k];
    if (!p.isRange) {
      lat.lists[k] = p.values;
      if (p.parts.empty()) std::sort(lat.lists[k].begin(), lat.lists[k].end());
      z[k] = std::floor(static_cast<double>(lat.lists[k].size() - 1) / 2.0);
      step[k] = 1.0;
    } else {
      z[k] = 0.5 * (p.from + p.to);
      step[k] = (p.to - p.from) / 4.0;
      tol[k] = st.optimisation.xtolRelative * (p.to - p.from);
    }
  }
  std::map<std::vector<double>, size_t> seen;  // lattice point -> evaluation
  auto evaluateBatch = [&](const std::vector<std::vector<double>>& zs) {
    std::vector<std::vector<double>> fresh, xs;
    for (const auto& q : zs)
      if (!seen.count(q) && std::find(fresh.begin(), fresh.end(), q) == fresh.end()) fresh.push_back(q);
    for (const auto& q : fresh) xs.push_back(lat.toPoint(q));
    if (xs.empty()) return;
    std::vector<VariantResult> r = pb.evaluator.evaluate(xs);
    for (size_t i = 0; i < xs.size(); ++i) {
      seen[fresh[i]] = pb.out.points.size();
      pb.out.points.push_back(xs[i]);
      pb.out.results.push_back(std::move(r[i]));
    }
  };
  evaluateBatch({z});
  pb.out.startEvaluations = pb.out.points.size();
  const size_t budget = static_cast<size_t>(std::max(1, st.optimisation.maxEvaluations));
  for (;;) {
    std::vector<std::vector<double>> nb;
    for (size_t k = 0; k < n; ++k)
      for (double dir : {-1.0, 1.0}) {
        std::vector<double> q = z;
        q[k] += dir * step[k];
        const StudyParameter& p = st.parameters[k];
        const double hi = lat.lists[k].empty() ? p.to : static_cast<double>(lat.lists[k].size() - 1);
        const double lo = lat.lists[k].empty() ? p.from : 0.0;
        q[k] = std::clamp(q[k], lo, hi);
        if (q[k] != z[k]) nb.push_back(q);
      }
    if (pb.out.points.size() + nb.size() > budget) {
      pb.out.status = "evaluation limit reached";
      return;
    }
    evaluateBatch(nb);
    size_t cur = seen.at(z), best = cur;
    for (const auto& q : nb)
      if (better(pb, seen.at(q), best)) best = seen.at(q);
    if (best != cur) {
      for (const auto& [q, i] : seen)
        if (i == best) z = q;
      continue;
    }
    bool refined = false;
    for (size_t k = 0; k < n; ++k)
      if (lat.lists[k].empty() && step[k] > tol[k]) step[k] *= 0.5, refined = true;
    if (!refined) {
      pb.out.status = "no better neighbour";
      return;
    }
  }
}

}  // namespace

OptimisationResult optimise(const StudySetup& setup, Evaluator& evaluator) {
  const StudyDefinition& st = setup.study;
  const Optimisation& opt = st.optimisation;
  OptimisationResult out;
  Problem pb{setup, evaluator, out};
  pb.sign = opt.maximise ? -1.0 : 1.0;
  pb.penalty = opt.algorithm != "cobyla";
  if (opt.algorithm == "pattern") {
    patternSearch(pb);
    out.best = bestOf(pb, out.found);
    return out;
  }
  const size_t n = st.parameters.size();

  // The start: the study's own variants in one batch, else the middle.
  std::vector<double> x0(n);
  const bool hasVariants = std::all_of(st.parameters.begin(), st.parameters.end(),
                                       [](const StudyParameter& p) { return !p.values.empty(); }) ||
                           st.sampling == Sampling::LatinHypercube || st.sampling == Sampling::Sobol ||
                           st.sampling == Sampling::Random;
  if (hasVariants) {
    out.points = studyVariants(st);
    out.results = evaluator.evaluate(out.points);
  } else {
    for (size_t k = 0; k < n; ++k) x0[k] = 0.5 * (st.parameters[k].from + st.parameters[k].to);
    out.points.push_back(x0);
    out.results = evaluator.evaluate(out.points);
  }
  out.startEvaluations = out.points.size();
  double worst = 0.0;
  for (size_t i = 0; i < out.points.size(); ++i)
    if (const double f = objectiveOf(pb, i); std::isfinite(f)) worst = std::max(worst, std::abs(f));
  pb.failedObjective = 10.0 * (worst > 0.0 ? worst : 1.0);
  bool feasible = false;
  x0 = out.points[bestOf(pb, feasible)];

  const nlopt_algorithm alg = opt.algorithm == "cobyla" ? NLOPT_LN_COBYLA
                              : opt.algorithm == "sbplx" ? NLOPT_LN_SBPLX
                                                         : NLOPT_LN_NELDERMEAD;
  nlopt_opt o = nlopt_create(alg, static_cast<unsigned>(n));
  std::vector<double> lo(n), hi(n), step(n), xtol(n);
  for (size_t k = 0; k < n; ++k) {
    const StudyParameter& p = st.parameters[k];
    lo[k] = p.from;
    hi[k] = p.to;
    // A grid's spacing, else a quarter of the range.
    const bool grid = st.sampling == Sampling::Grid && p.values.size() >= 2;
    step[k] = grid ? (p.to - p.from) / static_cast<double>(p.values.size() - 1) : (p.to - p.from) / 4;
    xtol[k] = opt.xtolRelative * (p.to - p.from);
  }
  nlopt_set_lower_bounds(o, lo.data());
  nlopt_set_upper_bounds(o, hi.data());
  nlopt_set_initial_step(o, step.data());
  nlopt_set_xtol_abs(o, xtol.data());
  nlopt_set_maxeval(o, std::max(1, opt.maxEvaluations - static_cast<int>(out.startEvaluations)));
  nlopt_set_min_objective(o, nloptObjective, &pb);
  std::vector<ConstraintData> cds;
  cds.reserve(st.constraints.size());
  if (!pb.penalty)
    for (const Constraint& c : st.constraints) {
      cds.push_back({&pb, &c});
      nlopt_add_inequality_constraint(o, nloptConstraint, &cds.back(), 0.0);
    }
  double fmin = 0.0;
  const nlopt_result r = nlopt_optimize(o, x0.data(), &fmin);
  nlopt_destroy(o);
  out.status = statusText(r);
  out.best = bestOf(pb, out.found);
  return out;
}

}  // namespace pm::studies
