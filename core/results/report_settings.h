// The project's "report" section (kept in Project::extra until the file
// format owns it): which plots the PDF report shows, the company name and
// logo on its title page, and the cycle rate the air consumption per minute
// is stated at.
//
//   "report": {
//     "plots": [["cyl1.x"],                            // one list of channels per plot,
//               {"title": "Chamber pressures",         // or with a title of its own
//                "channels": ["cyl1.pA", "cyl1.pB"]}],
//     "company": "ACME Automation",
//     "logo": "logo.png",                              // relative to the project file
//     "cycles_per_minute": 30,
//     "parts": {"cyl1": "DSBC-32-100-PPVA-N3"},        // part numbers of chosen catalogue entries
//     "modes": 6                                       // a table of the lowest 6 oscillating modes,
//     // or {"count": 6, "at": 0.5, "static": true}: about the state at 0.5 s, or the static
//     // equilibrium from there (`pneumech modal --at 0.5 --static`)
//   }
//
// Every field is optional. Without "plots" the report shows, per cylinder,
// its position and its chamber pressures. "logo" is read from files written
// before the project properties had one (meta.logo, which wins when set).
#pragma once

#include "model/project.h"

#include <map>
#include <string>
#include <vector>

namespace pm {

struct ReportPlot {
  std::string title;                  // empty: named after its channels
  std::vector<std::string> channels;  // at least one
  bool operator==(const ReportPlot&) const = default;
};

struct ReportSettings {
  std::vector<ReportPlot> plots;  // empty: the default plots
  std::string company;
  std::string logo;              // as written in the file
  double cyclesPerMinute = 0.0;  // 0: not stated
  std::map<std::string, std::string> parts;  // component id -> part number
  int modes = 0;               // oscillating modes tabulated (0: no modes section)
  double modesAt = 0.0;        // their operating point: the run's state at this time [s]
  bool modesStatic = false;    // or the static equilibrium found from there
  bool operator==(const ReportSettings&) const = default;
};

// Parses project.extra["report"]; throws ProjectError naming `file`, the
// "report" object and the field on bad input. Channels are not checked here
// (the compiled system knows them): see checkPlotChannels.
ReportSettings reportSettings(const Project& project, const std::string& file = {});

// Writes `settings` as project.extra["report"] (removed when all fields are
// empty), the form reportSettings reads back.
void setReportSettings(Project& project, const ReportSettings& settings);

// The plots to draw: the settings' own, else per cylinder [x] and [pA, pB].
std::vector<ReportPlot> reportPlots(const Project& project, const ReportSettings& settings);

// Throws ProjectError for a plot channel that is not in `channels`.
void checkPlotChannels(const ReportSettings& settings, const std::vector<std::string>& channels,
                       const std::string& file = {});

}  // namespace pm
