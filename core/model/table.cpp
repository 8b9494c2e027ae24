#include "model/table.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pm {

namespace {
constexpr Interpolation kModes[] = {Interpolation::Linear, Interpolation::Step, Interpolation::MonotoneCubic,
                                    Interpolation::NaturalCubic};
}

const char* interpolationName(Interpolation m) {
  switch (m) {
    case Interpolation::Linear: return "linear";
    case Interpolation::Step: return "step";
    case Interpolation::MonotoneCubic: return "monotone_cubic";
    case Interpolation::NaturalCubic: return "natural_cubic";
  }
  return "";
}

bool parseInterpolation(const std::string& name, Interpolation& m) {
  for (Interpolation k : kModes)
    if (name == interpolationName(k)) {
      m = k;
      return true;
    }
  return false;
}

std::string interpolationNames() {
  std::string r;
  for (Interpolation k : kModes) r += (r.empty() ? "\"" : ", \"") + std::string(interpolationName(k)) + "\"";
  return r;
}

std::string checkInterpolationField(const nlohmann::json& data) {
  if (!data.is_object() || !data.contains("interpolation")) return "";
  const nlohmann::json& v = data["interpolation"];
  Interpolation m;
  if (!v.is_string() || !parseInterpolation(v.get<std::string>(), m))
    return "interpolation: unknown value " + v.dump() + " (expected " + interpolationNames() + ")";
  return "";
}

Interpolation interpolationField(const nlohmann::json& data, Interpolation def) {
  Interpolation m = def;
  if (data.is_object() && data.contains("interpolation") && data["interpolation"].is_string())
    parseInterpolation(data["interpolation"].get<std::string>(), m);
  return m;
}

Table::Table(std::vector<double> x, std::vector<double> y, Interpolation mode)
    : x_(std::move(x)), y_(std::move(y)), mode_(mode) {
  if (x_.empty() || x_.size() != y_.size()) throw std::invalid_argument("table: expected as many x as y, at least one");
  for (size_t i = 1; i < x_.size(); ++i)
    if (!(x_[i] > x_[i - 1])) throw std::invalid_argument("table: x must increase strictly");
  m_.assign(x_.size(), 0.0);
  if (mode_ == Interpolation::MonotoneCubic) monotoneSlopes();
  if (mode_ == Interpolation::NaturalCubic) naturalSlopes();
  cum_.assign(x_.size(), 0.0);
  for (size_t i = 1; i < x_.size(); ++i) cum_[i] = cum_[i - 1] + segmentIntegral(i - 1, x_[i]);
}

// segmentOf() and segment() as functions of this file alone, forced inline
// into operator() and eval() (GCC kept segmentValue out of line): the
// library is built position independent, and its exported members are then
// not inlined into one another (a valve reads its tables at every evaluation).
namespace {
[[gnu::always_inline]] inline long segmentIndex(const std::vector<double>& xs, double x) {
  return static_cast<long>(std::upper_bound(xs.begin(), xs.end(), x) - xs.begin()) - 1;
}

// The expressions are those of the former control/interpolation.h, so the
// time tables and valve characteristics give the same bits as before.
[[gnu::always_inline]] inline double segmentValue(Interpolation mode, const std::vector<double>& x_,
                                                  const std::vector<double>& y_, const std::vector<double>& m_,
                                                  size_t i, double x) {
  if (mode == Interpolation::Step) return y_[i];
  const double h = x_[i + 1] - x_[i], s = (x - x_[i]) / h;
  if (mode == Interpolation::Linear) return y_[i] + s * (y_[i + 1] - y_[i]);
  const double s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * y_[i] + (s3 - 2 * s2 + s) * h * m_[i] + (-2 * s3 + 3 * s2) * y_[i + 1] +
         (s3 - s2) * h * m_[i + 1];
}
}  // namespace

long Table::segmentOf(double x) const { return segmentIndex(x_, x); }

double Table::operator()(double x) const {
  if (x <= x_.front()) return y_.front();
  if (x >= x_.back()) return y_.back();
  return segmentValue(mode_, x_, y_, m_, static_cast<size_t>(segmentIndex(x_, x)), x);
}

double Table::segment(size_t i, double x) const { return segmentValue(mode_, x_, y_, m_, i, x); }

void Table::segmentEval(size_t i, double x, double& f, double& df, double& ddf) const {
  f = segmentValue(mode_, x_, y_, m_, i, x);
  const double h = x_[i + 1] - x_[i], s = (x - x_[i]) / h;
  switch (mode_) {
    case Interpolation::Step: df = ddf = 0.0; return;
    case Interpolation::Linear: df = (y_[i + 1] - y_[i]) / h, ddf = 0.0; return;
    default: break;
  }
  // Derivatives of the Hermite basis in s, divided by h per order.
  const double y0 = y_[i], y1 = y_[i + 1], m0 = m_[i], m1 = m_[i + 1];
  df = ((6 * s * s - 6 * s) * (y0 - y1)) / h + (3 * s * s - 4 * s + 1) * m0 + (3 * s * s - 2 * s) * m1;
  ddf = ((12 * s - 6) * (y0 - y1)) / (h * h) + ((6 * s - 4) * m0 + (6 * s - 2) * m1) / h;
}

void Table::eval(double x, double& f, double& df, double& ddf) const {
  // At the first point the first segment's rates (from the right): a motion
  // table starting at t = 0 starts at its slope, as the run after it (held
  // rates there made the start velocity 0 and IDA failed at t = 0).
  if (x < x_.front() || x >= x_.back() || x_.size() < 2) {
    f = x < x_.front() ? y_.front() : y_.back();
    df = ddf = 0.0;
    return;
  }
  segmentEval(static_cast<size_t>(segmentIndex(x_, x)), x, f, df, ddf);
}

double Table::segmentIntegral(size_t i, double x) const {
  const double h = x_[i + 1] - x_[i], s = (x - x_[i]) / h;
  const double y0 = y_[i], y1 = y_[i + 1];
  switch (mode_) {
    case Interpolation::Step: return h * s * y0;
    case Interpolation::Linear: return h * s * (y0 + 0.5 * s * (y1 - y0));
    default: break;
  }
  // Integrals over [0, s] of the Hermite basis functions (times h).
  const double s2 = s * s, s3 = s2 * s, s4 = s3 * s;
  return h * (y0 * (s4 / 2 - s3 + s) + y1 * (s3 - s4 / 2) + h * m_[i] * (s4 / 4 - 2 * s3 / 3 + s2 / 2) +
              h * m_[i + 1] * (s4 / 4 - s3 / 3));
}

double Table::integral(double x) const {
  if (x <= x_.front()) return (x - x_.front()) * y_.front();
  if (x >= x_.back()) return cum_.back() + (x - x_.back()) * y_.back();
  const size_t i = static_cast<size_t>(segmentIndex(x_, x));
  return cum_[i] + segmentIntegral(i, x);
}

// Fritsch-Carlson slopes: zero at local extrema and flat stretches, a
// weighted harmonic mean inside monotone stretches, one-sided at the ends,
// then limited so that each cubic stays monotone.
void Table::monotoneSlopes() {
  const size_t n = x_.size();
  if (n < 2) return;
  std::vector<double> d(n - 1);
  for (size_t i = 0; i + 1 < n; ++i) d[i] = (y_[i + 1] - y_[i]) / (x_[i + 1] - x_[i]);
  m_[0] = d[0];
  m_[n - 1] = d[n - 2];
  for (size_t i = 1; i + 1 < n; ++i) {
    if (d[i - 1] * d[i] <= 0.0) continue;
    const double h0 = x_[i] - x_[i - 1], h1 = x_[i + 1] - x_[i];
    const double w1 = 2.0 * h1 + h0, w2 = h1 + 2.0 * h0;
    m_[i] = (w1 + w2) / (w1 / d[i - 1] + w2 / d[i]);
  }
  for (size_t i = 0; i + 1 < n; ++i) {
    if (d[i] == 0.0) {
      m_[i] = m_[i + 1] = 0.0;
      continue;
    }
    const double a = m_[i] / d[i], b = m_[i + 1] / d[i];
    if (a < 0.0) m_[i] = 0.0;
    if (b < 0.0) m_[i + 1] = 0.0;
    const double s = a * a + b * b;
    if (s > 9.0) {
      const double tau = 3.0 / std::sqrt(s);
      m_[i] = tau * a * d[i];
      m_[i + 1] = tau * b * d[i];
    }
  }
}

// Natural spline: second derivatives M from the tridiagonal system (M = 0
// at both ends), then the slopes of the same cubics for the Hermite form.
void Table::naturalSlopes() {
  const size_t n = x_.size();
  if (n < 2) return;
  std::vector<double> M(n, 0.0);
  if (n > 2) {
    std::vector<double> c(n, 0.0), d(n, 0.0);
    for (size_t i = 1; i + 1 < n; ++i) {
      const double h0 = x_[i] - x_[i - 1], h1 = x_[i + 1] - x_[i];
      const double rhs = 6.0 * ((y_[i + 1] - y_[i]) / h1 - (y_[i] - y_[i - 1]) / h0);
      const double diag = 2.0 * (h0 + h1) - h0 * c[i - 1];
      c[i] = h1 / diag;
      d[i] = (rhs - h0 * d[i - 1]) / diag;
    }
    for (size_t i = n - 2; i >= 1; --i) M[i] = d[i] - c[i] * M[i + 1];
  }
  for (size_t i = 0; i + 1 < n; ++i) {
    const double h = x_[i + 1] - x_[i], dy = (y_[i + 1] - y_[i]) / h;
    m_[i] = dy - h * (2.0 * M[i] + M[i + 1]) / 6.0;
  }
  const double h = x_[n - 1] - x_[n - 2];
  m_[n - 1] = (y_[n - 1] - y_[n - 2]) / h + h * (M[n - 2] + 2.0 * M[n - 1]) / 6.0;
}

}  // namespace pm
