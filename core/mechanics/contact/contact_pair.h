// A contact pair of the mechanism (issue 27): two shapes, each at a marker,
// with the IMPACT and friction parameters of mechanism.contacts[] in the
// file. Declares the parameters (units, defaults, ranges) once, turns a
// ContactShapeDef into a Shape, and evaluates one pair's forces from the
// poses and velocities of the two bodies. Knows nothing of the multibody
// state: MultibodySystem applies the forces (multibody_contacts.cpp).
#pragma once

#include "mechanics/contact/force_law.h"
#include "model/mechanism_types.h"
#include "model/mechanism.h"

#include <optional>
#include <string>
#include <vector>

namespace pm::contact {

// The parameters of a pair ("params"): stiffness, exponent, damping, depth,
// mu_static, mu_dynamic, stiction_velocity, transition_velocity,
// stiction_deformation, torsion_radius.
const MechTypeDecl& pairType();

struct ShapeError {
  std::string field, message;  // field relative to the shape, e.g. "size.radius"
};
// The shape a ContactShapeDef describes, or what is wrong with it: its
// shape and sizes against their declaration (shape_sizes.h), the message
// naming what the size measures.
std::optional<ShapeError> shapeOf(const ContactShapeDef& d, Shape& out);
// What is wrong with a pair's parameters beyond their declared ranges
// (field, message), e.g. a transition velocity below the stiction velocity.
std::optional<ShapeError> checkPairParams(const std::map<std::string, double>& params);

// A stick state's slots: the bristle z (3, world) and the twist s (1).
constexpr int kStickStates = 4;
using StickRate = Eigen::Matrix<double, kStickStates, 1>;

// A pair as the mechanism holds it: shapes, marker indices, laws.
struct PairRT {
  std::string id;
  int I = -1, J = -1;  // marker indices of shape a (I) and shape b (J)
  Shape a, b;
  ImpactParams impact;
  FrictionParams friction;
  int stick = -1;  // first of the kStickStates stick-state slots (hasStickState), or -1
};
// Declared defaults, then the file's values.
PairRT makePair(const ContactDef& d, int markerI, int markerJ);

// A rigid body's motion: the velocity of its material point x is v + w x (x - r).
struct BodyMotion {
  V3 r = V3::Zero(), v = V3::Zero(), w = V3::Zero();  // world
  V3 velocityAt(const V3& x) const { return v + w.cross(x - r); }
};

// One pair's state and forces at the given poses: per contact point the
// force on B (A takes the opposite), and the sums the channels show.
struct PairResult {
  Contact geometry;
  std::vector<PointForce> forces;  // one per geometry.points entry
  double normal = 0.0;             // sum of the points' normal forces [N]
  V3 friction = V3::Zero();        // sum of the friction forces on B [N]
  double penetration = 0.0;        // deepest point [m]
  double slip = 0.0;               // slip speed at the deepest point [m/s]
  V3 point = V3::Zero();           // normal-force weighted centre of the points (deepest when no force)
  V3 torque = V3::Zero();          // the stick state's twisting couple on B (A takes the opposite) [N m]
  // Elastic energy stored in the points' springs, k d^(e+1) / (e+1) [J].
  double elasticEnergy = 0.0;
};
// `stick`: the pair's stick state (kStickStates values: z world, then the
// twist s) when it has one; its rates go to `stickRate`. In contact, the
// friction at every point is its normal force times the bristle's
// coefficient for the slip at the points' normal-force weighted centre c,
// and the couple about the normal is N rho times its twist coefficient for
// the relative turning rate, with the torsional arm
// rho = sum N_i sqrt(|p_i - c|_t^2 + rho_0^2) / N (four corners at r with
// equal loads: r; one point: rho_0 = torsion_radius). Apart, z and s relax
// to zero in delta / v_s (an exponential, so they are near zero at the next
// touch). Without `stick`, each point's friction follows the velocity law
// (pointForce) and there is no couple.
PairResult evaluate(const PairRT& p, const Frame& fa, const BodyMotion& ma, const Frame& fb, const BodyMotion& mb,
                    const double* stick = nullptr, StickRate* stickRate = nullptr);

// The points' centre weighted by their normal forces (the first point when
// none pushes) and the torsional arm about it,
// rho = sum N_i sqrt(|p_i - c|_t^2 + rho_0^2) / N (equal weights when none pushes).
struct TwistArm {
  V3 centre = V3::Zero();
  double arm = 0.0;  // [m]
};
TwistArm twistArm(const std::vector<ContactPoint>& points, const std::vector<double>& normals, const V3& n,
                  double torsionRadius);

// The couple on B about the normal n through r.point from the points'
// friction and the stick state's (or a static anchor's) couple, signed
// right-handed about n [N m].
double twistTorque(const PairResult& r);

// The result channels of a pair, in the order `channelValues` writes them.
struct ChannelDecl {
  const char* name;
  const char* unit;
};
const std::vector<ChannelDecl>& channelDecls();
void channelValues(const PairResult& r, std::vector<double>& out);

}  // namespace pm::contact
