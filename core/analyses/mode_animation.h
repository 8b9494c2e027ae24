// A mode of the coupled machine shown as motion (issue #22: the studio's
// mode animation): one period of the linearised oscillation about the
// operating point, written as result rows, so that every view that plays a
// run (the 3D view's parts and bent beams, stress colours) plays the mode.
// Row time is the fraction of the period (0 to 1), not seconds.
//
// A part's orientation is not the operating point's angles plus the
// oscillating ones (at a large amplitude that is no rotation about the
// mode's axis): the mode's turn is a rotation vector phi in world axes (the
// angles' amplitudes mapped by the roll-pitch-yaw rates), applied by the
// exponential map, R(t) = exp(scale Re(phi e^(2 pi i t)) x) R0, and the
// rows hold the angles of R(t). Its origin moves by the same rigid motion:
// the mode's twist (that turn and the origin's displacement u) applied by
// the exponential map of SE(3), so that a part turning about a pin keeps
// its markers' distances to the pin at any amplitude (the linear
// oscillation p0 + u would carry it along the tangent). To first order
// both are the linear oscillation.
#pragma once

#include "analyses/modal_analysis.h"
#include "solver/result_store.h"

#include <Eigen/Core>

#include <cstddef>
#include <string>

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
// "<id>.max_stress": magnitudes) stay non-negative.
// The orientations ("<part>.roll/pitch/yaw") follow R(t) above (the angles
// nearest the linear ones), the origins ("<part>.x/y/z") the twist's rigid
// motion. Throws std::out_of_range for a mode k that does
// not exist, std::invalid_argument for frames < 1.
void modeAnimation(const ModalResult& result, std::size_t k, double scale, int frames, ResultStore& out);

// R(t) of `part` (its "<part>.roll", ".pitch", ".yaw" channels) in mode k
// at the fraction t of the period. Throws std::out_of_range for a mode or
// part (without the three channels) that does not exist.
Eigen::Matrix3d modeOrientation(const ModalResult& result, std::size_t k, const std::string& part, double scale,
                                double t);
// The origin of `part` in mode k at the fraction t of the period (the
// twist's rigid motion above). Throws std::out_of_range as modeOrientation
// does, and for a part without the "<part>.x", ".y", ".z" channels.
Eigen::Vector3d modeOrigin(const ModalResult& result, std::size_t k, const std::string& part, double scale, double t);

}  // namespace pm
