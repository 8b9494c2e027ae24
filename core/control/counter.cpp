// Up counter (CTU, IEC 61131-3): counts rising edges of `in` (crossings of
// 0.5 upwards; a level already on at t = 0 is not an edge). While `reset` is
// on the count is held at 0. out = 1 once count >= preset.
// The edges are found by a root on the input; the count at an event is
// computed from the count before it, so the repeated update passes of one
// event count an edge once.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

#include <cmath>
#include <limits>

namespace pm {

namespace {

class Counter : public Element {
 public:
  explicit Counter(const Component& c)
      : Element(c.id), ref_(signal::inputRef(c, "in")), resetRef_(signal::inputRef(c, "reset")) {
    preset_ = Params(c)("preset");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "counter";
    t.category = "Signals";
    t.symbol = "counter";
    t.description = "Counter: counts rising edges of in; held at 0 while reset is on; out = 1 when count >= preset";
    t.params = {{"preset", "1", 1.0, 0.0, 1e15, false, false, "count at which out turns on"}};
    t.inputs = {{"in", "counted signal (an edge is a rise above 0.5)", true},
                {"reset", "while on (> 0.5) the count is held at 0", false}};
    t.channels = {{"count", "1", "rising edges counted since the start or the last reset"},
                  {"out", "1", "1 when count >= preset"}};
    t.create = [](const Component& c) { return std::make_unique<Counter>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(in_.in, "inputs.in", ref_);
    b.input(reset_.in, "inputs.reset", resetRef_);
    b.roots(2);
    b.channel("count", "1");
    b.channel("out", "1");
    b.publish("count", [this](const Eval&) { return count_; }, true);
    b.publish("out", [this](const Eval&) { return done(); }, true);
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override {
    g[0] = in_.root(e);
    g[1] = reset_.root(e);
  }
  bool update(const Eval& e) override {
    if (e.t != tEvent_) {
      tEvent_ = e.t;
      countBefore_ = count_;
    }
    in_.update(e);
    reset_.update(e);
    double count = countBefore_ + (in_.rose() && !e.initializing ? 1.0 : 0.0);
    if (reset_.on) count = 0.0;
    if (count == count_) return false;
    count_ = count;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(in_, reset_, count_, countBefore_, tEvent_);
    return true;
  }
  void output(const Eval&, double* ch) override {
    ch[0] = count_;
    ch[1] = done();
  }

 private:
  double done() const { return count_ >= preset_ ? 1.0 : 0.0; }
  std::string ref_, resetRef_;
  signal::LogicInput in_, reset_;
  double preset_;
  double count_ = 0.0, countBefore_ = 0.0;
  double tEvent_ = -std::numeric_limits<double>::infinity();
};

}  // namespace

PM_REGISTER(Counter)

}  // namespace pm
