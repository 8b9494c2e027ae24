#include "model/mechanism_types.h"

#include <limits>

namespace pm {

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();

ParamDecl P(const char* n, const char* u, double def, double lo, double hi, const char* doc, bool loOpen = false) {
  // Strings move-assigned from temporaries: assigning the literals directly
  // trips GCC 12's -Wrestrict false positive once this is inlined.
  ParamDecl d;
  d.name = std::string(n);
  d.unit = std::string(u);
  d.def = def;
  d.min = lo;
  d.max = hi;
  d.min_open = loOpen;
  d.doc = std::string(doc);
  return d;
}

// One-sided stops on the joint coordinate, in the style of ADAMS's IMPACT.
std::vector<ParamDecl> limits(const char* unit, const char* k_unit) {
  return {P("lower", unit, -inf, -inf, inf, "lower limit of the joint coordinate (-inf: none)"),
          P("upper", unit, inf, -inf, inf, "upper limit of the joint coordinate (inf: none)"),
          P("limit_stiffness", k_unit, 1e6, 0, inf, "stiffness of the limit stops", true),
          P("limit_exponent", "1", 1.5, 1, 10, "force exponent of the limit stops"),
          P("limit_damping", "N s/m", 100, 0, inf, "maximum damping of the limit stops (reached at the penetration depth)"),
          P("limit_depth", unit, 1e-4, 0, inf, "penetration over which the damping ramps up", true)};
}

std::vector<MechTypeDecl> makeJoints() {
  auto lim = [](const char* u, const char* k) { return limits(u, k); };
  return {
      {"fixed", "Locks all six relative motions of I and J", 2, false, {}},
      {"revolute", "Rotation of I about the common z-axis of I and J; origins coincide", 2, false,
       lim("rad", "N m/rad")},
      {"translational", "Sliding of I along the z-axis of J; no rotation", 2, false, lim("m", "N/m")},
      {"cylindrical", "Sliding along and rotation about the common z-axis", 2, false, lim("m", "N/m")},
      {"spherical", "Origins of I and J coincide; free rotation", 2, false, {}},
      {"universal",
       "Cardan joint: origins coincide; the cross arms are I's x-axis and J's y-axis (kept perpendicular); the "
       "shafts are the z-axes",
       2, false, {}},
      {"planar", "I moves in the xy-plane of J and rotates about its z-axis", 2, false, {}},
      {"coupler", "Couples the coordinates of two joints: q1 + ratio * q2 = q1(0) + ratio * q2(0) (a gear pair)", 0,
       false, {P("ratio", "1", -1.0, -inf, inf, "ratio: q1 + ratio q2 stays constant (-1: same speed)")}},
  };
}

std::vector<MechTypeDecl> makeForces() {
  return {
      {"spring_damper", "Translational spring-damper between the origins of I and J; positive force pushes them apart", 2,
       false,
       {P("stiffness", "N/m", 1000, 0, inf, "spring stiffness k"), P("damping", "N s/m", 0, 0, inf, "damping c"),
        P("free_length", "m", 0.1, 0, inf, "length at which the spring force is the preload"),
        P("preload", "N", 0, -inf, inf, "force at the free length (positive pushes apart)")}},
      {"rotational_spring_damper",
       "Torsion spring-damper about J's z-axis; angle = rotation of I's x-axis about J's z from J's x", 2, false,
       {P("stiffness", "N m/rad", 10, 0, inf, "torsional stiffness"),
        P("damping", "N m s/rad", 0, 0, inf, "torsional damping"),
        P("free_angle", "rad", 0, -inf, inf, "angle at which the torque is the preload"),
        P("preload", "N m", 0, -inf, inf, "torque at the free angle (acts on I, positive about z)")}},
      {"bushing", "Six-component linear spring-damper between I and J (I's displacement and rotation measured in J)", 2,
       false,
       {P("kx", "N/m", 1e5, 0, inf, ""), P("ky", "N/m", 1e5, 0, inf, ""), P("kz", "N/m", 1e5, 0, inf, ""),
        P("ktx", "N m/rad", 1e3, 0, inf, ""), P("kty", "N m/rad", 1e3, 0, inf, ""), P("ktz", "N m/rad", 1e3, 0, inf, ""),
        P("cx", "N s/m", 10, 0, inf, ""), P("cy", "N s/m", 10, 0, inf, ""), P("cz", "N s/m", 10, 0, inf, ""),
        P("ctx", "N m s/rad", 0.1, 0, inf, ""), P("cty", "N m s/rad", 0.1, 0, inf, ""),
        P("ctz", "N m s/rad", 0.1, 0, inf, "")}},
      {"sforce",
       "Single-component force: with J, along the line from J to I, positive pushes apart (action-reaction); "
       "without J, along the z-axis of I (action only). value x table(t) if a table is given",
       2, true, {P("value", "N", 0, -inf, inf, "force"), P("rotational", "1", 0, 0, 1, "1: a torque about z of I [N m]")}},
      {"vforce", "Force vector on I (components in the axes of `ref`); with J, the reaction acts on J's part", 2, true,
       {P("fx", "N", 0, -inf, inf, ""), P("fy", "N", 0, -inf, inf, ""), P("fz", "N", 0, -inf, inf, "")}},
      {"vtorque", "Torque vector on I's part (components in the axes of `ref`); with J, the reaction acts on J's part",
       2, true,
       {P("tx", "N m", 0, -inf, inf, ""), P("ty", "N m", 0, -inf, inf, ""), P("tz", "N m", 0, -inf, inf, "")}},
      {"impact",
       "Contact of I against J's xy-plane along J's z-axis (ADAMS IMPACT): force k (x1 - x)^e + damping ramped over "
       "the depth, only while x < x1",
       2, false,
       {P("x1", "m", 0, -inf, inf, "distance at which contact starts"),
        P("stiffness", "N/m^e", 1e6, 0, inf, "contact stiffness", true),
        P("exponent", "1", 1.5, 1, 10, "force exponent"),
        P("damping", "N s/m", 100, 0, inf, "maximum damping"),
        P("depth", "m", 1e-4, 0, inf, "penetration at which the damping is full", true)}},
  };
}

std::vector<MechTypeDecl> makeMotions() {
  return {
      {"constant", "q(t) = value (velocity motion: q = q0 + value t)", 0, false,
       {P("value", "m|rad", 0, -inf, inf, "value (displacement) or rate (velocity motion)")}},
      {"ramp", "value = offset + slope t", 0, false,
       {P("offset", "m|rad", 0, -inf, inf, ""), P("slope", "m/s|rad/s", 1, -inf, inf, "")}},
      {"harmonic", "value = offset + amplitude sin(2 pi frequency t + phase)", 0, false,
       {P("offset", "m|rad", 0, -inf, inf, ""), P("amplitude", "m|rad", 0.01, -inf, inf, ""),
        P("frequency", "Hz", 1, 0, inf, ""), P("phase", "rad", 0, -inf, inf, "")}},
      {"step", "smooth step (cubic, ADAMS STEP) from v0 at t0 to v1 at t1", 0, false,
       {P("t0", "s", 0, 0, inf, ""), P("v0", "m|rad", 0, -inf, inf, ""), P("t1", "s", 1, 0, inf, ""),
        P("v1", "m|rad", 1, -inf, inf, "")}},
      {"table",
       "interpolated (t, value) points (\"interpolation\": monotone_cubic by default, linear, step, "
       "natural_cubic), constant outside",
       0, false, {}},
  };
}

const MechTypeDecl* findIn(const std::vector<MechTypeDecl>& v, const std::string& n) {
  for (const auto& d : v)
    if (d.name == n) return &d;
  return nullptr;
}
}  // namespace

const ParamDecl* MechTypeDecl::param(const std::string& n) const {
  for (const auto& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

const std::vector<MechTypeDecl>& jointTypes() {
  static const auto v = makeJoints();
  return v;
}
const std::vector<MechTypeDecl>& forceTypes() {
  static const auto v = makeForces();
  return v;
}
const std::vector<MechTypeDecl>& motionFunctions() {
  static const auto v = makeMotions();
  return v;
}
const MechTypeDecl& latchType() {
  static const MechTypeDecl t{
      "latch", "A joint switched on when the markers come within the capture radius or a signal says so", 2, false,
      {P("capture_radius", "m", 0, 0, inf,
         "engages when the distance between I and J is at most this and not opening (0: no distance condition)"),
       P("engaged", "1", 0, 0, 1, "1: engaged from the start, where the parts are assembled; 0: engages on its condition"),
       P("closing_time", "s", 0, 0, inf,
         "engages once its condition has held this long without a break (0: at once); a condition that drops resets it")}};
  return t;
}
const MechTypeDecl* findJointType(const std::string& n) { return findIn(jointTypes(), n); }
const MechTypeDecl* findForceType(const std::string& n) { return findIn(forceTypes(), n); }
const MechTypeDecl* findMotionFunction(const std::string& n) { return findIn(motionFunctions(), n); }

}  // namespace pm
