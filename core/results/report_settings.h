// The project's "report" section (kept in Project::extra until the file
// format owns it): which plots the PDF report shows, the company name and
// logo on its title page, and the cycle rate the air consumption per minute
// is stated at.
//
//   "report": {
//     "plots": [["cyl1.x"], ["cyl1.pA", "cyl1.pB"]],   // one list of channels per plot
//     "company": "ACME Automation",
//     "logo": "logo.png",                              // relative to the project file
//     "cycles_per_minute": 30
//   }
//
// Every field is optional. Without "plots" the report shows, per cylinder,
// its position and its chamber pressures.
#pragma once

#include "model/project.h"

#include <string>
#include <vector>

namespace pm {

struct ReportSettings {
  std::vector<std::vector<std::string>> plots;  // empty: the default plots
  std::string company;
  std::string logo;              // as written in the file
  double cyclesPerMinute = 0.0;  // 0: not stated
};

// Parses project.extra["report"]; throws ProjectError naming `file`, the
// "report" object and the field on bad input. Channels are not checked here
// (the compiled system knows them): see checkPlotChannels.
ReportSettings reportSettings(const Project& project, const std::string& file = {});

// The plots to draw: the settings' own, else per cylinder [x] and [pA, pB].
std::vector<std::vector<std::string>> reportPlots(const Project& project, const ReportSettings& settings);

// Throws ProjectError for a plot channel that is not in `channels`.
void checkPlotChannels(const ReportSettings& settings, const std::vector<std::string>& channels,
                       const std::string& file = {});

}  // namespace pm
