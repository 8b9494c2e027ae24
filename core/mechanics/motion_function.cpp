#include "mechanics/motion_function.h"

#include <algorithm>
#include <cmath>

namespace pm::mb {

double TimeFunction::param(const std::map<std::string, double>& p, const char* n, double def) const {
  auto it = p.find(n);
  return it == p.end() ? def : it->second;
}

TimeFunction::TimeFunction(const std::string& type, const std::map<std::string, double>& p,
                           const std::vector<std::array<double, 2>>& table) {
  if (type == "constant") {
    kind_ = Kind::Constant;
    a_ = param(p, "value", 0.0);
  } else if (type == "ramp") {
    kind_ = Kind::Ramp;
    a_ = param(p, "offset", 0.0);
    b_ = param(p, "slope", 1.0);
  } else if (type == "harmonic") {
    kind_ = Kind::Harmonic;
    a_ = param(p, "offset", 0.0);
    b_ = param(p, "amplitude", 0.01);
    c_ = 2.0 * M_PI * param(p, "frequency", 1.0);
    d_ = param(p, "phase", 0.0);
  } else if (type == "step") {
    kind_ = Kind::Step;
    t_ = {param(p, "t0", 0.0), param(p, "t1", 1.0)};
    y_ = {param(p, "v0", 0.0), param(p, "v1", 1.0)};
  } else {
    kind_ = Kind::Table;
    for (const auto& r : table) {
      t_.push_back(r[0]);
      y_.push_back(r[1]);
    }
    const size_t n = t_.size();
    m_.assign(n, 0.0);
    if (n > 2) {  // natural spline: tridiagonal system for the second derivatives
      std::vector<double> c(n, 0.0), d(n, 0.0);
      for (size_t i = 1; i + 1 < n; ++i) {
        const double h0 = t_[i] - t_[i - 1], h1 = t_[i + 1] - t_[i];
        const double rhs = 6.0 * ((y_[i + 1] - y_[i]) / h1 - (y_[i] - y_[i - 1]) / h0);
        const double diag = 2.0 * (h0 + h1) - h0 * c[i - 1];
        c[i] = h1 / diag;
        d[i] = (rhs - h0 * d[i - 1]) / diag;
      }
      for (size_t i = n - 2; i >= 1; --i) m_[i] = d[i] - c[i] * m_[i + 1];
    }
    cum_.assign(n, 0.0);
    for (size_t i = 1; i < n; ++i) {
      const double h = t_[i] - t_[i - 1];
      cum_[i] = cum_[i - 1] + h * (y_[i - 1] + y_[i]) / 2.0 - h * h * h * (m_[i - 1] + m_[i]) / 24.0;
    }
  }
}

void TimeFunction::eval(double t, double& f, double& df, double& ddf) const {
  switch (kind_) {
    case Kind::Constant: f = a_; df = ddf = 0.0; return;
    case Kind::Ramp: f = a_ + b_ * t; df = b_; ddf = 0.0; return;
    case Kind::Harmonic:
      f = a_ + b_ * std::sin(c_ * t + d_);
      df = b_ * c_ * std::cos(c_ * t + d_);
      ddf = -b_ * c_ * c_ * std::sin(c_ * t + d_);
      return;
    case Kind::Step: {
      // ADAMS STEP: cubic, C1 at both ends.
      if (t <= t_[0]) { f = y_[0]; df = ddf = 0.0; return; }
      if (t >= t_[1]) { f = y_[1]; df = ddf = 0.0; return; }
      const double h = t_[1] - t_[0], s = (t - t_[0]) / h, dy = y_[1] - y_[0];
      f = y_[0] + dy * s * s * (3.0 - 2.0 * s);
      df = dy * 6.0 * s * (1.0 - s) / h;
      ddf = dy * (6.0 - 12.0 * s) / (h * h);
      return;
    }
    case Kind::Table: {
      if (t <= t_.front()) { f = y_.front(); df = ddf = 0.0; return; }
      if (t >= t_.back()) { f = y_.back(); df = ddf = 0.0; return; }
      const size_t i = std::upper_bound(t_.begin(), t_.end(), t) - t_.begin() - 1;
      const double h = t_[i + 1] - t_[i], A = (t_[i + 1] - t) / h, B = (t - t_[i]) / h;
      f = A * y_[i] + B * y_[i + 1] + ((A * A * A - A) * m_[i] + (B * B * B - B) * m_[i + 1]) * h * h / 6.0;
      df = (y_[i + 1] - y_[i]) / h - (3 * A * A - 1) * h / 6.0 * m_[i] + (3 * B * B - 1) * h / 6.0 * m_[i + 1];
      ddf = A * m_[i] + B * m_[i + 1];
      return;
    }
  }
}

double TimeFunction::integral(double t) const {
  switch (kind_) {
    case Kind::Constant: return a_ * t;
    case Kind::Ramp: return a_ * t + 0.5 * b_ * t * t;
    case Kind::Harmonic: return a_ * t - b_ / c_ * (std::cos(c_ * t + d_) - std::cos(d_));
    case Kind::Step: {
      auto F = [&](double x) {  // integral from t0
        if (x <= t_[0]) return 0.0;
        const double h = t_[1] - t_[0];
        if (x >= t_[1]) return h * (y_[0] + y_[1]) / 2.0 + (x - t_[1]) * y_[1];
        const double s = (x - t_[0]) / h, dy = y_[1] - y_[0];
        return h * (y_[0] * s + dy * (s * s * s - 0.5 * s * s * s * s));
      };
      return y_[0] * std::min(t, t_[0]) + F(t) - (t < 0 ? 0.0 : 0.0);
    }
    case Kind::Table: {
      auto F = [&](double x) {  // integral from t_front
        if (x <= t_.front()) return (x - t_.front()) * y_.front();
        if (x >= t_.back()) return cum_.back() + (x - t_.back()) * y_.back();
        const size_t i = std::upper_bound(t_.begin(), t_.end(), x) - t_.begin() - 1;
        const double h = t_[i + 1] - t_[i], A = (t_[i + 1] - x) / h, B = (x - t_[i]) / h;
        // integral over [t_i, x] of the spline, with dx = h dB and A = 1 - B
        const double IA = h * (1.0 - A * A) / 2.0, IB = h * B * B / 2.0;
        const double IA3 = h * (1.0 - A * A * A * A) / 4.0, IB3 = h * B * B * B * B / 4.0;
        return cum_[i] + y_[i] * IA + y_[i + 1] * IB + ((IA3 - IA) * m_[i] + (IB3 - IB) * m_[i + 1]) * h * h / 6.0;
      };
      return F(t) - F(0.0);
    }
  }
  return 0.0;
}

}  // namespace pm::mb
