#include "user/units.h"

#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace pm::user {

bool Dim::same(const Dim& o) const {
  for (int i = 0; i < 4; ++i)
    if (std::abs(e[i] - o.e[i]) > 1e-9) return false;
  return true;
}

Dim Dim::times(const Dim& o) const {
  Dim d;
  for (int i = 0; i < 4; ++i) d.e[i] = e[i] + o.e[i];
  d.free = free && o.free;
  return d;
}

Dim Dim::over(const Dim& o) const {
  Dim d;
  for (int i = 0; i < 4; ++i) d.e[i] = e[i] - o.e[i];
  d.free = free && o.free;
  return d;
}

Dim Dim::power(double k) const {
  Dim d;
  for (int i = 0; i < 4; ++i) d.e[i] = e[i] * k;
  d.free = free;
  return d;
}

namespace {

Dim base(double kg, double m, double s, double K) {
  Dim d;
  d.e = {kg, m, s, K};
  return d;
}

Dim symbol(const std::string& name, const std::string& unit) {
  if (name == "kg") return base(1, 0, 0, 0);
  if (name == "m") return base(0, 1, 0, 0);
  if (name == "s") return base(0, 0, 1, 0);
  if (name == "K") return base(0, 0, 0, 1);
  if (name == "N") return base(1, 1, -2, 0);
  if (name == "Pa") return base(1, -1, -2, 0);
  if (name == "J") return base(1, 2, -2, 0);
  if (name == "W") return base(1, 2, -3, 0);
  if (name == "Hz") return base(0, 0, -1, 0);
  if (name == "rad" || name == "1") return base(0, 0, 0, 0);
  throw std::invalid_argument("unit '" + unit + "': '" + name +
                              "' is not an SI unit this program knows (kg m s K N Pa J W Hz rad 1)");
}

// Recursive descent over the unit text; `i` is the read position.
class UnitReader {
 public:
  explicit UnitReader(const std::string& u) : u_(u) {}
  Dim product(bool inParens) {
    Dim d;
    bool any = false;
    while (true) {
      skip();
      if (i_ >= u_.size() || u_[i_] == ')') break;
      if (u_[i_] == '*') {
        ++i_;
        continue;
      }
      if (u_[i_] == '/') {
        ++i_;
        skip();
        d = d.over(factor());
      } else {
        d = d.times(factor());
      }
      any = true;
    }
    if (!any) fail("no unit");
    if (!inParens && i_ < u_.size()) fail("unbalanced ')'");
    return d;
  }

 private:
  Dim factor() {
    Dim d;
    if (i_ < u_.size() && u_[i_] == '(') {
      ++i_;
      d = product(true);
      if (i_ >= u_.size() || u_[i_] != ')') fail("missing ')'");
      ++i_;
    } else {
      size_t j = i_;
      while (j < u_.size() && (std::isalpha(static_cast<unsigned char>(u_[j])) || (j == i_ && u_[j] == '1'))) ++j;
      if (j == i_) fail("expected a unit at '" + u_.substr(i_) + "'");
      d = symbol(u_.substr(i_, j - i_), u_);
      i_ = j;
    }
    return d.power(exponent());
  }
  double exponent() {
    size_t j = i_;
    if (j < u_.size() && u_[j] == '^') ++j;
    size_t k = j;
    if (k < u_.size() && u_[k] == '-') ++k;
    size_t n = k;
    while (n < u_.size() && std::isdigit(static_cast<unsigned char>(u_[n]))) ++n;
    if (n == k) {
      if (j != i_) fail("'^' without an exponent");
      return 1.0;
    }
    const double x = std::stod(u_.substr(k, n - k));
    i_ = n;
    return k > j ? -x : x;
  }
  void skip() {
    while (i_ < u_.size() && u_[i_] == ' ') ++i_;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("unit '" + u_ + "': " + what);
  }
  const std::string& u_;
  size_t i_ = 0;
};

}  // namespace

Dim parseUnit(const std::string& unit) { return UnitReader(unit).product(false); }

std::string dimText(const Dim& d) {
  static const char* kNames[] = {"kg", "m", "s", "K"};
  std::ostringstream o;
  bool any = false;
  for (int i = 0; i < 4; ++i) {
    if (d.e[i] == 0.0) continue;
    if (any) o << ' ';
    o << kNames[i];
    if (d.e[i] != 1.0) o << d.e[i];
    any = true;
  }
  return any ? o.str() : std::string("1");
}

}  // namespace pm::user
