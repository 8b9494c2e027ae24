#include "analyses/mode_animation.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace pm {

namespace {

bool endsWith(const std::string& s, const char* tail) {
  const std::string t(tail);
  return s.size() > t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

bool isPosition(const std::string& c) { return endsWith(c, ".x") || endsWith(c, ".y") || endsWith(c, ".z"); }
bool isAngle(const std::string& c) { return endsWith(c, ".roll") || endsWith(c, ".pitch") || endsWith(c, ".yaw"); }
bool isStress(const std::string& c) { return endsWith(c, ".stress") || endsWith(c, ".max_stress"); }

const Mode& modeAt(const ModalResult& r, std::size_t k) {
  if (k >= r.modes.size())
    throw std::out_of_range("mode " + std::to_string(k + 1) + " of " + std::to_string(r.modes.size()));
  return r.modes[k];
}

}  // namespace

ModeMotion modeMotion(const ModalResult& result, std::size_t k) {
  ModeMotion m;
  for (const ChannelAmplitude& c : modeAt(result, k).channels) {
    if (c.unit == "m" && isPosition(c.channel)) m.displacement = std::max(m.displacement, c.amplitude);
    if (c.unit == "rad" && isAngle(c.channel)) m.rotation = std::max(m.rotation, c.amplitude);
  }
  return m;
}

double modeScale(const ModalResult& result, std::size_t k, double size, double length) {
  const ModeMotion m = modeMotion(result, k);
  const double largest = std::max(m.displacement, m.rotation * length);
  return largest > 0 ? size / largest : 0.0;
}

void modeAnimation(const ModalResult& result, std::size_t k, double scale, int frames, ResultStore& out) {
  const Mode& mode = modeAt(result, k);
  if (frames < 1) throw std::invalid_argument("a mode animation needs at least one frame");
  const std::size_t n = result.channels.size();
  // Amplitude and phase per column (0 for the channels the mode leaves still).
  std::vector<double> amp(n, 0.0), phase(n, 0.0);
  std::vector<bool> stress(n, false);
  for (std::size_t c = 0; c < n; ++c) stress[c] = isStress(result.channels[c].name);
  for (const ChannelAmplitude& a : mode.channels) {
    const auto it = std::find_if(result.channels.begin(), result.channels.end(),
                                 [&](const ChannelInfo& ci) { return ci.name == a.channel; });
    if (it == result.channels.end()) continue;
    const auto c = static_cast<std::size_t>(it - result.channels.begin());
    amp[c] = a.amplitude;
    phase[c] = a.phase;
  }
  out.setChannels(result.channels);
  std::vector<double> row(n);
  for (int i = 0; i <= frames; ++i) {
    const double t = static_cast<double>(i) / frames;
    for (std::size_t c = 0; c < n; ++c) {
      const double base = c < result.outputs.size() ? result.outputs[c] : 0.0;
      row[c] = base + scale * amp[c] * std::cos(2.0 * std::numbers::pi * t + phase[c]);
      if (stress[c]) row[c] = std::abs(row[c]);
    }
    out.append(t, row.data());
  }
}

}  // namespace pm
