// A mode of the coupled machine shown as motion (issue #22: the studio's
// mode animation): one period of the linearised oscillation about the
// operating point, written as result rows, so that every view that plays a
// run (the 3D view's parts and bent beams, stress colours) plays the mode.
// Row time is the fraction of the period (0 to 1), not seconds.
#pragma once

#include "analyses/modal_analysis.h"
#include "solver/result_store.h"

#include <cstddef>

namespace pm {

// How far mode k moves the parts (and beam nodes) with the mode as
// normalised: the largest amplitude of a part origin's position [m] and of
// its orientation angles [rad] ("<part>.x/y/z", ".roll/pitch/yaw").
struct ModeMotion {
  double displacement = 0.0;
  double rotation = 0.0;
};
ModeMotion modeMotion(const ModalResult& result, std::size_t k);

// The factor on mode k's amplitudes that makes its largest motion `size`
// metres, a turn of theta counting as theta * `length` (the mechanism's
// size); 0 when the mode moves no part (a pneumatic or controller mode).
double modeScale(const ModalResult& result, std::size_t k, double size, double length);

// Rows i = 0..frames at t = i / frames: every channel at the operating point
// plus scale * amplitude * cos(2 pi t + phase) (channels the mode leaves
// still keep their operating-point value). Stresses ("<id>.stress",
// "<id>.max_stress": magnitudes) stay non-negative. Throws std::out_of_range
// for a mode k that does not exist, std::invalid_argument for frames < 1.
void modeAnimation(const ModalResult& result, std::size_t k, double scale, int frames, ResultStore& out);

}  // namespace pm
