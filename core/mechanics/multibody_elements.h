// What a MultibodySystem holds of the mechanism once built (multibody.h):
// its moving bodies and the ground, the user's parts on them, markers,
// joints, motions and force elements, with indices into one another and
// into the local state; and the kinematics of one body.
#pragma once

#include "mechanics/motion_function.h"
#include "mechanics/spatial.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pm::mb {

struct BodyRT {
  std::string id;
  bool ground = false;
  double m = 0.0;
  M3 J = M3::Zero(), Jinv = M3::Zero();
  V3 cm = V3::Zero();  // centre of mass in the part frame
  int slot = -1;       // first local state: r(3) p(4) v(3) w(3) mu_n(1)
  V3 r0 = V3::Zero(), v0 = V3::Zero(), w0 = V3::Zero();  // COM position/velocity (world), w body frame
  Q4 p0 = Q4(1, 0, 0, 0);
  // Assembly weight of this part's pose and velocity corrections: a part the
  // user fixed moves 1e-6 as much per unit of closing error as the others.
  double assemblyScale = 1.0;
};

// A part as the user declared it, on the body that carries it: itself, or
// (lumped by fixed joints) the body it is welded to, or the ground.
struct PartRT {
  std::string id;
  int body = 0;
  bool lumped = false;
  M3 R = M3::Identity();  // part axes in the body's part axes
  V3 t = V3::Zero();      // part frame origin in the body's part frame
  double m = 0.0;
  M3 J = M3::Zero();      // about its centre of mass, part axes
  V3 cm = V3::Zero();     // centre of mass in the part frame
};

struct MarkerRT {
  std::string name;  // "part.marker"
  int body = 0;
  V3 s = V3::Zero();     // from the centre of mass, part axes
  M3 A = M3::Identity(); // marker axes in part axes
};

struct Kin {
  V3 r, v, w, ww;  // COM position and velocity, angular velocity (part frame, world)
  Q4 p;
  M3 A;
};

struct JointRT {
  std::string id, type;
  // `type` decoded once: the residual branches on it at every evaluation.
  enum class Kind { Spherical, Revolute, Translational, Cylindrical, Universal, Planar, Fixed, Coupler } kind =
      Kind::Spherical;
  int I = -1, J = -1;
  int firstRow = 0, nRows = 0;
  double lower = -INFINITY, upper = INFINITY, k = 0, e = 1.5, c = 0, d = 1e-4;
  int coupled[2] = {-1, -1};
  double ratio = -1.0;
  double c0 = 0.0;  // coupler: q1 + ratio q2 as placed, the joints closed
  int wind = -1;    // revolute: winding state (continuous angle)
  std::optional<double> icValue, icRate;  // initial conditions (JointInitial)
};

struct MotionRT {
  std::string id;
  int joint = -1;
  bool velocity = false;
  TimeFunction f;
  double q0 = 0.0;
  int row = 0;
};

// The parameters force elements read at every evaluation, by name: decoded
// once when the mechanism is built (ForceRT::decode) and read by index,
// par<"name">(), instead of a string lookup per evaluation.
inline constexpr std::string_view kForceParams[] = {
    "stiffness", "free_length", "damping", "preload", "free_angle", "value", "rotational", "fx", "fy", "fz",
    "tx", "ty", "tz", "x1", "exponent", "depth", "kx", "ky", "kz", "cx", "cy", "cz", "ktx", "kty", "ktz",
    "ctx", "cty", "ctz", "length", "kuu", "kvv", "kww", "kxx", "kyy", "kzz", "kvz", "kwy", "beta", "A",
    "Iy", "Iz", "round", "segments"};
inline constexpr size_t kNumForceParams = std::size(kForceParams);

// A parameter name as a template argument (par<"stiffness">()).
template <size_t N>
struct ForceParamName {
  char s[N];
  constexpr ForceParamName(const char (&n)[N]) { std::copy_n(n, N, s); }
  constexpr std::string_view view() const { return {s, N - 1}; }
};

consteval size_t forceParamIndex(std::string_view n) {
  for (size_t i = 0; i < kNumForceParams; ++i)
    if (kForceParams[i] == n) return i;
  throw "not in kForceParams";  // a compile error: add the name there
}

struct ForceRT {
  // `type` decoded once: the residual branches on it at every evaluation.
  enum class Kind { SpringDamper, RotationalSpringDamper, Bushing, SForce, VForce, VTorque, Impact, Other };
  std::string id, type;
  Kind kind = Kind::Other;
  int I = -1, J = -1, ref = -1;
  std::map<std::string, double> p;
  std::array<double, kNumForceParams> values{};  // kForceParams' values in p (0 when absent)
  bool hasTable = false;
  TimeFunction table;
  int wind = -1;  // rotational spring-damper: winding state
  double scale(double t) const;
  // Fills kind and values from type and p (after p is complete).
  void decode();
  template <ForceParamName N>
  double par() const {
    return values[forceParamIndex(N.view())];
  }
};

// A latch (LatchDef): its joint's rows exist from the start, switched off
// until it engages. The joint's J is a private marker on j's part, put at
// I's frame when it engages, so the joint forms where the parts are.
struct LatchRT {
  std::string id;
  JointRT joint;     // I: the user's i marker; J: the anchor
  int userJ = -1;    // the user's j marker (the capture distance is to it)
  double capture = 0.0;  // m; 0: no distance condition
  double closingTime = 0.0;  // s; engages once its condition has held this long (0: at once)
  bool engaged = false;
  bool armed = true;  // may engage: its condition was false since it was released
  bool closing = false;  // its condition holds and the closing time runs
  // When its condition last came and when it last engaged (-1: not yet).
  double conditionTime = -1.0, engageTime = -1.0;
  // At the last engagement: kinetic energy lost (summed over engagements),
  // jump of I's velocity relative to j's part at I's origin, and the
  // linear impulse of the latch on I's part.
  double energyLost = 0.0, velocityJump = 0.0, impulse = 0.0;
};

// (winding state, I marker, J marker) of every continuous angle.
struct Winding {
  int state, I, J;
};

// A fixed joint lumped: its leaf side (the parts welded through it) and
// which of its markers is on that side; its reaction is the leaf's
// Newton-Euler balance.
struct LumpedJointRT {
  std::string id;
  int I = -1, J = -1;
  std::vector<int> group;  // parts_ indices
  bool leafIsI = true;
};

}  // namespace pm::mb
