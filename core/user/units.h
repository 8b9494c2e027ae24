// Physical dimensions of the quantities in a user component's equations
// (docs/user-components.md): exponents of kg, m, s and K, read from the SI
// unit strings parameters and states declare ("m3/(s Pa)", "J/(kg K)").
// The checker needs dimensions only, so a unit is its exponents; scale
// prefixes and non-SI units are refused (everything inside is SI).
#pragma once

#include <array>
#include <string>

namespace pm::user {

struct Dim {
  std::array<double, 4> e{0.0, 0.0, 0.0, 0.0};  // kg, m, s, K
  // A bare number (a literal or an expression of literals alone): it takes
  // the dimension of what it is added to or compared with.
  bool free = false;

  static Dim number() {
    Dim d;
    d.free = true;
    return d;
  }
  bool dimensionless() const { return e[0] == 0.0 && e[1] == 0.0 && e[2] == 0.0 && e[3] == 0.0; }
  bool same(const Dim& o) const;
  Dim times(const Dim& o) const;
  Dim over(const Dim& o) const;
  Dim power(double k) const;
};

// Parses an SI unit: factors kg m s K N Pa J W Hz rad 1, each with an
// optional integer exponent ("m3", "s^-1"), multiplied by spaces or '*',
// divided by '/' (which divides by the one factor or parenthesised group
// that follows: "N s/m", "J/(kg K)"). Throws std::invalid_argument.
Dim parseUnit(const std::string& unit);

// "kg m-1 s-2" style text of a dimension, for messages.
std::string dimText(const Dim& d);

}  // namespace pm::user
