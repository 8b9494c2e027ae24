// Turns result rows into what the schematic shows during and after a run:
// line colours from the pressure of each line's net, valve bodies shifted to
// the active square, cylinder rods at their stroke, lit switches and
// solenoids. The nets are learnt by compiling the project with the core (the
// same compile the run does), so a line reads exactly its net's pressure.
#pragma once

#include "engine/engine.h"
#include "schematic_scene.h"

#include <QColor>

#include <memory>
#include <string>
#include <vector>

namespace pm::gui {

// Colour of a pressure as a fraction of the scale (0 = ambient, 1 = maximum).
QColor pressureColor(double fraction);

class RunAnimation {
 public:
  RunAnimation();
  ~RunAnimation();

  // Learns the nets and symbols of `project`; false when it does not compile.
  bool prepare(const Project& project);
  // Channel names of the result store, in column order.
  void setChannels(const std::vector<std::string>& names);
  bool ready() const { return ready_; }

  // The picture at row `row` (time t) of `cols` (SI columns by channel).
  RunFrame frame(const std::vector<std::vector<double>>& cols, size_t row, double t) const;
  // The colour scale's ends, absolute [Pa]: ambient (blue) to the highest supply (red).
  double scaleLow() const { return pAmb_; }
  double scaleHigh() const { return pAmb_ + pMaxGauge_; }

 private:
  struct Line {
    std::string connection;
    std::string channel;  // "<node>.p", or empty for a boundary
    int node = -1;
    int column = -1;
  };
  struct Valve {
    std::string id;
    int rest = 0, idx14 = -1, idx12 = -1;
    int column = -1;
  };
  struct Rod {
    std::string id;
    double stroke = 1.0;
    int column = -1;
  };
  struct Lamp {
    std::string id, input, channel;  // input empty: the component itself ("<id>.out")
    int column = -1;
  };

  std::unique_ptr<engine::NetMap> nets_;
  std::vector<Line> lines_;
  std::vector<Valve> valves_;
  std::vector<Rod> rods_;
  std::vector<Lamp> lamps_;
  double pAmb_ = 101325.0;
  double pMaxGauge_ = 6e5;
  bool ready_ = false;
};

}  // namespace pm::gui
