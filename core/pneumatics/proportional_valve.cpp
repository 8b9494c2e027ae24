// Proportional 5/3 directional valve (servo-pneumatics, seed 002 §4): ports
// 1 supply, 4 and 2 working, 5 and 3 exhaust (ISO 5599-3).
//
// Command: signal input `u`, normalised to -1..1 (values beyond are clamped;
// a 0..10 V valve reads u = (V - 5)/5): +1 drives the spool fully to side 14
// (1->4 and 2->3 open), -1 fully to side 12 (1->2 and 4->5 open), 0 centres
// it (spring-centred; a valve without command sits in the centre).
// Spool: position x (normalised stroke, same scale as u) as a second-order
// system, x'' = wn^2 (u - x) - 2 zeta wn x', wn = 2 pi f_n; x(0) = x'(0) = 0.
// Two differential states (x, v = x'). The spool is not stopped at +-1; the
// openings are clamped there.
// Held command (u from a sampled block, ComponentType::held_outputs: it
// changes only at events): the equation is linear with a constant input
// between two events, so the spool is solved exactly instead, from the
// values (x_k, v_k) and the command u_k taken at the last event t_k:
//   x = u_k + e^(-s tau) ((x_k - u_k) C + (v_k + s (x_k - u_k)) S),
//   v = e^(-s tau) (v_k C - (s v_k + wn^2 (x_k - u_k)) S),
// tau = t - t_k, s = zeta wn, C = cos(w tau), S = sin(w tau)/w with
// w^2 = wn^2 (1 - zeta^2) (cosh, sinh for zeta > 1, 1 and tau at zeta = 1).
// No states then: a controller sample steps the spool's acceleration, which
// as a state of the DAE costs IDA an error test failure and a climb from
// order 1 after every sample (many steps per sample; see
// docs/decisions/0010-sampled-controllers-stop-at-instants.md).
// Openings: each path opens when the spool passes the overlap edge,
//   o = clamp((s - overlap) / (1 - overlap), 0, 1),
// with s = x for 1->4 and 2->3, s = -x for 1->2 and 4->5. overlap > 0 is a
// positive overlap (dead band: all paths closed for |x| < overlap), overlap
// < 0 an underlap (all paths slightly open at centre). The overlap edges
// (x = +-overlap) are root functions, so IDA restarts where a path starts to
// open. The clamps at full opening (|x| = 1) and of the command (|u| = 1)
// are not: a spool or command resting exactly there (a saturated
// controller) would hold a root function at zero; a kink in the forcing of
// the second-order spool is mild for IDA.
// Flow per path by ISO 6358 (flow::iso6358, m = 0.5) with
//   C = C_leak + C_path(o),  b = b_path(o):
// C_leak is the leakage every path keeps (the flow at centre with overlap).
// C_path and b_path are tables over the opening o, data.opening and
// data.paths["1-4"|"4-5"|"1-2"|"2-3"] = {"C": [...], "b": [...] or number},
// read as data.interpolation says (model/table.h; default monotone_cubic:
// C1, exact at the table points, no overshoot; the table points are not
// events, so step and linear put jumps and kinks in the flow the integrator
// steps across); a path without a table opens linearly,
// C_path = o C_supply (paths from 1) or o C_exhaust (paths to 3, 5), with a
// constant b.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "model/table.h"
#include "pneumatics/flow.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace pm {

namespace {

using nlohmann::json;

struct PathDef {
  const char* key;   // in data.paths
  const char* from;  // ports
  const char* to;
  int direction;  // +1: opens for x > 0, -1: for x < 0
  bool exhaust;
};
constexpr std::array<PathDef, 4> kPaths = {{{"1-4", "1", "4", +1, false},
                                            {"4-5", "4", "5", -1, true},
                                            {"1-2", "1", "2", -1, false},
                                            {"2-3", "2", "3", +1, true}}};

std::vector<std::string> checkData(const json& d) {
  if (d.is_null()) return {};
  if (!d.is_object())
    return {"expected an object {\"opening\": [...], \"paths\": {\"1-4\": {\"C\": [...], \"b\": ...}}}"};
  std::vector<std::string> err;
  for (auto it = d.begin(); it != d.end(); ++it)
    if (it.key() != "opening" && it.key() != "paths" && it.key() != "interpolation")
      err.push_back(it.key() + ": unknown field");
  if (const std::string e = checkInterpolationField(d); !e.empty()) err.push_back(e);
  size_t n = 0;
  if (!d.contains("opening") || !d["opening"].is_array() || d["opening"].size() < 2) {
    err.push_back("opening: expected an array of at least 2 openings in [0, 1], increasing");
  } else {
    n = d["opening"].size();
    double prev = -1.0;
    for (size_t i = 0; i < n; ++i) {
      const json& o = d["opening"][i];
      const std::string f = "opening[" + std::to_string(i) + "]";
      if (!o.is_number() || o.get<double>() < 0.0 || o.get<double>() > 1.0)
        err.push_back(f + ": expected a number in [0, 1]");
      else if (!(o.get<double>() > prev))
        err.push_back(f + ": openings must increase strictly");
      else
        prev = o.get<double>();
    }
  }
  if (!d.contains("paths") || !d["paths"].is_object()) {
    err.push_back("paths: expected an object with tables for \"1-4\", \"4-5\", \"1-2\", \"2-3\"");
    return err;
  }
  for (auto it = d["paths"].begin(); it != d["paths"].end(); ++it) {
    const std::string f = "paths." + it.key();
    if (std::none_of(kPaths.begin(), kPaths.end(), [&](const PathDef& p) { return it.key() == p.key; })) {
      err.push_back(f + ": unknown path (expected \"1-4\", \"4-5\", \"1-2\" or \"2-3\")");
      continue;
    }
    const json& p = it.value();
    if (!p.is_object() || !p.contains("C")) {
      err.push_back(f + ": expected {\"C\": [...], \"b\": [...] or a number}");
      continue;
    }
    for (auto jt = p.begin(); jt != p.end(); ++jt)
      if (jt.key() != "C" && jt.key() != "b") err.push_back(f + "." + jt.key() + ": unknown field");
    auto column = [&](const char* name, double lo, double hi, bool scalarOk) {
      if (!p.contains(name)) return;
      const json& c = p[name];
      const std::string fc = f + "." + name;
      if (scalarOk && c.is_number()) {
        if (c.get<double>() < lo || c.get<double>() >= hi) err.push_back(fc + ": out of range");
        return;
      }
      if (!c.is_array() || c.size() != n) {
        err.push_back(fc + ": expected an array with one value per opening (" + std::to_string(n) + ")");
        return;
      }
      for (size_t i = 0; i < n; ++i)
        if (!c[i].is_number() || c[i].get<double>() < lo || c[i].get<double>() >= hi)
          err.push_back(fc + "[" + std::to_string(i) + "]: expected a number in [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + ")");
    };
    column("C", 0.0, 1e-3, false);
    column("b", 0.0, 1.0, true);
  }
  return err;
}

class ProportionalValve : public Element {
 public:
  explicit ProportionalValve(const Component& c) : Element(c.id) {
    const auto err = checkData(c.data);
    if (!err.empty()) throw std::runtime_error("data." + err.front());
    Params P(c);
    wn_ = 2.0 * std::numbers::pi * P("f_n");
    zeta_ = P("zeta");
    overlap_ = P("overlap");
    leak_ = P("C_leak");
    auto it = c.inputs.find("u");
    if (it != c.inputs.end()) ref_ = it->second;
    for (size_t k = 0; k < kPaths.size(); ++k) {
      Path& p = paths_[k];
      const PathDef& d = kPaths[k];
      p.def = &d;
      const double Cmax = P(d.exhaust ? "C_exhaust" : "C_supply"), b = P(d.exhaust ? "b_exhaust" : "b_supply");
      std::vector<double> o = {0.0, 1.0}, C = {0.0, Cmax}, bs = {b, b};
      Interpolation mode = Interpolation::MonotoneCubic;  // two points: the straight line
      if (c.data.is_object() && c.data["paths"].contains(d.key)) {
        mode = interpolationField(c.data);
        const json& t = c.data["paths"][d.key];
        o = c.data["opening"].get<std::vector<double>>();
        C = t["C"].get<std::vector<double>>();
        bs.assign(o.size(), b);
        if (t.contains("b"))
          bs = t["b"].is_number() ? std::vector<double>(o.size(), t["b"].get<double>())
                                  : t["b"].get<std::vector<double>>();
      }
      p.C = Table(o, C, mode);
      p.b = Table(o, bs, mode);
    }
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "valve_5_3_proportional";
    t.category = "Directional valves";
    t.symbol = t.name;
    t.description =
        "Proportional 5/3-way valve: spool follows the command u (-1..1) as a second-order system; "
        "C and b per path from tables over the opening; overlap and centre leakage";
    t.ports = {{"1", Domain::Pneumatic, "supply"},
               {"2", Domain::Pneumatic, "working port (open to 1 for u < 0)"},
               {"4", Domain::Pneumatic, "working port (open to 1 for u > 0)"},
               {"3", Domain::Pneumatic, "exhaust of 2 (vents when left open)", true},
               {"5", Domain::Pneumatic, "exhaust of 4 (vents when left open)", true}};
    t.params = {
        {"C_supply", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "sonic conductance 1->4, 1->2 fully open (no table)"},
        {"b_supply", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio 1->4, 1->2 (no table)"},
        {"C_exhaust", "m3/(s Pa)", 1.2e-8, 0.0, 1e-3, true, false,
         "sonic conductance 4->5, 2->3 fully open (no table)"},
        {"b_exhaust", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio 4->5, 2->3 (no table)"},
        {"C_leak", "m3/(s Pa)", 2e-11, 0.0, 1e-3, false, false,
         "leakage conductance every path keeps (centre leakage)"},
        {"overlap", "1", 0.05, -0.5, 0.5, false, false,
         "spool overlap as a fraction of the stroke (> 0: dead band, < 0: underlap)"},
        {"f_n", "Hz", 100.0, 0.0, 1e4, true, false, "natural frequency of the spool dynamics"},
        {"zeta", "1", 0.7, 0.0, 10.0, true, false, "damping ratio of the spool dynamics"},
    };
    t.inputs = {{"u", "command -1..1 (+1: 1->4 and 2->3 fully open, -1: 1->2 and 4->5; 0..10 V: (V - 5)/5)", true}};
    t.channels = {{"x", "1", "spool position (-1..1, normalised stroke)"},
                  {"v", "1/s", "spool velocity"},
                  {"u", "1", "command after clamping to -1..1"}};
    for (const PathDef& d : kPaths)
      t.channels.push_back({std::string("q_") + d.from + "_" + d.to, "kg/s", "mass flow on the path"});
    t.create = [](const Component& c) { return std::make_unique<ProportionalValve>(c); };
    t.check_data = [](const Component& c) { return checkData(c.data); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    for (Path& p : paths_) {
      p.from = b.port(p.def->from);
      p.to = b.port(p.def->to);
    }
    b.input(u_, "inputs.u", ref_);
    exact_ = b.held(ref_);
    b.roots(2);
    b.channel("x", "1");
    b.channel("v", "1/s");
    b.channel("u", "1");
    for (const Path& p : paths_) b.channel(std::string("q_") + p.def->from + "_" + p.def->to, "kg/s");
    if (exact_) {
      b.publish("x", [this](const Eval& e) { return spool(e.t).x; });
      return;
    }
    // The spool position is normalised to full opening, so its absolute
    // tolerance is the run's relative one (a fixed 1e-9 made a servo loop at
    // rel_tol 1e-6 resolve every command step's spool transient far finer
    // than the rest of the run).
    xs_ = b.state("x", "1", StateKind::Differential, 0.0, b.relTol(), "dx/dt - v   [spool position]");
    vs_ = b.state("v", "1/s", StateKind::Differential, 0.0, b.relTol() * wn_,
                  "dv/dt - (wn^2 (u - x) - 2 zeta wn v)   [spool, second order]");
    b.publish("x", [this](const Eval& e) { return e.y[xs_]; });
  }

  void evaluate(Eval& e) override {
    const Spool sp = state(e);
    const double x = sp.x;
    if (!exact_) {
      e.res[xs_] = e.yp[xs_] - sp.v;
      e.res[vs_] = e.yp[vs_] - (wn_ * wn_ * (command(e) - x) - 2.0 * zeta_ * wn_ * sp.v);
    }
    for (Path& p : paths_) {
      const double o = std::clamp((p.def->direction * x - overlap_) / (1.0 - overlap_), 0.0, 1.0);
      double C = 0.0, b = 0.0;
      if (p.from >= 0 && p.to >= 0) p.read(o, C, b);
      p.q = (p.from < 0 || p.to < 0)
                ? 0.0
                : flow::iso6358(leak_ + C, b, 0.5, e.p(p.from), e.T(p.from), e.p(p.to), e.T(p.to));
      e.flow(p.from, p.to, p.q);
    }
  }

  // Held command: a new segment of the exact solution from here (every
  // event; the command may have changed). Nothing else reads the segment.
  bool update(const Eval& e) override {
    if (!exact_) return false;
    if (e.initializing) {
      seg_ = {e.t, 0.0, 0.0, 0.0};  // x(0) = x'(0) = 0
    } else if (e.t != seg_.t) {
      const Spool now = spool(e.t);
      seg_.t = e.t, seg_.x = now.x, seg_.v = now.v;
    }
    seg_.u = command(e);
    return false;
  }

  bool discrete(DiscreteState& s) override {
    s(seg_.t, seg_.x, seg_.v, seg_.u);  // unused (constant) without a held command
    return true;
  }

  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override {
    const double x = state(e).x;
    g[0] = x - overlap_;
    g[1] = x + overlap_;
  }

  void output(const Eval& e, double* ch) override {
    const Spool sp = state(e);
    ch[0] = sp.x;
    ch[1] = sp.v;
    ch[2] = command(e);
    for (size_t k = 0; k < paths_.size(); ++k) ch[3 + k] = paths_[k].q;
  }

 private:
  struct Spool {
    double x, v;
  };
  double command(const Eval& e) const { return std::clamp(u_(e), -1.0, 1.0); }
  Spool state(const Eval& e) const { return exact_ ? spoolAt(e.t) : Spool{e.y[xs_], e.y[vs_]}; }
  // spool(t), kept for the last instant and segment asked: a step's Newton
  // iterations, its Jacobian and its root check all ask at the same t.
  Spool spoolAt(double t) const {
    const Segment& s = last_.seg;
    if (t != last_.t || s.t != seg_.t || s.x != seg_.x || s.v != seg_.v || s.u != seg_.u)
      last_ = {t, seg_, spool(t)};
    return last_.value;
  }
  // The exact solution on the current segment (held command, see the top).
  Spool spool(double t) const {
    const double tau = t - seg_.t;
    if (tau == 0.0) return {seg_.x, seg_.v};  // bit for bit the values carried over at the event
    const double s = zeta_ * wn_, q = wn_ * wn_ * (1.0 - zeta_ * zeta_), e0 = seg_.x - seg_.u;
    double eC, eS;  // e^(-s tau) C and e^(-s tau) S
    if (std::abs(q) * tau * tau < 1e-6) {  // near critical damping: series (relative error < 1e-13)
      const double a = q * tau * tau, ex = std::exp(-s * tau);
      eC = ex * (1.0 - a / 2.0 + a * a / 24.0);
      eS = ex * tau * (1.0 - a / 6.0 + a * a / 120.0);
    } else if (q > 0.0) {
      const double w = std::sqrt(q), ex = std::exp(-s * tau);
      eC = ex * std::cos(w * tau);
      eS = ex * std::sin(w * tau) / w;
    } else {  // overdamped: e^(-s tau) cosh(w tau) as exponentials (no overflow for long holds)
      const double w = std::sqrt(-q), slow = std::exp((w - s) * tau), fast = std::exp(-(w + s) * tau);
      eC = 0.5 * (slow + fast);
      eS = w * tau < 1e-3 ? std::exp(-s * tau) * std::sinh(w * tau) / w : 0.5 * (slow - fast) / w;
    }
    return {seg_.u + e0 * eC + (seg_.v + s * e0) * eS, seg_.v * eC - (s * seg_.v + wn_ * wn_ * e0) * eS};
  }
  struct Segment {
    double t, x, v, u;
  };
  struct Path {
    const PathDef* def = nullptr;
    Table C, b;              // over the opening
    int from = -1, to = -1;  // nodes
    double q = 0.0;
    // C(o) and b(o), the values Table::operator() gives: both tables have
    // the same openings, so one search serves both, and a closed or fully
    // open path (most of them at any time) reads its end values without a
    // call into the table.
    void read(double o, double& Co, double& bo) const {
      const std::vector<double>& xs = C.x();
      if (o <= xs.front()) {
        Co = C.front(), bo = b.front();
      } else if (o >= xs.back()) {
        Co = C.back(), bo = b.back();
      } else {
        const auto i = static_cast<size_t>(C.segmentOf(o));
        Co = C.segment(i, o), bo = b.segment(i, o);
      }
    }
  };
  std::array<Path, 4> paths_;
  double wn_, zeta_, overlap_, leak_;
  std::string ref_;
  SignalInput u_;
  int xs_ = -1, vs_ = -1;
  bool exact_ = false;  // held command: the spool is solved exactly, no states
  Segment seg_{0.0, 0.0, 0.0, 0.0};
  struct SpoolAt {
    double t;
    Segment seg;
    Spool value;
  };
  mutable SpoolAt last_{std::numeric_limits<double>::quiet_NaN(), {}, {}};
};

}  // namespace

PM_REGISTER(ProportionalValve)

}  // namespace pm
