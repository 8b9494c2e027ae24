// Time functions of motion drivers and force tables: value, first and second
// derivative, and the integral (a velocity motion drives the displacement
// q0 + integral of v). Tables are read as their interpolation says
// (model/table.h), constant outside their range.
#pragma once

#include "model/table.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace pm::mb {

class TimeFunction {
 public:
  TimeFunction() = default;
  TimeFunction(const std::string& type, const std::map<std::string, double>& params,
               const std::vector<std::array<double, 2>>& table, Interpolation mode = kDefaultInterpolation);
  // f, df/dt, d2f/dt2 at t.
  void eval(double t, double& f, double& df, double& ddf) const;
  double integral(double t) const;  // of f from 0 to t

 private:
  enum class Kind { Constant, Ramp, Harmonic, Step, Table } kind_ = Kind::Constant;
  double a_ = 0, b_ = 0, c_ = 0, d_ = 0;
  std::vector<double> t_, y_;  // step: (t0, t1), (v0, v1)
  Table table_;
  double param(const std::map<std::string, double>& p, const char* n, double def) const;
};

}  // namespace pm::mb
