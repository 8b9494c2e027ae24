#include "results/report_settings.h"

#include "model/project_error.h"
#include "results/key_results.h"

#include <algorithm>
#include <cmath>

namespace pm {

namespace {
const char* const kKnown = "plots, company, logo, cycles_per_minute, parts, modes";
constexpr int kMaxReportModes = 100;

// "modes": N, or {"count": N, "at": T, "static": bool}.
template <class Fail>
void readModes(const nlohmann::json& v, ReportSettings& s, const Fail& fail) {
  auto count = [&](const nlohmann::json& c, const std::string& f) {
    if (!c.is_number_integer() || c.get<long long>() < 0 || c.get<long long>() > kMaxReportModes)
      fail(f, "expected the number of modes to list, 0 to " + std::to_string(kMaxReportModes));
    s.modes = c.get<int>();
  };
  if (!v.is_object()) return count(v, "modes");
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string f = "modes." + it.key();
    const nlohmann::json& x = it.value();
    if (it.key() == "count") {
      count(x, f);
    } else if (it.key() == "at") {
      if (!x.is_number() || !(x.get<double>() >= 0) || !std::isfinite(x.get<double>()))
        fail(f, "expected the operating point's time, 0 or positive [s]");
      s.modesAt = x.get<double>();
    } else if (it.key() == "static") {
      if (!x.is_boolean()) fail(f, "expected true or false");
      s.modesStatic = x.get<bool>();
    } else {
      fail(f, "unknown field (known: count, at, static)");
    }
  }
  if (!v.contains("count")) fail("modes.count", "missing: the number of modes to list");
}

}  // namespace

ReportSettings reportSettings(const Project& project, const std::string& file) {
  ReportSettings s;
  if (!project.extra.is_object() || !project.extra.contains("report")) return s;
  const nlohmann::json& r = project.extra.at("report");
  auto fail = [&](const std::string& field, const std::string& msg) { throw ProjectError(file, "report", field, msg); };
  if (!r.is_object()) fail("", "expected an object with " + std::string(kKnown));
  for (auto it = r.begin(); it != r.end(); ++it) {
    const std::string& k = it.key();
    const nlohmann::json& v = it.value();
    if (k == "plots") {
      if (!v.is_array()) fail(k, "expected a list of plots, each a list of channel names: [[\"cyl1.x\"], ...]");
      for (size_t i = 0; i < v.size(); ++i) {
        const std::string f = "plots[" + std::to_string(i) + "]";
        ReportPlot plot;
        const nlohmann::json* chans = &v[i];
        if (v[i].is_object()) {
          for (auto f2 = v[i].begin(); f2 != v[i].end(); ++f2)
            if (f2.key() != "title" && f2.key() != "channels")
              fail(f + "." + f2.key(), "unknown field (known: title, channels)");
          if (v[i].contains("title")) {
            if (!v[i]["title"].is_string()) fail(f + ".title", "expected a string");
            plot.title = v[i]["title"].get<std::string>();
          }
          if (!v[i].contains("channels")) fail(f + ".channels", "missing: the list of channel names");
          chans = &v[i]["channels"];
        }
        if (!chans->is_array() || chans->empty())
          fail(f, "expected a non-empty list of channel names, or {\"title\": ..., \"channels\": [...]}");
        for (const auto& c : *chans) {
          if (!c.is_string()) fail(f, "channel names must be strings such as \"cyl1.x\"");
          plot.channels.push_back(c.get<std::string>());
        }
        s.plots.push_back(plot);
      }
    } else if (k == "company" || k == "logo") {
      if (!v.is_string()) fail(k, "expected a string");
      (k == "company" ? s.company : s.logo) = v.get<std::string>();
    } else if (k == "cycles_per_minute") {
      if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
        fail(k, "expected a positive number of cycles per minute");
      s.cyclesPerMinute = v.get<double>();
    } else if (k == "parts") {
      if (!v.is_object()) fail(k, "expected an object of component id: part number");
      for (auto p = v.begin(); p != v.end(); ++p) {
        if (!project.find(p.key())) fail(k + "." + p.key(), "no component with this id");
        if (!p.value().is_string()) fail(k + "." + p.key(), "expected the part number as a string");
        s.parts[p.key()] = p.value().get<std::string>();
      }
    } else if (k == "modes") {
      readModes(v, s, fail);
    } else {
      fail(k, "unknown field (known: " + std::string(kKnown) + ")");
    }
  }
  return s;
}

void setReportSettings(Project& project, const ReportSettings& s) {
  if (!project.extra.is_object()) project.extra = nlohmann::json::object();
  nlohmann::json r = nlohmann::json::object();
  if (!s.plots.empty()) {
    nlohmann::json plots = nlohmann::json::array();
    for (const ReportPlot& p : s.plots) {
      if (p.title.empty()) plots.push_back(p.channels);
      else plots.push_back({{"title", p.title}, {"channels", p.channels}});
    }
    r["plots"] = plots;
  }
  if (!s.company.empty()) r["company"] = s.company;
  if (!s.logo.empty()) r["logo"] = s.logo;
  if (s.cyclesPerMinute > 0) r["cycles_per_minute"] = s.cyclesPerMinute;
  if (!s.parts.empty()) r["parts"] = s.parts;
  if (s.modes > 0) {
    if (s.modesAt == 0.0 && !s.modesStatic) r["modes"] = s.modes;
    else r["modes"] = {{"count", s.modes}, {"at", s.modesAt}, {"static", s.modesStatic}};
  }
  if (r.empty()) project.extra.erase("report");
  else project.extra["report"] = r;
}

std::vector<ReportPlot> reportPlots(const Project& project, const ReportSettings& settings) {
  if (!settings.plots.empty()) return settings.plots;
  std::vector<ReportPlot> plots;
  for (const Component& c : project.components) {
    if (!isCylinderType(c.type)) continue;
    plots.push_back({{}, {c.id + ".x"}});
    if (c.type == "cylinder_single")
      plots.push_back({{}, {c.id + ".pA"}});
    else
      plots.push_back({{}, {c.id + ".pA", c.id + ".pB"}});
  }
  return plots;
}

void checkPlotChannels(const ReportSettings& settings, const std::vector<std::string>& channels, const std::string& file) {
  for (size_t i = 0; i < settings.plots.size(); ++i)
    for (const auto& c : settings.plots[i].channels)
      if (std::find(channels.begin(), channels.end(), c) == channels.end())
        throw ProjectError(file, "report", "plots[" + std::to_string(i) + "]",
                           "no result channel " + c + " (`pneumech info` lists them)");
}

}  // namespace pm
