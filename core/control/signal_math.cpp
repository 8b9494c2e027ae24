// Memoryless arithmetic on signals (direct feedthrough, evaluated when read):
// - gain:    out = k in + bias
// - sum:     out = sum_i s_i in_i, signs s_i from data.signs ("+-" reads
//            in1 - in2); without data every connected input counts +.
// - product: out = product of the connected inputs in1..in4.
// A loop of such blocks without a state in between is reported as an
// algebraic loop (signal_block.h), not solved.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

#include <stdexcept>

namespace pm {

namespace {

constexpr int kMaxInputs = 4;

std::vector<InputDecl> numberedInputs(const char* what) {
  std::vector<InputDecl> v;
  for (int i = 1; i <= kMaxInputs; ++i)
    v.push_back({"in" + std::to_string(i), std::string(what) + " " + std::to_string(i), i == 1});
  return v;
}

class Gain : public Element {
 public:
  explicit Gain(const Component& c) : Element(c.id), ref_(signal::inputRef(c, "in")) {
    Params P(c);
    k_ = P("k");
    bias_ = P("bias");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "gain";
    t.category = "Signal math";
    t.symbol = "gain";
    t.description = "Gain: out = k in + bias";
    t.params = {{"k", "1", 1.0, -1e300, 1e300, false, false, "gain"},
                {"bias", "1", 0.0, -1e300, 1e300, false, false, "added to the product"}};
    t.inputs = {{"in", "input signal", true}};
    t.channels = {{"out", "1", "k in + bias"}};
    t.create = [](const Component& c) { return std::make_unique<Gain>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(in_, "inputs.in", ref_);
    b.channel("out", "1");
    b.publish("out", [this](const Eval& e) { return value(e); });
  }
  void evaluate(Eval&) override {}
  void output(const Eval& e, double* ch) override { ch[0] = value(e); }

 private:
  double value(const Eval& e) {
    signal::LoopGuard g(busy_, id());
    return k_ * in_(e) + bias_;
  }
  std::string ref_;
  SignalInput in_;
  double k_, bias_;
  bool busy_ = false;
};

std::vector<std::string> checkSigns(const Component& c) {
  if (c.data.is_null()) return {};
  if (!c.data.is_object()) return {"expected an object {\"signs\": \"+-\"}"};
  std::vector<std::string> err;
  for (auto it = c.data.begin(); it != c.data.end(); ++it)
    if (it.key() != "signs") err.push_back(it.key() + ": unknown field");
  if (!c.data.contains("signs")) return err;
  const auto& s = c.data["signs"];
  if (!s.is_string() || s.get<std::string>().empty() || s.get<std::string>().size() > kMaxInputs ||
      s.get<std::string>().find_first_not_of("+-") != std::string::npos) {
    err.push_back("signs: expected 1 to 4 characters '+' or '-', one per input in1, in2, ... (\"+-\": in1 - in2)");
    return err;
  }
  const std::string signs = s.get<std::string>();
  for (size_t i = 0; i < signs.size(); ++i)
    if (signal::inputRef(c, "in" + std::to_string(i + 1)).empty())
      err.push_back("signs: sign " + std::to_string(i + 1) + " is given but input in" + std::to_string(i + 1) +
                    " is not connected");
  return err;
}

// Sum and product: one class, the operation differs.
class NaryOp : public Element {
 public:
  NaryOp(const Component& c, bool product) : Element(c.id), product_(product) {
    if (!product) {
      const auto err = checkSigns(c);
      if (!err.empty()) throw std::runtime_error("data." + err.front());
    }
    std::string signs;
    if (!product && c.data.is_object() && c.data.contains("signs")) signs = c.data["signs"].get<std::string>();
    for (int i = 0; i < kMaxInputs; ++i) {
      refs_[i] = signal::inputRef(c, "in" + std::to_string(i + 1));
      if (!signs.empty()) {
        if (static_cast<size_t>(i) < signs.size())
          weight_[i] = signs[i] == '-' ? -1.0 : 1.0;
        else if (!refs_[i].empty())
          throw std::runtime_error("data.signs: input in" + std::to_string(i + 1) + " is connected but has no sign");
      }
    }
  }
  static ComponentType declare(bool product) {
    ComponentType t;
    t.name = product ? "product" : "sum";
    t.category = "Signal math";
    t.symbol = t.name;
    t.description = product ? "Product: out = in1 in2 ... (connected inputs)"
                            : "Sum: out = sum of in1..in4 with signs from data.signs (\"+-\": in1 - in2)";
    t.inputs = numberedInputs(product ? "factor" : "term");
    t.channels = {{"out", "1", product ? "product of the inputs" : "signed sum of the inputs"}};
    t.create = [product](const Component& c) { return std::make_unique<NaryOp>(c, product); };
    if (!product) t.check_data = checkSigns;
    return t;
  }
  void setup(SystemBuilder& b) override {
    for (int i = 0; i < kMaxInputs; ++i) b.input(in_[i], "inputs.in" + std::to_string(i + 1), refs_[i]);
    b.channel("out", "1");
    b.publish("out", [this](const Eval& e) { return value(e); });
  }
  void evaluate(Eval&) override {}
  void output(const Eval& e, double* ch) override { ch[0] = value(e); }

 private:
  double value(const Eval& e) {
    signal::LoopGuard g(busy_, id());
    double v = product_ ? 1.0 : 0.0;
    for (int i = 0; i < kMaxInputs; ++i) {
      if (!in_[i].connected()) continue;
      v = product_ ? v * in_[i](e) : v + weight_[i] * in_[i](e);
    }
    return v;
  }
  bool product_;
  std::string refs_[kMaxInputs];
  SignalInput in_[kMaxInputs];
  double weight_[kMaxInputs] = {1.0, 1.0, 1.0, 1.0};
  bool busy_ = false;
};

struct Sum {
  static ComponentType declare() { return NaryOp::declare(false); }
};
struct Product {
  static ComponentType declare() { return NaryOp::declare(true); }
};

}  // namespace

PM_REGISTER(Gain)
PM_REGISTER(Sum)
PM_REGISTER(Product)

}  // namespace pm
