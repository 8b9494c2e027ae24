// A cylinder's length between its mounting points (barrel clevis to rod
// eye), which an attachment to a mechanism must respect: the markers can be
// no closer than the cylinder retracted, no farther than it extended.
//
// `L_retracted` (m) is that length at x = 0 when the catalogue gives it.
// Without it (0), the retracted length is whatever the assembled markers
// make it (distance - x0), but never less than the body can be: the stroke
// plus 1.5 bores for piston, end caps and rod eye. (ISO 15552 mountings are
// longer, e.g. 142 mm + stroke pin to pin for a 32 mm bore; the bound is
// the smallest body that holds the stroke, not a catalogue length.)
#pragma once

#include "model/message_text.h"

#include <cmath>
#include <optional>
#include <string>

namespace pm {

struct CylinderLength {
  double bore = 0.0, stroke = 0.0;
  double retractedGiven = 0.0;  // params.L_retracted; 0 = not given
  double x0 = 0.0;

  // The shortest a body of this bore and stroke can be, retracted.
  double minimumRetracted() const { return stroke + 1.5 * bore; }
  bool given() const { return retractedGiven > 0.0; }
  // The retracted length the cylinder has when its markers are `distance`
  // apart at the start.
  double retracted(double distance) const { return given() ? retractedGiven : distance - x0; }

  // What is wrong with the markers `distance` apart at the assembled start,
  // or nothing: the message names the markers, the distance and the range.
  std::optional<std::string> mismatch(double distance, const std::string& barrel, const std::string& rod) const {
    const std::string where = "markers '" + barrel + "' (barrel) and '" + rod + "' (rod) are " +
                              numberText(distance * 1e3) + " mm apart at the assembled start";
    const std::string size = "a bore " + numberText(bore * 1e3) + " mm x stroke " + numberText(stroke * 1e3) + " mm cylinder";
    if (given()) {
      const double lo = retractedGiven, hi = retractedGiven + stroke, want = retractedGiven + x0;
      if (distance < lo - kTolerance || distance > hi + kTolerance)
        return where + "; " + size + " with L_retracted " + numberText(lo * 1e3) + " mm spans " + numberText(lo * 1e3) +
               " .. " + numberText(hi * 1e3) + " mm between its mounting points: move the parts or change L_retracted";
      if (std::abs(distance - want) > kTolerance)
        return where + ", which is x = " + numberText((distance - lo) * 1e3) + " mm of " + size + " (range " +
               numberText(lo * 1e3) + " .. " + numberText(hi * 1e3) + " mm), but x0 is " + numberText(x0 * 1e3) +
               " mm: set x0 to " + numberText((distance - lo) * 1e3) + " mm or place the parts " + numberText(want * 1e3) +
               " mm apart";
      return std::nullopt;
    }
    const double lo = minimumRetracted() + x0;
    if (distance < lo - kTolerance)
      return where + "; " + size + " measures at least " + numberText(minimumRetracted() * 1e3) +
             " mm between its mounting points retracted (stroke + 1.5 bore) and " +
             numberText((minimumRetracted() + stroke) * 1e3) + " mm extended, so with x0 = " +
             numberText(x0 * 1e3) + " mm they must be at least " + numberText(lo * 1e3) +
             " mm apart: move the parts (params.L_retracted gives the catalogue length)";
    return std::nullopt;
  }

  static constexpr double kTolerance = 1e-6;  // m: placement rounding, not a misfit
};

}  // namespace pm
