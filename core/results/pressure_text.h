// Pressures as the report's prose states them: every level in one reference,
// the studio's pressure setting (View > Pressure Units), gauge ("bar (g)",
// relative to the run's ambient pressure) or absolute ("bar (abs)"). The
// model and the engine stay in Pa absolute; only the words change. A
// pressure difference (a cracking pressure) has no reference: plain "bar".
// Plain C++.
#pragma once

#include <string>

namespace pm {

enum class PressureReference { Gauge, Absolute };

struct PressureText {
  PressureReference reference = PressureReference::Gauge;
  double ambient = 101325.0;  // Pa absolute, what gauge values are relative to

  // A level given in Pa absolute, in bar of the reference.
  double bar(double paAbsolute) const;
  // "bar (g)" or "bar (abs)".
  std::string unit() const;
  // "5 bar (g)": the value (printf `format`, "%g" by default) and the unit.
  std::string operator()(double paAbsolute, const char* format = "%g") const;
};

}  // namespace pm
