// An element's discrete state (what its update() and operate() change) as a
// flat list of numbers, written by one copy of a System and read back by
// another (the output thread's, see solver/output_pipeline.h). One function
// per element lists its fields for both directions, so saving and loading
// cannot disagree on the order:
//
//   bool discrete(DiscreteState& s) override { s(target_, ramping_, tCmd_); return true; }
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

namespace pm {

class DiscreteState {
 public:
  // Saving: the fields are appended to `out`.
  explicit DiscreteState(std::vector<double>& out) : out_(&out) {}
  // Loading: the fields are read from `in` in the same order.
  explicit DiscreteState(const double* in) : in_(in) {}

  bool loading() const { return out_ == nullptr; }

  template <class... T>
  void operator()(T&... fields) {
    (field(fields), ...);
  }

  void field(double& x) {
    if (out_)
      out_->push_back(x);
    else
      x = *in_++;
  }
  void field(bool& b) {
    double d = b ? 1.0 : 0.0;
    field(d);
    b = d != 0.0;
  }
  // Integers and enums (exact as doubles up to 2^53).
  template <class I>
    requires(std::is_integral_v<I> || std::is_enum_v<I>)
  void field(I& x) {
    double d = static_cast<double>(x);
    field(d);
    x = static_cast<I>(static_cast<long long>(d));
  }
  void field(std::vector<bool>& v) {
    size(v);
    for (std::size_t i = 0; i < v.size(); ++i) {
      bool b = v[i];
      field(b);
      v[i] = b;
    }
  }
  template <class T>
  void field(std::vector<T>& v) {
    size(v);
    for (auto& x : v) field(x);
  }
  // Any type with `void discrete(DiscreteState&)` (the signal blocks' helpers).
  template <class T>
    requires requires(T& t, DiscreteState& s) { t.discrete(s); }
  void field(T& x) {
    x.discrete(*this);
  }

 private:
  template <class V>
  void size(V& v) {
    double n = static_cast<double>(v.size());
    field(n);
    if (loading()) v.resize(static_cast<std::size_t>(n));
  }
  std::vector<double>* out_ = nullptr;
  const double* in_ = nullptr;
};

}  // namespace pm
