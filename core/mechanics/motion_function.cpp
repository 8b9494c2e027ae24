#include "mechanics/motion_function.h"

#include <algorithm>
#include <cmath>

namespace pm::mb {

double TimeFunction::param(const std::map<std::string, double>& p, const char* n, double def) const {
  auto it = p.find(n);
  return it == p.end() ? def : it->second;
}

TimeFunction::TimeFunction(const std::string& type, const std::map<std::string, double>& p,
                           const std::vector<std::array<double, 2>>& table, Interpolation mode) {
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
    std::vector<double> t, y;
    for (const auto& r : table) {
      t.push_back(r[0]);
      y.push_back(r[1]);
    }
    table_ = Table(std::move(t), std::move(y), mode);
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
    case Kind::Table: table_.eval(t, f, df, ddf); return;
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
    case Kind::Table: return table_.integral(t) - table_.integral(0.0);
  }
  return 0.0;
}

}  // namespace pm::mb
