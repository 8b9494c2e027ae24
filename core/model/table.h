// A one-dimensional table y(x) and how it is read between its points: every
// table of the product (supply pressure, valve characteristics, set-point
// and time tables, motion and force tables) uses this one class, chosen per
// table by its "interpolation" field:
// - linear: straight lines between the points (C0; slope jumps at points);
// - step: holds the left point's value up to the next point (y_i on
//   [x_i, x_i+1)); zero derivatives;
// - monotone_cubic (the default): cubic Hermite with Fritsch-Carlson slopes
//   (PCHIP): C1, passes through every point and never leaves the range of
//   the two points around it (no overshoot; a flat stretch stays flat;
//   collinear points give the straight line);
// - natural_cubic: the natural cubic spline (C2, zero curvature at the
//   ends); it overshoots near steps (a +-0.5 step rings to tens).
// Outside the table the end values are held (zero derivatives).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace pm {

enum class Interpolation { Linear, Step, MonotoneCubic, NaturalCubic };

constexpr Interpolation kDefaultInterpolation = Interpolation::MonotoneCubic;

// "linear", "step", "monotone_cubic", "natural_cubic".
const char* interpolationName(Interpolation m);
// False for any other name.
bool parseInterpolation(const std::string& name, Interpolation& m);
// For messages: the accepted names, quoted and comma-separated.
std::string interpolationNames();
// A component's data object with an optional "interpolation": an error
// ("interpolation: ...") for a value that is not one of the names, else "".
std::string checkInterpolationField(const nlohmann::json& data);
// Its mode (`def` when the field is absent; call after the check). Tables
// that were always linear before the field existed default to linear, so
// files written then keep their meaning; both defaults never overshoot.
Interpolation interpolationField(const nlohmann::json& data, Interpolation def = kDefaultInterpolation);

class Table {
 public:
  Table() = default;
  // x strictly increasing, x.size() == y.size() >= 1 (checked by the
  // callers' file checks; throws std::invalid_argument otherwise).
  Table(std::vector<double> x, std::vector<double> y, Interpolation mode = kDefaultInterpolation);

  size_t size() const { return x_.size(); }
  bool empty() const { return x_.empty(); }
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& y() const { return y_; }
  Interpolation mode() const { return mode_; }
  double front() const { return y_.front(); }
  double back() const { return y_.back(); }

  double operator()(double x) const;
  // Value, first and second derivative at x. Linear: the second derivative
  // is 0 between points (a point itself has the right segment's values);
  // step: both derivatives are 0 (the jumps are not differentiable).
  void eval(double x, double& f, double& df, double& ddf) const;
  // Integral of the interpolant from x_0 to x (held end values outside).
  double integral(double x) const;

  // The segment [x_i, x_i+1]'s formula at any x, also beyond the segment:
  // callers that switch segments at events extend the one in use.
  double segment(size_t i, double x) const;
  // Index of the segment containing x: -1 before the first point, n-1 from
  // the last point on.
  long segmentOf(double x) const;

 private:
  void segmentEval(size_t i, double x, double& f, double& df, double& ddf) const;
  double segmentIntegral(size_t i, double x) const;  // from x_i to x
  void monotoneSlopes();
  void naturalSlopes();

  std::vector<double> x_, y_;
  std::vector<double> m_;    // cubic modes: slope at each point
  std::vector<double> cum_;  // integral from x_0 to each point
  Interpolation mode_ = kDefaultInterpolation;
};

}  // namespace pm
