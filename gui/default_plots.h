// The plots a run shows before the user picks channels (issue 25 point 4):
// a circuit's pressures and the positions of what moves; a mechanism alone,
// its project's "report" plots or its parts' positions, velocities and
// contact forces. Only axes that move are plotted: while a run has rows, a
// channel whose range is below kStillFraction of the largest in its pane is
// left out; before anything has moved, the model says which world axes each
// part's joint lets it move along.
#pragma once

#include "model/project.h"

#include <map>
#include <string>
#include <vector>

namespace pm::gui {

class ResultBuffer;

// Less than this share of the pane's largest range is a flat line at the
// pane's scale: not worth a curve.
inline constexpr double kStillFraction = 0.01;

// What the choice needs of the project, taken when it is set (not on each row).
struct DefaultPlotModel {
  // The project's own "report" plots (channel lists).
  std::vector<std::vector<std::string>> reportPlots;
  // Part id -> the world axes it can move along ("xz"; "" for a part fixed
  // to the ground). Parts not listed may move along all three.
  std::map<std::string, std::string> axes;
  // The flexible bodies: their node parts ("<beam>_n<j>") are the solver's,
  // not parts a user plots.
  std::vector<std::string> beams;
};

DefaultPlotModel defaultPlotModel(const Project& project);

// The world axes each part of `m` can move along, by its joint: fixed to the
// ground, none; one translational joint to a fixed part along a world axis,
// that axis; one revolute or planar joint to a fixed part about a world
// axis, the other two; anything else all three.
std::map<std::string, std::string> movableAxes(const Mechanism& m);

// The panes' channels (engine names) for the rows `data` holds now.
std::vector<std::vector<std::string>> defaultPlotGroups(const ResultBuffer& data, const DefaultPlotModel& model);

}  // namespace pm::gui
