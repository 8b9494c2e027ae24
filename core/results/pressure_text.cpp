#include "results/pressure_text.h"

#include <cstdio>

namespace pm {

double PressureText::bar(double paAbsolute) const {
  return (reference == PressureReference::Gauge ? paAbsolute - ambient : paAbsolute) / 1e5;
}

std::string PressureText::unit() const { return reference == PressureReference::Gauge ? "bar (g)" : "bar (abs)"; }

std::string PressureText::operator()(double paAbsolute, const char* format) const {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, bar(paAbsolute));
  return std::string(buf) + " " + unit();
}

}  // namespace pm
