#include "results/report_settings.h"

#include "model/project_error.h"
#include "results/key_results.h"

#include <algorithm>

namespace pm {

ReportSettings reportSettings(const Project& project, const std::string& file) {
  ReportSettings s;
  if (!project.extra.is_object() || !project.extra.contains("report")) return s;
  const nlohmann::json& r = project.extra.at("report");
  auto fail = [&](const std::string& field, const std::string& msg) { throw ProjectError(file, "report", field, msg); };
  if (!r.is_object()) fail("", "expected an object with plots, company, logo, cycles_per_minute");
  for (auto it = r.begin(); it != r.end(); ++it) {
    const std::string& k = it.key();
    const nlohmann::json& v = it.value();
    if (k == "plots") {
      if (!v.is_array()) fail(k, "expected a list of plots, each a list of channel names: [[\"cyl1.x\"], ...]");
      for (size_t i = 0; i < v.size(); ++i) {
        const std::string f = "plots[" + std::to_string(i) + "]";
        if (!v[i].is_array() || v[i].empty()) fail(f, "expected a non-empty list of channel names");
        std::vector<std::string> plot;
        for (const auto& c : v[i]) {
          if (!c.is_string()) fail(f, "channel names must be strings such as \"cyl1.x\"");
          plot.push_back(c.get<std::string>());
        }
        s.plots.push_back(plot);
      }
    } else if (k == "company" || k == "logo") {
      if (!v.is_string()) fail(k, "expected a string");
      (k == "company" ? s.company : s.logo) = v.get<std::string>();
    } else if (k == "cycles_per_minute") {
      if (!v.is_number() || v.get<double>() <= 0) fail(k, "expected a positive number of cycles per minute");
      s.cyclesPerMinute = v.get<double>();
    } else {
      fail(k, "unknown field (known: plots, company, logo, cycles_per_minute)");
    }
  }
  return s;
}

std::vector<std::vector<std::string>> reportPlots(const Project& project, const ReportSettings& settings) {
  if (!settings.plots.empty()) return settings.plots;
  std::vector<std::vector<std::string>> plots;
  for (const Component& c : project.components) {
    if (!isCylinderType(c.type)) continue;
    plots.push_back({c.id + ".x"});
    if (c.type == "cylinder_single")
      plots.push_back({c.id + ".pA"});
    else
      plots.push_back({c.id + ".pA", c.id + ".pB"});
  }
  return plots;
}

void checkPlotChannels(const ReportSettings& settings, const std::vector<std::string>& channels, const std::string& file) {
  for (size_t i = 0; i < settings.plots.size(); ++i)
    for (const auto& c : settings.plots[i])
      if (std::find(channels.begin(), channels.end(), c) == channels.end())
        throw ProjectError(file, "report", "plots[" + std::to_string(i) + "]",
                           "no result channel " + c + " (`pneumech info` lists them)");
}

}  // namespace pm
