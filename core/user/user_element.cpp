#include "user/user_element.h"

#include "element/discrete_state.h"
#include "element/system_builder.h"
#include "pneumatics/actuator_coupling.h"
#include "model/component_type.h"

#include <optional>
#include <stdexcept>

namespace pm::user {

namespace {

class UserElement : public Element {
 public:
  UserElement(const Component& c, std::shared_ptr<const Definition> def)
      : Element(c.id), d_(std::move(def)), v_(static_cast<size_t>(d_->slots), 0.0) {
    Params P(c);
    for (size_t i = 0; i < d_->params.size(); ++i)
      v_[d_->params[i].second] = P(d_->params[i].first) * d_->paramScale[i];
    for (const auto& [slot, value] : d_->constants) v_[slot] = value;
    for (const auto& in : d_->inputs) {
      auto it = c.inputs.find(in.name);
      refs_.push_back(it == c.inputs.end() ? std::string() : it->second);
    }
    inputs_.resize(d_->inputs.size());
    const Definition::Mechanical& m = d_->mech;
    if (m.present)
      coupling_.emplace(c, ActuatorCoupling::Coordinate{m.q.c_str(), "m", m.w.c_str(), "m/s", false, 0.0,
                                                        "user component", "der(v) = force / mass"});
  }

  void setup(SystemBuilder& b) override {
    v_[d_->pAmb] = b.ambientPressure();
    v_[d_->TAmb] = b.ambientTemperature();
    for (const Definition::Variable& var : d_->variables)
      if (var.constant) v_[var.slot] = var.value.run(v_.data(), 0.0);
    if (coupling_) {
      setupMechanical(b);
      if (coupling_->mechanicalSide()) return;  // the force alone (setupMechanical)
    }
    for (const Definition::Port& p : d_->ports) {
      int n = b.port(p.name);
      // An unconnected port is closed by a dead end of its own, so that
      // every expression sees a pressure and a temperature.
      if (n < 0) n = b.internalNode(p.name);
      nodes_.push_back(n);
    }
    for (const Definition::Volume& vol : d_->volumes) {
      const double V0 = vol.V.run(v_.data(), 0.0);
      b.capacity(nodes_[vol.port], id(), V0, vol.p0.run(v_.data(), 0.0), vol.T0.run(v_.data(), 0.0),
                 vol.isothermal.run(v_.data(), 0.0) > 0.5, vol.Twall.run(v_.data(), 0.0));
    }
    disc_.clear();
    for (const Definition::Discrete& d : d_->discretes) disc_.push_back(d.initial.run(v_.data(), 0.0));
    active_.assign(d_->events.size(), false);
    int roots = 0;
    for (const Definition::Event& ev : d_->events) roots += static_cast<int>(ev.comparisons.size());
    if (roots > 0) b.roots(roots);
    for (const Definition::State& s : d_->states)
      slots_.push_back(b.state(s.name, s.unit, s.differential ? StateKind::Differential : StateKind::Algebraic,
                               s.initial.run(v_.data(), 0.0), s.atol, s.rhs.text()));
    for (size_t i = 0; i < d_->inputs.size(); ++i)
      if (!refs_[i].empty()) b.input(inputs_[i], "inputs." + d_->inputs[i].name, refs_[i]);
    out_.assign(d_->outputs.size(), 0.0);
    for (size_t i = 0; i < d_->outputs.size(); ++i) {
      const Definition::Output& o = d_->outputs[i];
      b.channel(o.name, o.unit);
      b.publish(o.name, [this, i](const Eval& e) { return d_->outputs[i].value.run(v_.data(), e.t); });
    }
  }

  void evaluate(Eval& e) override {
    if (mechanicalSide()) {
      coupling_->mechanismResiduals(e);
      return;
    }
    fill(e);
    double* v = v_.data();
    const double t = e.t;
    for (const Definition::Flow& f : d_->flows) e.flow(nodes_[f.from], nodes_[f.to], f.q.run(v, t));
    for (const Definition::Volume& vol : d_->volumes) {
      const int n = nodes_[vol.port];
      e.volume(n, vol.V.run(v, t), vol.hasRate ? vol.dVdt.run(v, t) : 0.0);
      if (vol.hasHeat) e.heat(n, vol.heat.run(v, t));
    }
    for (size_t i = 0; i < d_->states.size(); ++i) {
      const Definition::State& s = d_->states[i];
      const double rhs = s.rhs.run(v, t);
      e.res[slots_[i]] = s.differential ? v[s.der] - rhs : 0.0 - rhs;
    }
    if (coupling_) {
      const Definition::Mechanical& m = d_->mech;
      coupling_->residuals(e, v[m.x], v[m.v], [&] { return m.force.run(v, t) / mass_; });
    }
  }

  // The mechanical port moves like a cylinder's rod (pneumatics/actuator_coupling.h).
  // In a co-simulation the force is evaluated on the mechanical side, with
  // the mechanics' own x, v (a spring or damper in it stays implicit) and
  // the circuit values it reads (ports' p and T, inputs, states, discrete
  // states) sent by the pneumatic side at both ends of each exchange
  // interval and interpolated linearly between them.
  void setupMechanical(SystemBuilder& b) {
    const Definition::Mechanical& m = d_->mech;
    coupling_->begin(b);
    const auto force = [this](const Eval& e) {
      fill(e);
      return d_->mech.force.run(v_.data(), e.t);
    };
    if (coupling_->pneumaticSide() || coupling_->mechanicalSide()) {
      circuitSlots_.clear();
      for (const Definition::Port& p : d_->ports) circuitSlots_.insert(circuitSlots_.end(), {p.p, p.T});
      for (const Definition::Input& in : d_->inputs) circuitSlots_.push_back(in.slot);
      for (const Definition::State& st : d_->states) circuitSlots_.insert(circuitSlots_.end(), {st.slot, st.der});
      for (const Definition::Discrete& d : d_->discretes) circuitSlots_.push_back(d.slot);
      if (coupling_->pneumaticSide())
        coupling_->sendCircuitValues(static_cast<int>(circuitSlots_.size()), [this](const Eval& e, double* out) {
          fill(e);
          for (size_t k = 0; k < circuitSlots_.size(); ++k) out[k] = v_[circuitSlots_[k]];
        });
      // The backplane's pressure force stays 0: the whole force is the mechanical side's.
      coupling_->declareStates(b, m.x0.run(v_.data(), 0.0), [](const Eval&) { return 0.0; }, force);
      return;
    }
    if (!coupling_->attached() && !m.hasMass)
      throw std::runtime_error("mechanical port '" + m.name +
                               "': attach it to the mechanism (data.attach) or give the force a mass");
    mass_ = m.hasMass ? m.mass.run(v_.data(), 0.0) : 0.0;
    if (!coupling_->attached() && !(mass_ > 0.0))
      throw std::runtime_error("mechanical port '" + m.name + "': the mass must be > 0");
    coupling_->declareStates(b, m.x0.run(v_.data(), 0.0), [](const Eval&) { return 0.0; }, force);
  }
  bool mechanicalSide() const { return coupling_ && coupling_->mechanicalSide(); }

  // One root per comparison, lhs - rhs, the events' in order.
  void roots(const Eval& e, double* g) override {
    if (mechanicalSide()) return;  // events are the circuit side's
    fill(e);
    for (const Definition::Event& ev : d_->events)
      for (const Definition::Comparison& c : ev.comparisons) *g++ = difference(c, e.t);
  }

  // An event fires when its condition turns true (at a root of one of its
  // comparisons, whose tie at the root counts as reached); at the start it
  // is only noted.
  bool update(const Eval& e) override {
    if (d_->events.empty() || mechanicalSide()) return false;
    fill(e);
    bool changed = false;
    std::vector<char> truth;
    for (size_t i = 0; i < d_->events.size(); ++i) {
      const Definition::Event& ev = d_->events[i];
      truth.clear();
      for (const Definition::Comparison& c : ev.comparisons) {
        const double g = difference(c, e.t);
        const bool strictNow = c.rising ? (c.strict ? g > 0.0 : g >= 0.0) : (c.strict ? g < 0.0 : g <= 0.0);
        truth.push_back(e.initializing ? strictNow : (c.rising ? g >= 0.0 : g <= 0.0));
      }
      const bool now = conditionHolds(ev.condition, truth);
      if (now && !active_[i] && !e.initializing) {
        std::vector<double> values;  // every value from the state before the event
        for (const auto& [k, value] : ev.set) values.push_back(value.run(v_.data(), e.t));
        for (size_t j = 0; j < ev.set.size(); ++j) disc_[static_cast<size_t>(ev.set[j].first)] = values[j];
        changed = true;
        fill(e);
      }
      active_[i] = now;
    }
    return changed;
  }
  bool discrete(DiscreteState& s) override {
    s(disc_, active_);
    return true;
  }

  // The value array for `e`: ports, inputs, states, discrete states, variables
  // (on a co-simulation's mechanical side the circuit's from the backplane).
  void fill(const Eval& e) {
    double* v = v_.data();
    const double t = e.t;
    v[d_->time] = t;
    if (mechanicalSide()) {
      for (size_t k = 0; k < circuitSlots_.size(); ++k) v[circuitSlots_[k]] = coupling_->circuitValue(static_cast<int>(k), t);
      coupling_->motion(e, v[d_->mech.x], v[d_->mech.v]);
      for (const Definition::Variable& var : d_->variables)
        if (!var.constant) v[var.slot] = var.value.run(v, t);
      return;
    }
    for (size_t i = 0; i < d_->ports.size(); ++i) {
      v[d_->ports[i].p] = e.p(nodes_[i]);
      v[d_->ports[i].T] = e.T(nodes_[i]);
    }
    for (size_t i = 0; i < d_->inputs.size(); ++i) v[d_->inputs[i].slot] = inputs_[i](e);
    for (size_t i = 0; i < d_->states.size(); ++i) {
      v[d_->states[i].slot] = e.y[slots_[i]];
      v[d_->states[i].der] = e.yp[slots_[i]];
    }
    if (coupling_) coupling_->motion(e, v[d_->mech.x], v[d_->mech.v]);
    for (size_t i = 0; i < d_->discretes.size(); ++i) v[d_->discretes[i].slot] = disc_[i];
    for (const Definition::Variable& var : d_->variables)
      if (!var.constant) v[var.slot] = var.value.run(v, t);
  }
  double difference(const Definition::Comparison& c, double t) const {
    return c.lhs.run(v_.data(), t) - c.rhs.run(v_.data(), t);
  }

  void output(const Eval& e, double* ch) override {
    if (mechanicalSide()) return;  // no channels of its own there
    for (size_t i = 0; i < d_->outputs.size(); ++i) ch[i] = d_->outputs[i].value.run(v_.data(), e.t);
  }

 private:
  std::shared_ptr<const Definition> d_;
  std::vector<double> v_;  // the values of the last evaluation, by slot
  std::vector<std::string> refs_;
  std::vector<SignalInput> inputs_;
  std::vector<int> nodes_, slots_;
  std::vector<double> disc_;   // discrete states, by Definition::discretes
  std::vector<bool> active_;   // each event's condition as last seen
  std::optional<ActuatorCoupling> coupling_;  // with a mechanical port
  std::vector<int> circuitSlots_;  // co-simulation: the slots the circuit side sends
  double mass_ = 0.0;
  std::vector<double> out_;
};

}  // namespace

std::unique_ptr<Element> makeElement(const Component& c, std::shared_ptr<const Definition> def) {
  return std::make_unique<UserElement>(c, std::move(def));
}

}  // namespace pm::user
