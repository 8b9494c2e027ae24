// Time functions of motion drivers and force tables: value, first and second
// derivative, and the integral (a velocity motion drives the displacement
// q0 + integral of v). Tables use a natural cubic spline (C2), constant
// outside their range.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

namespace pm::mb {

class TimeFunction {
 public:
  TimeFunction() = default;
  TimeFunction(const std::string& type, const std::map<std::string, double>& params,
               const std::vector<std::array<double, 2>>& table);
  // f, df/dt, d2f/dt2 at t.
  void eval(double t, double& f, double& df, double& ddf) const;
  double integral(double t) const;  // of f from 0 to t

 private:
  enum class Kind { Constant, Ramp, Harmonic, Step, Table } kind_ = Kind::Constant;
  double a_ = 0, b_ = 0, c_ = 0, d_ = 0;
  std::vector<double> t_, y_, m_;  // spline knots, values, second derivatives
  std::vector<double> cum_;        // integral up to each knot
  double param(const std::map<std::string, double>& p, const char* n, double def) const;
};

}  // namespace pm::mb
