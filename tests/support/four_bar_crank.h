// The example four_bar cut down to its crank in the studio, for a ground
// pin P to join the crank's B to: the set-up of the 3D "Align and join"
// tests (issue 28). Header-only; GUI tests only.
#pragma once

#include "document.h"
#include "main_window.h"
#include "model/mechanism.h"
#include "support/build_studio.h"

#include <algorithm>
#include <functional>

namespace pm::test {

// w shown (1500 x 950) on four_bar, snap step 5 mm, then in one edit
// ("set-up") the crank left alone (the joints and motions gone, and the
// coupler and the rocker) and `more` applied to the mechanism.
inline bool showCrankAlone(gui::MainWindow& w, const std::function<void(Mechanism&)>& more) {
  if (!showExampleToBuild(w, "four_bar")) return false;
  w.document()->edit("set-up", [&](Project& p) {
    Mechanism& m = p.mechanism;
    m.joints.clear();
    m.motions.clear();
    std::erase_if(m.parts, [](const PartDef& q) { return q.id == "coupler" || q.id == "rocker"; });
    more(m);
  });
  return true;
}

// Adds the ground's marker "P" at `position`, turned by `rpy` (roll, pitch, yaw).
inline void addGroundPin(Mechanism& m, Vec3 position, Vec3 rpy) {
  MarkerDef pin;
  pin.id = "P";
  pin.position = position;
  pin.orientation = rpy;
  for (PartDef& q : m.parts)
    if (q.id == "ground") q.markers.push_back(pin);
}

}  // namespace pm::test
