// One-dimensional table interpolation shared by the time table and the
// proportional valve's opening tables:
// - linear between the points;
// - smooth: monotone cubic Hermite (Fritsch-Carlson PCHIP): C1, passes
//   through every point and never overshoots between them (a flat stretch
//   stays flat, a monotone table gives a monotone curve).
// Outside the table the end values are held.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace pm {

class Interpolation {
 public:
  Interpolation() = default;
  // x strictly increasing, x.size() == y.size() >= 1.
  Interpolation(std::vector<double> x, std::vector<double> y, bool smooth)
      : x_(std::move(x)), y_(std::move(y)), smooth_(smooth) {
    slopes();
  }

  size_t size() const { return x_.size(); }
  const std::vector<double>& x() const { return x_; }

  double operator()(double x) const {
    if (x_.empty()) return 0.0;
    if (x <= x_.front()) return y_.front();
    if (x >= x_.back()) return y_.back();
    const size_t i = static_cast<size_t>(std::upper_bound(x_.begin(), x_.end(), x) - x_.begin()) - 1;
    return segment(i, x);
  }

  // The cubic (or line) of segment i, [x_i, x_i+1], evaluated at any x (also
  // beyond the segment: callers that switch segments at events extend one).
  double segment(size_t i, double x) const {
    const double h = x_[i + 1] - x_[i], s = (x - x_[i]) / h;
    if (!smooth_) return y_[i] + s * (y_[i + 1] - y_[i]);
    const double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * y_[i] + (s3 - 2 * s2 + s) * h * m_[i] + (-2 * s3 + 3 * s2) * y_[i + 1] +
           (s3 - s2) * h * m_[i + 1];
  }
  double front() const { return y_.front(); }
  double back() const { return y_.back(); }

 private:
  // Fritsch-Carlson slopes: zero at local extrema and flat stretches, a
  // weighted harmonic mean inside monotone stretches, one-sided at the ends,
  // then limited so that each cubic stays monotone.
  void slopes() {
    const size_t n = x_.size();
    m_.assign(n, 0.0);
    if (!smooth_ || n < 2) return;
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

  std::vector<double> x_, y_, m_;
  bool smooth_ = false;
};

}  // namespace pm
