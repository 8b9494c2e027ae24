// Logic gates on signal levels (on above 0.5; outputs 1 or 0):
// - and_gate: 1 when every connected input in1..in4 is on;
// - or_gate:  1 when any connected input is on;
// - not_gate: 1 when `in` is off.
// The output is a discrete state: each input's crossing of 0.5 is a root
// function, so a gate fed by a continuous signal switches at the crossing and
// a gate fed by other logic follows it within the same event.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

namespace pm {

namespace {

enum class Op { And, Or, Not };

class LogicGate : public Element {
 public:
  LogicGate(const Component& c, Op op) : Element(c.id), op_(op) {
    if (op == Op::Not) {
      refs_.push_back(signal::inputRef(c, "in"));
    } else {
      for (int i = 1; i <= 4; ++i) {
        const std::string r = signal::inputRef(c, "in" + std::to_string(i));
        if (!r.empty()) refs_.push_back(r), names_.push_back("in" + std::to_string(i));
      }
    }
    if (op == Op::Not) names_.push_back("in");
  }
  static ComponentType declare(Op op) {
    ComponentType t;
    t.name = op == Op::And ? "and_gate" : op == Op::Or ? "or_gate" : "not_gate";
    t.category = "Logic";
    t.symbol = t.name;
    if (op == Op::Not) {
      t.description = "NOT: out = 1 while in is off (<= 0.5)";
      t.inputs = {{"in", "logic input (on above 0.5)", true}};
    } else {
      t.description = op == Op::And ? "AND: out = 1 while every connected input is on (> 0.5)"
                                    : "OR: out = 1 while any connected input is on (> 0.5)";
      for (int i = 1; i <= 4; ++i) t.inputs.push_back({"in" + std::to_string(i), "logic input (on above 0.5)", i <= 2});
    }
    t.channels = {{"out", "1", "gate output (0 or 1)"}};
    t.create = [op](const Component& c) { return std::make_unique<LogicGate>(c, op); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    in_.resize(refs_.size());  // no reallocation after the compiler has the addresses
    for (size_t i = 0; i < refs_.size(); ++i) b.input(in_[i].in, "inputs." + names_[i], refs_[i]);
    b.roots(static_cast<int>(in_.size()));
    b.channel("out", "1");
    b.publish("out", [this](const Eval&) { return out_ ? 1.0 : 0.0; }, true);
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override {
    for (size_t i = 0; i < in_.size(); ++i) g[i] = in_[i].root(e);
  }
  bool update(const Eval& e) override {
    for (auto& in : in_) in.update(e);
    bool out = op_ == Op::And;
    for (const auto& in : in_) out = op_ == Op::And ? out && in.on : out || in.on;
    if (op_ == Op::Not) out = !in_[0].on;
    if (out == out_) return false;
    out_ = out;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(in_, out_);
    return true;
  }
  void output(const Eval&, double* ch) override { ch[0] = out_ ? 1.0 : 0.0; }

 private:
  Op op_;
  std::vector<std::string> refs_, names_;
  std::vector<signal::LogicInput> in_;
  bool out_ = false;
};

struct AndGate {
  static ComponentType declare() { return LogicGate::declare(Op::And); }
};
struct OrGate {
  static ComponentType declare() { return LogicGate::declare(Op::Or); }
};
struct NotGate {
  static ComponentType declare() { return LogicGate::declare(Op::Not); }
};

}  // namespace

PM_REGISTER(AndGate)
PM_REGISTER(OrGate)
PM_REGISTER(NotGate)

}  // namespace pm
