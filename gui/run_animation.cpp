#include "run_animation.h"

#include "symbol_library.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace pm::gui {

QColor pressureColor(double f) {
  f = std::clamp(f, 0.0, 1.0);
  return QColor::fromHsvF(0.667 * (1.0 - f), 0.85, 0.85 - 0.1 * f);
}

RunAnimation::RunAnimation() = default;
RunAnimation::~RunAnimation() = default;

bool RunAnimation::prepare(const Project& project) {
  ready_ = false;
  lines_.clear();
  valves_.clear();
  rods_.clear();
  lamps_.clear();
  pAmb_ = project.simulation.ambient_pressure;
  try {
    nets_ = std::make_unique<engine::NetMap>(project);
  } catch (const std::exception&) {
    nets_.reset();
    return false;
  }
  std::map<std::string, int> nodeOf;
  const auto& nodes = nets_->nets();
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const std::string& m : nodes[i].members) nodeOf[m] = static_cast<int>(i);
  for (const Connection& k : project.connections) {
    Line l;
    l.connection = k.id;
    auto it = nodeOf.find(k.from.str());
    if (it == nodeOf.end()) it = nodeOf.find(k.to.str());
    if (it == nodeOf.end()) continue;
    l.node = it->second;
    if (!nodes[l.node].boundary) l.channel = nodes[l.node].name + ".p";
    lines_.push_back(l);
  }
  double pMax = 0.0;
  for (const Component& c : project.components) {
    const ComponentType* t = Registry::instance().find(c.type);
    if (!t) continue;
    if (c.type == "supply") pMax = std::max(pMax, paramValue(c, *t, "p") - pAmb_);
    const Symbol& s = SymbolLibrary::instance().symbol(c.type);
    if (t->channels.size() && std::any_of(t->channels.begin(), t->channels.end(), [](const ChannelDecl& d) { return d.quantity == "s"; })) {
      Valve v;
      v.id = c.id;
      const int n = std::max<int>(2, static_cast<int>(s.positions.size()));
      v.rest = s.isValve() ? s.rest : (n == 3 ? 1 : 0);
      v.idx14 = static_cast<int>(s.positions.indexOf("14"));
      v.idx12 = static_cast<int>(s.positions.indexOf("12"));
      if (v.idx14 < 0) v.idx14 = v.rest == 0 ? 1 : 0;
      if (v.idx12 < 0 && n == 3) v.idx12 = 2;
      valves_.push_back(v);
    }
    if (t->param("stroke") && s.travel > 0) rods_.push_back({c.id, std::max(1e-9, paramValue(c, *t, "stroke")), -1});
    if (std::any_of(t->channels.begin(), t->channels.end(), [](const ChannelDecl& d) { return d.quantity == "out"; }))
      lamps_.push_back({c.id, {}, c.id + ".out", -1});
    for (const auto& [input, ref] : c.inputs) lamps_.push_back({c.id, input, ref, -1});
  }
  pMaxGauge_ = pMax > 0 ? pMax : 6e5;
  ready_ = true;
  return true;
}

void RunAnimation::setChannels(const std::vector<std::string>& names) {
  auto col = [&](const std::string& n) {
    auto it = std::find(names.begin(), names.end(), n);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
  };
  for (Line& l : lines_) l.column = l.channel.empty() ? -1 : col(l.channel);
  for (Valve& v : valves_) v.column = col(v.id + ".s");
  for (Rod& r : rods_) r.column = col(r.id + ".x");
  for (Lamp& l : lamps_) l.column = col(l.channel);
}

RunFrame RunAnimation::frame(const std::vector<std::vector<double>>& cols, size_t row, double t) const {
  RunFrame f;
  if (!ready_) return f;
  f.active = true;
  auto value = [&](int c, double& out) {
    if (c < 0 || c >= static_cast<int>(cols.size()) || row >= cols[c].size()) return false;
    out = cols[c][row];
    return std::isfinite(out);
  };
  for (const Line& l : lines_) {
    double p = 0.0;
    bool ok = value(l.column, p);
    if (!ok && l.channel.empty() && nets_) ok = nets_->boundaryPressure(l.node, t, p);
    if (ok) f.lineColor[l.connection] = pressureColor((p - pAmb_) / pMaxGauge_);
  }
  for (const Valve& v : valves_) {
    double s = 0.0;
    if (!value(v.column, s)) continue;
    double active = v.rest;
    if (s >= 0) active = v.rest + s * (v.idx14 - v.rest);
    else if (v.idx12 >= 0) active = v.rest + (-s) * (v.idx12 - v.rest);
    f.spool[v.id] = v.rest - active;
  }
  for (const Rod& r : rods_) {
    double x = 0.0;
    if (value(r.column, x)) f.rod[r.id] = std::clamp(x / r.stroke, 0.0, 1.0);
  }
  for (const Lamp& l : lamps_) {
    double on = 0.0;
    if (!value(l.column, on) || on <= 0.5) continue;
    if (l.input.empty()) f.lit.insert(l.id);
    else f.litInputs[l.id].insert(l.input);
  }
  return f;
}

}  // namespace pm::gui
