#include "solver/colored_jacobian.h"


#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

namespace pm {

namespace {
// From this size on, the numerical pattern is sampled by colour groups of the
// structural pattern (cost ~ colours x N instead of N x N); a group whose
// perturbation changes a row none of its columns claims is probed column by
// column, so nothing is missed.
constexpr int kGroupedSamplingFrom = 150;

std::vector<std::vector<int>> greedyColours(const std::vector<std::set<int>>& cols, int n) {
  std::vector<int> order(n);
  for (int j = 0; j < n; ++j) order[j] = j;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return cols[a].size() > cols[b].size(); });
  std::vector<std::vector<int>> groups;
  std::vector<std::vector<char>> used;
  for (int j : order) {
    size_t c = 0;
    for (; c < groups.size(); ++c)
      if (std::none_of(cols[j].begin(), cols[j].end(), [&](int i) { return used[c][i]; })) break;
    if (c == groups.size()) {
      groups.emplace_back();
      used.emplace_back(n, 0);
    }
    groups[c].push_back(j);
    for (int i : cols[j]) used[c][i] = 1;
  }
  return groups;
}
}  // namespace

void ColoredJacobian::sampleGrouped(double t, std::vector<double>& y, std::vector<double>& yp,
                                    std::vector<std::set<int>>& cols) {
  std::vector<double> r0(n_), r1(n_);
  if (sys_.residual(t, y.data(), yp.data(), r0.data()) != 0) return;
  const auto groups = greedyColours(cols, n_);
  std::vector<int> owner(n_, -1);
  for (const auto& group : groups) {
    if (stopRequested()) return;
    for (int which = 0; which < 2; ++which) {
      auto& v = which == 0 ? y : yp;
      std::vector<double> save(group.size());
      for (size_t q = 0; q < group.size(); ++q) {
        const int j = group[q];
        save[q] = v[j];
        v[j] += 1e-6 * std::max(1.0, std::abs(v[j]));
      }
      const int status = sys_.residual(t, y.data(), yp.data(), r1.data());
      for (size_t q = 0; q < group.size(); ++q) v[group[q]] = save[q];
      if (status != 0) continue;
      for (int j : group)
        for (int i : cols[j]) owner[i] = j;
      bool unexplained = false;
      for (int i = 0; i < n_ && !unexplained; ++i)
        if (r1[i] != r0[i] && owner[i] < 0) unexplained = true;
      for (int j : group)
        for (int i : cols[j]) owner[i] = -1;
      if (!unexplained) continue;
      for (int j : group) {  // attribute column by column
        const double keep = v[j];
        v[j] += 1e-6 * std::max(1.0, std::abs(v[j]));
        if (sys_.residual(t, y.data(), yp.data(), r1.data()) == 0)
          for (int i = 0; i < n_; ++i)
            if (r1[i] != r0[i]) cols[j].insert(i);
        v[j] = keep;
      }
    }
  }
}

namespace {
// A junction hands its energy surplus on to its neighbours
// (System::handOffJunctionSurplus): their rows read what its own rows read.
void addJunctionHandOff(const System& sys, std::vector<std::set<int>>& cols) {
  const auto& nodes = sys.nodes();
  for (size_t j = 0; j < nodes.size(); ++j) {
    if (nodes[j].kind != NodeKind::Junction) continue;
    std::set<int> neighbours;
    for (const System::Footprint& f : sys.footprints()) {
      std::vector<int> touched = f.nodes;
      for (const auto& bl : f.blocks) {
        touched.insert(touched.end(), bl.rowNodes.begin(), bl.rowNodes.end());
        touched.insert(touched.end(), bl.colNodes.begin(), bl.colNodes.end());
      }
      if (std::find(touched.begin(), touched.end(), static_cast<int>(j)) == touched.end()) continue;
      for (int k : touched)
        if (k >= 0 && k != static_cast<int>(j)) neighbours.insert(k);
    }
    std::vector<int> reads;
    for (size_t c = 0; c < cols.size(); ++c)
      if (cols[c].count(nodes[j].slotP) || cols[c].count(nodes[j].slotT)) reads.push_back(static_cast<int>(c));
    for (int k : neighbours)
      for (int s : sys.nodeSlots(k))
        for (int c : reads) cols[c].insert(s);
  }
}
}  // namespace

bool ColoredJacobian::stopRequested() {
  if (stop_ && stop_->load(std::memory_order_relaxed)) stopped_ = true;
  return stopped_;
}

ColoredJacobian::ColoredJacobian(System& sys, double t, const double* y0, const double* yp0,
                                 const std::atomic<bool>* stop)
    : sys_(sys), stop_(stop), n_(sys.size()), colRows_(n_), y_(n_), yp_(n_), r1_(n_) {
  std::vector<std::set<int>> cols(n_);
  for (int j = 0; j < n_; ++j) cols[j].insert(j);  // the diagonal always
  // Structure first: each element couples everything in its footprint.
  // A boundary's delivered mass and enthalpy are pure integrals: their rows
  // depend on the flows, but no equation reads them, so they are rows only.
  for (const System::Footprint& f : sys.footprints()) {
    if (!f.blocks.empty()) {
      for (const auto& bl : f.blocks) {
        std::vector<int> rows = bl.rowStates, inputs = bl.colStates;
        for (int node : bl.rowNodes)
          if (node >= 0)
            for (int s : sys.nodeSlots(node)) rows.push_back(s);
        for (int node : bl.colNodes)
          if (node >= 0 && sys.nodes()[node].kind != NodeKind::Boundary)
            for (int s : sys.nodeSlots(node)) inputs.push_back(s);
        for (int a : rows)
          for (int b : inputs) cols[b].insert(a);
      }
      continue;
    }
    for (const auto& g : f.groups)
      for (int a : g)
        for (int b : g) cols[b].insert(a);
    for (auto [r, c] : f.entries) cols[c].insert(r);
    std::vector<int> rows = f.groups.empty() && f.entries.empty() ? f.states : std::vector<int>{};
    std::vector<int> inputs = rows;
    for (int node : f.nodes)
      for (int s : sys.nodeSlots(node)) {
        rows.push_back(s);
        if (sys.nodes()[node].kind != NodeKind::Boundary) inputs.push_back(s);
      }
    inputs.insert(inputs.end(), f.reads.begin(), f.reads.end());
    rows.insert(rows.end(), f.writes.begin(), f.writes.end());
    for (int a : rows)
      for (int b : inputs) cols[b].insert(a);
  }
  addJunctionHandOff(sys, cols);
  fineIncrement_.assign(n_, 0);
  for (const Node& node : sys.nodes())
    if (node.kind == NodeKind::Junction) fineIncrement_[node.slotP] = fineIncrement_[node.slotT] = 1;
  std::mt19937 rng(12345);  // fixed seed: the same project gives the same pattern
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> y(y0, y0 + n_), yp(yp0, yp0 + n_);
  std::vector<double> move(n_, 1.0);  // per state: its element's IntegrationNeeds::samplingMove
  for (int i = 0; i < n_; ++i)
    if (const Element* el = sys.elementOf(i)) move[i] = el->integrationNeeds().samplingMove;
  for (int sample = 0; sample < 5; ++sample) {
    if (stopRequested()) return;
    if (sample > 0) {
      for (int i = 0; i < n_; ++i) {
        const StateInfo& s = sys.states()[i];
        if (s.atol > 1e30)  // a multiplier (outside the error test): terms it
          y[i] = y0[i];      // multiplies are declared by its element, and a
                             // perturbation of its own scale would be arbitrary
        else if (move[i] != 1.0)  // a large move may leave the states' valid region
          y[i] = y0[i] + move[i] * (std::abs(y0[i]) + 1e3 * s.atol) * u(rng);
        else if (s.unit == "Pa")
          y[i] = y0[i] * std::exp(0.92 * u(rng));  // x 0.4 .. 2.5
        else if (s.unit == "K")
          y[i] = y0[i] * std::exp(0.22 * u(rng));  // x 0.8 .. 1.25
        else
          y[i] = y0[i] + (std::abs(y0[i]) + 1e3 * s.atol) * u(rng);
        yp[i] = yp0[i] + (std::abs(yp0[i]) + 1e3 * s.atol) * u(rng);
      }
    }
    if (n_ < kGroupedSamplingFrom) {
      const auto rows = sys.sparsity(t, y.data(), yp.data());
      for (int i = 0; i < n_; ++i)
        for (int j : rows[i]) cols[j].insert(i);
    } else {
      sampleGrouped(t, y, yp, cols);
    }
  }
  for (int j = 0; j < n_; ++j) colRows_[j].assign(cols[j].begin(), cols[j].end());
  // Greedy colouring, densest columns first.
  std::vector<int> order(n_);
  for (int j = 0; j < n_; ++j) order[j] = j;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return colRows_[a].size() > colRows_[b].size(); });
  std::vector<std::vector<char>> used;  // per colour: rows taken
  for (int j : order) {
    size_t c = 0;
    for (; c < groups_.size(); ++c)
      if (std::none_of(colRows_[j].begin(), colRows_[j].end(), [&](int i) { return used[c][i]; })) break;
    if (c == groups_.size()) {
      groups_.emplace_back();
      used.emplace_back(n_, 0);
    }
    groups_[c].push_back(j);
    for (int i : colRows_[j]) used[c][i] = 1;
  }
  layout();
}

void ColoredJacobian::layout() {
  start_.assign(n_ + 1, 0);
  for (int j = 0; j < n_; ++j) start_[j + 1] = start_[j] + colRows_[j].size();
  last_.assign(start_[n_], 0.0);
  mass_.clear();
}

void ColoredJacobian::makeDense() {
  groups_.assign(n_, {});
  for (int j = 0; j < n_; ++j) {
    groups_[j] = {j};
    colRows_[j].resize(n_);
    for (int i = 0; i < n_; ++i) colRows_[j][i] = i;
  }
  layout();
}

size_t ColoredJacobian::nonZeros() const {
  size_t n = 0;
  for (const auto& c : colRows_) n += c.size();
  return n;
}

template <class Store>
int ColoredJacobian::difference(double t, double cj, const double* y, const double* yp, const double* r,
                                const double* ewt, double h, Store store, bool perturbY) {
  const double srur = std::sqrt(2.220446049250313e-16);
  std::vector<double> inc(n_);
  // Increments as IDA's own dense difference quotient chooses them, except
  // for a junction's states (fineIncrement_).
  for (int j = 0; j < n_; ++j) {
    const double scale = srur * std::max(std::abs(y[j]), std::abs(h * yp[j]));
    double d = fineIncrement_[j] ? scale : std::max(scale, 1.0 / ewt[j]);
    if (h * yp[j] < 0.0) d = -d;
    inc[j] = (y[j] + d) - y[j];
  }
  // Colour g's columns from System s, with scratch yy, yyp (equal to y, yp
  // on entry and exit) and rr.
  auto colour = [&](System& s, size_t g, std::vector<double>& yy, std::vector<double>& yyp, std::vector<double>& rr) {
    const std::vector<int>& group = groups_[g];
    for (int j : group) {
      if (perturbY) yy[j] += inc[j];
      yyp[j] += cj * inc[j];
    }
    const int status = s.residual(t, yy.data(), yyp.data(), rr.data());
    for (int j : group) {
      yy[j] = y[j];
      yyp[j] = yp[j];
    }
    if (status == 0)
      for (int j : group) store(j, rr, r, inc[j]);
    return status;
  };
  std::copy(y, y + n_, y_.begin());
  std::copy(yp, yp + n_, yp_.begin());
  std::vector<double> discrete;
  // A few colours cost less than the hand-over; without the discrete state the copy cannot help.
  if (!post_ || groups_.size() < 4 || !discrete_(discrete)) {
    for (size_t g = 0; g < groups_.size(); ++g)
      if (const int status = colour(sys_, g, y_, yp_, r1_); status != 0) return status;
    return 0;
  }
  // Both threads take colours in turn. The shared counters outlive this
  // call: a task that starts late only finds every colour taken.
  struct Shared {
    std::atomic<size_t> next{0}, finished{0};
    std::atomic<int> status{0};
    std::string error;  // the other thread's exception, read after `finished`
  };
  auto shared = std::make_shared<Shared>();
  const size_t G = groups_.size();
  helperY_.assign(y, y + n_);
  helperYp_.assign(yp, yp + n_);
  helperR_.resize(n_);
  post_([this, shared, G, &colour, discrete = std::move(discrete)](System& s) {
    bool loaded = false;
    for (size_t g; (g = shared->next.fetch_add(1)) < G;) {
      try {
        if (!loaded) s.loadDiscrete(discrete.data()), loaded = true;
        if (shared->status.load() == 0) {
          const int st = colour(s, g, helperY_, helperYp_, helperR_);
          if (st != 0) shared->status.store(st);
        }
      } catch (const std::exception& e) {
        shared->error = e.what();
        shared->status.store(-1);
      }
      shared->finished.fetch_add(1, std::memory_order_acq_rel);
    }
  });
  // An exception here must not leave while the other thread may still use
  // this frame: it is kept, and thrown once every colour is finished.
  std::string error;
  for (size_t g; (g = shared->next.fetch_add(1)) < G;) {
    try {
      if (shared->status.load() == 0) {
        const int st = colour(sys_, g, y_, yp_, r1_);
        if (st != 0) shared->status.store(st);
      }
    } catch (const std::exception& e) {
      error = e.what();
      shared->status.store(-1);
    }
    shared->finished.fetch_add(1, std::memory_order_acq_rel);
  }
  // At most the colour the other thread is on.
  while (shared->finished.load(std::memory_order_acquire) < G) std::this_thread::yield();
  if (error.empty()) error = shared->error;
  if (!error.empty()) throw std::runtime_error(error);
  return shared->status.load();
}

int ColoredJacobian::fill(double t, double cj, const double* y, const double* yp, const double* r,
                          const double* ewt, double h, double* J) {
  std::fill(J, J + static_cast<size_t>(n_) * n_, 0.0);
  const int status =
      difference(t, cj, y, yp, r, ewt, h, [&](int j, const std::vector<double>& r1, const double* r0, double d) {
        double* col = J + static_cast<size_t>(j) * n_;
        size_t q = start_[j];
        for (int i : colRows_[j]) last_[q++] = col[i] = (r1[i] - r0[i]) / d;
      });
  lastCj_ = cj;
  return status;
}

void ColoredJacobian::writePattern(long* colPtr, long* rowIdx) const {
  long k = 0;
  for (int j = 0; j < n_; ++j) {
    colPtr[j] = k;
    for (int i : colRows_[j]) rowIdx[k++] = i;
  }
  colPtr[n_] = k;
}

int ColoredJacobian::fillSparse(double t, double cj, const double* y, const double* yp, const double* r,
                                const double* ewt, double h, long* colPtr, long* rowIdx, double* values) {
  writePattern(colPtr, rowIdx);
  const int status =
      difference(t, cj, y, yp, r, ewt, h, [&](int j, const std::vector<double>& r1, const double* r0, double d) {
        size_t q = start_[j];
        for (int i : colRows_[j]) last_[q] = values[q] = (r1[i] - r0[i]) / d, ++q;
      });
  lastCj_ = cj;
  return status;
}

int ColoredJacobian::fillMass(double t, double cj, const double* y, const double* yp, const double* r,
                              const double* ewt, double h) {
  std::vector<double> mass(last_.size());
  // The y' increment is cj times the y increment of a fill: the size the
  // combined difference quotient gives y'.
  const int status =
      difference(t, cj, y, yp, r, ewt, h, [&](int j, const std::vector<double>& r1, const double* r0, double d) {
        size_t q = start_[j];
        for (int i : colRows_[j]) mass[q++] = (r1[i] - r0[i]) / (cj * d);
      }, false);
  if (status == 0) mass_ = std::move(mass);
  return status;
}

void ColoredJacobian::refill(double cj, double* J) const {
  std::fill(J, J + static_cast<size_t>(n_) * n_, 0.0);
  const double dcj = cj - lastCj_;
  for (int j = 0; j < n_; ++j) {
    double* col = J + static_cast<size_t>(j) * n_;
    size_t q = start_[j];
    for (int i : colRows_[j]) col[i] = last_[q] + dcj * mass_[q], ++q;
  }
}

void ColoredJacobian::refillSparse(double cj, long* colPtr, long* rowIdx, double* values) const {
  writePattern(colPtr, rowIdx);
  const double dcj = cj - lastCj_;
  for (size_t q = 0; q < last_.size(); ++q) values[q] = last_[q] + dcj * mass_[q];
}

}  // namespace pm
