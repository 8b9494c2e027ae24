// SR flip-flop (memory, latch; the self-holding relay circuit of
// electro-pneumatics): q turns on while `set` is on and off while `reset` is
// on, and keeps its state while both are off. With both on, the reset wins
// (reset_dominant = 1, RS) or the set wins (0, SR). q starts at q0.
// Inputs are levels (on above 0.5) with roots at their crossings.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

namespace pm {

namespace {

class SrFlipFlop : public Element {
 public:
  explicit SrFlipFlop(const Component& c)
      : Element(c.id), setRef_(signal::inputRef(c, "set")), resetRef_(signal::inputRef(c, "reset")) {
    Params P(c);
    resetDominant_ = P("reset_dominant") > 0.5;
    q_ = P("q0") > 0.5;
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "sr_flip_flop";
    t.category = "Logic";
    t.symbol = "sr_flip_flop";
    t.description = "SR flip-flop: q on while set is on, off while reset is on, kept otherwise";
    t.params = {{"reset_dominant", "1", 1.0, 0.0, 1.0, false, false, "1: reset wins when both are on; 0: set wins"},
                {"q0", "1", 0.0, 0.0, 1.0, false, false, "initial state (used when neither input is on at t = 0)"}};
    t.inputs = {{"set", "set input (on above 0.5)", true}, {"reset", "reset input (on above 0.5)", true}};
    t.channels = {{"q", "1", "state"}, {"nq", "1", "inverted state"}};
    t.create = [](const Component& c) { return std::make_unique<SrFlipFlop>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(set_.in, "inputs.set", setRef_);
    b.input(reset_.in, "inputs.reset", resetRef_);
    b.roots(2);
    b.channel("q", "1");
    b.channel("nq", "1");
    b.publish("q", [this](const Eval&) { return q_ ? 1.0 : 0.0; }, true);
    b.publish("nq", [this](const Eval&) { return q_ ? 0.0 : 1.0; }, true);
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override {
    g[0] = set_.root(e);
    g[1] = reset_.root(e);
  }
  bool update(const Eval& e) override {
    set_.update(e);
    reset_.update(e);
    bool q = q_;
    if (set_.on && reset_.on)
      q = !resetDominant_;
    else if (set_.on)
      q = true;
    else if (reset_.on)
      q = false;
    if (q == q_) return false;
    q_ = q;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(set_, reset_, q_);
    return true;
  }
  void output(const Eval&, double* ch) override {
    ch[0] = q_ ? 1.0 : 0.0;
    ch[1] = q_ ? 0.0 : 1.0;
  }

 private:
  std::string setRef_, resetRef_;
  signal::LogicInput set_, reset_;
  bool resetDominant_, q_;
};

}  // namespace

PM_REGISTER(SrFlipFlop)

}  // namespace pm
