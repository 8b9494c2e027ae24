#include "analyses/geometry_checks.h"

#include "analyses/mechanism_analysis.h"
#include "build/subcircuit_expansion.h"
#include "mechanics/multibody.h"
#include "model/component_type.h"
#include "model/mass_properties.h"
#include "model/message_text.h"
#include "pneumatics/cylinder_length.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

namespace pm {

namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;
constexpr char kSweepMotion[] = "~sweep";
// Assemblies one cylinder's search for its driving joint may spend.
constexpr int kAssemblyBudget = 40;

// A cylinder component and what it is attached to.
struct Attached {
  const Component* c = nullptr;
  std::string barrel, rod, joint;
  CylinderLength len;
};

std::optional<Attached> attachedOf(const Component& c) {
  if (c.type.rfind("cylinder_", 0) != 0 || !c.data.is_object() || !c.data.contains("attach")) return std::nullopt;
  const auto& a = c.data["attach"];
  if (!a.is_object()) return std::nullopt;
  Attached r;
  r.c = &c;
  r.barrel = a.value("barrel", "");
  r.rod = a.value("rod", "");
  r.joint = a.value("joint", "");
  try {
    Params P(c);
    r.len = {P("bore"), P("stroke"), P("L_retracted"), P("x0")};
  } catch (const std::exception&) {
    return std::nullopt;  // an unknown type or parameter: the compile says so
  }
  if (r.joint.empty() && (r.barrel.empty() || r.rod.empty())) return std::nullopt;
  return r;
}

// The parts the circuit acts on are never lumped (as the compile builds it).
mb::ExternalLoads loadsOf(const Project& p) {
  mb::ExternalLoads loads;
  for (const Component& c : p.components)
    if (auto a = attachedOf(c)) {
      if (a->joint.empty()) loads.markers.insert({a->barrel, a->rod});
      else loads.joints.insert(a->joint);
    }
  return loads;
}

double lengthAt(const mb::MultibodySystem& s, const double* y, int barrel, int rod, double* rate) {
  mb::V3 pb, vb, pr, vr;
  s.markerState(y, barrel, pb, vb);
  s.markerState(y, rod, pr, vr);
  const mb::V3 d = pr - pb;
  const double l = d.norm();
  if (rate) *rate = l > 0.0 ? d.dot(vr - vb) / l : 0.0;
  return l;
}

bool drivable(const std::string& type) { return type == "revolute" || type == "translational" || type == "cylindrical"; }


// The mechanism with joint `joint` driven at unit rate (t is its coordinate
// from the start) and as many other joints held as it takes to leave no
// degree of freedom; the mechanism's own motions are held too. Null when
// the joint cannot be driven so.
// `budget`: assemblies left to spend (each costs one assembly of the
// mechanism); none left, the search stops (a large model is not swept).
std::unique_ptr<mb::MultibodySystem> drivenBy(const Project& p, const std::string& joint, const mb::ExternalLoads& loads,
                                              int& budget) {
  Mechanism m = p.mechanism;
  for (MotionDef& mo : m.motions) {
    mo.quantity = "velocity";
    mo.function = "constant";
    mo.params = {{"value", 0.0}};
    mo.table.clear();
  }
  auto motion = [](const std::string& id, const std::string& j, double rate) {
    MotionDef mo;
    mo.id = id;
    mo.joint = j;
    mo.quantity = "velocity";
    mo.function = "constant";
    mo.params = {{"value", rate}};
    return mo;
  };
  m.motions.push_back(motion(kSweepMotion, joint, 1.0));
  auto build = [&]() -> std::unique_ptr<mb::MultibodySystem> {
    if (budget-- <= 0) return nullptr;
    try {
      return std::make_unique<mb::MultibodySystem>(m, loads);
    } catch (const std::exception&) {
      return nullptr;
    }
  };
  auto sys = build();
  if (!sys) return nullptr;
  for (const JointDef& k : p.mechanism.joints) {
    if (sys->degreesOfFreedom() == 0 || budget <= 0) break;
    if (k.id == joint || !drivable(k.type)) continue;
    m.motions.push_back(motion(kSweepMotion + ("." + k.id), k.id, 0.0));
    auto held = build();
    if (held && held->degreesOfFreedom() < sys->degreesOfFreedom()) sys = std::move(held);
    else m.motions.pop_back();
  }
  if (sys->degreesOfFreedom() != 0) return nullptr;
  for (const mb::RowInfo& r : sys->rows())
    if (r.owner == kSweepMotion && !r.active) return nullptr;  // the joint is held by the others already
  return sys;
}

// The joint that changes the cylinder's length, driven: the one that
// changes it most at the start.
struct Driver {
  const JointDef* joint = nullptr;
  std::unique_ptr<mb::MultibodySystem> sys;
  int barrel = -1, rod = -1, index = -1;
  double slope = 0.0;  // dL/dq at the start (m/rad or m/m)
  double q0 = 0.0;
};

bool isRevolute(const JointDef& j) { return j.type == "revolute"; }

// Every joint that can drive the linkage alone, largest |dL/dq| first.
std::vector<Driver> driversOf(const Project& p, const Attached& a, const mb::ExternalLoads& loads) {
  std::vector<Driver> all;
  // The joints of the cylinder's own parts first: on a large model the
  // budget of assemblies runs out before the far ones.
  std::vector<const JointDef*> order;
  auto touches = [&](const JointDef& j) {
    const std::string pb = a.barrel.substr(0, a.barrel.find('.')), pr = a.rod.substr(0, a.rod.find('.'));
    for (const std::string& m : {j.i, j.j}) {
      const std::string part = m.substr(0, m.find('.'));
      if (part == pb || part == pr) return true;
    }
    return false;
  };
  for (int near = 1; near >= 0; --near)
    for (const JointDef& j : p.mechanism.joints)
      if (drivable(j.type) && touches(j) == bool(near)) order.push_back(&j);
  int budget = kAssemblyBudget;
  for (const JointDef* jp : order) {
    const JointDef& j = *jp;
    Driver d;
    d.joint = &j;
    d.sys = drivenBy(p, j.id, loads, budget);
    if (!d.sys) continue;
    d.barrel = d.sys->marker(a.barrel);
    d.rod = d.sys->marker(a.rod);
    d.index = d.sys->joint(j.id);
    if (d.barrel < 0 || d.rod < 0 || d.index < 0) continue;
    std::vector<double> y = d.sys->initialState(), yp;
    try {
      mb::kinematicAnalysis(*d.sys, 0.0, y, yp);
    } catch (const std::exception&) {
      continue;
    }
    lengthAt(*d.sys, y.data(), d.barrel, d.rod, &d.slope);
    d.q0 = d.sys->jointCoordinateAt(y.data(), d.index, nullptr);
    all.push_back(std::move(d));
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const Driver& x, const Driver& y) { return std::abs(x.slope) > std::abs(y.slope); });
  return all;
}

// Whether driving `d` changes the cylinder's length at the start.
bool moves(const Driver& d, double length0) {
  return std::abs(d.slope) >= 1e-6 * (isRevolute(*d.joint) ? std::max(length0, 1e-3) : 1.0);
}

std::string coordinateText(const JointDef& j, double q) {
  return isRevolute(j) ? numberText(q * kDeg) + " deg" : numberText(q * 1e3) + " mm";
}

// Sweeps the driver both ways from the start until the cylinder's length
// reaches the end of its stroke that way, and says where it turns back or
// the linkage locks first; true when it locked.
bool sweep(const Attached& a, Driver& d, double length0, std::vector<GeometryFinding>& out) {
  const JointDef& j = *d.joint;
  const double lo = a.len.retracted(length0), hi = lo + a.len.stroke;
  const bool rev = isRevolute(j);
  const double h = rev ? 0.5 / kDeg : std::max(a.len.stroke, 1e-3) / 200.0;
  const double range = rev ? 2.0 * std::numbers::pi : 10.0 * std::max(a.len.stroke, 1e-3) / std::abs(d.slope);
  const double lower = j.params.count("lower") ? j.params.at("lower") : -INFINITY;
  const double upper = j.params.count("upper") ? j.params.at("upper") : INFINITY;
  const std::string cyl = "cylinder '" + a.c->id + "'", stroke = numberText(a.len.stroke * 1e3) + " mm stroke";
  for (int dir : {1, -1}) {
    const bool extending = dir * d.slope > 0.0;
    const double target = extending ? hi : lo;
    if (std::abs(length0 - target) < CylinderLength::kTolerance) continue;
    std::vector<double> y = d.sys->initialState(), yp;
    mb::kinematicAnalysis(*d.sys, 0.0, y, yp);
    double prevL = length0, prevRate = d.slope;
    std::vector<double> yPrev = y;
    const std::string from = "driving joint '" + j.id + "' from " + coordinateText(j, d.q0);
    // Steps of h, halved where the assembly fails: a joint whose coordinate
    // is stationary at the linkage's dead point (a toggle's ram) covers its
    // last stretch in ever smaller steps. Below h / 2^20 it locks there.
    double tPrev = 0.0, step = h;
    while (std::abs(tPrev) < range) {
      const double t = tPrev + dir * step, q = d.q0 + t;
      if (q < lower || q > upper) break;  // the joint's limit stops the linkage first
      y = yPrev;
      d.sys->predict(y, dir * step);
      try {
        mb::kinematicAnalysis(*d.sys, t, y, yp);
      } catch (const std::exception&) {
        if ((step *= 0.5) >= h * 0x1p-20) continue;
        out.push_back({a.c->id, cyl + ": the linkage reaches a dead point or locks before the cylinder can " +
                                    (extending ? "extend" : "retract") + " fully: " + from + ", it cannot pass " +
                                    coordinateText(j, d.q0 + tPrev) + " (x = " + numberText((prevL - lo) * 1e3) +
                                    " mm of its " + stroke + ")"});
        return true;
      }
      double rate = 0.0;
      const double L = lengthAt(*d.sys, y.data(), d.barrel, d.rod, &rate);
      if (extending ? L >= hi : L <= lo) break;  // the stroke's end is reached: fine
      if (rate * prevRate <= 0.0) {
        // The length turns back between the last two samples: a dead point,
        // found by bisection on the length's rate.
        double ta = tPrev, tb = t, Ld = L;
        for (int it = 0; it < 40; ++it) {
          const double tm = 0.5 * (ta + tb);
          std::vector<double> ym = yPrev;
          try {
            mb::kinematicAnalysis(*d.sys, tm, ym, yp);
          } catch (const std::exception&) {
            break;
          }
          double rm = 0.0;
          Ld = lengthAt(*d.sys, ym.data(), d.barrel, d.rod, &rm);
          (rm * prevRate > 0.0 ? ta : tb) = tm;
        }
        const double qd = d.q0 + 0.5 * (ta + tb);
        out.push_back({a.c->id, cyl + " goes over centre: " + from + ", its length " +
                                    (extending ? "peaks" : "bottoms out") + " at " + numberText(Ld * 1e3) + " mm (x = " +
                                    numberText((Ld - lo) * 1e3) + " mm of its " + stroke + ") with '" + j.id + "' at " +
                                    coordinateText(j, qd) +
                                    ", a dead point (there the cylinder's length stops changing as the joint moves): "
                                    "the linkage can go over centre and the cylinder never reaches its " +
                                    (extending ? "extended" : "retracted") + " end stop"});
        break;
      }
      prevL = L;
      prevRate = rate;
      yPrev = y;
      tPrev = t;
      step = std::min(h, 2.0 * step);
    }
  }
  return false;
}

// Why no joint moves the cylinder at the start: an axis along (revolute) or
// across (slide) its line, or its line through a pivot.
std::string cannotMove(const Project& p, const Attached& a, const std::vector<Driver>& tried) {
  std::string why;
  mb::MultibodySystem sys(p.mechanism, loadsOf(p));
  const auto& y = sys.initialState();
  std::vector<mb::Kin> k;
  sys.kinematics(y.data(), k);
  const int ib = sys.marker(a.barrel), ir = sys.marker(a.rod);
  const mb::V3 u = (sys.markerPoint(ir, k) - sys.markerPoint(ib, k)).normalized();
  for (const Driver& d : tried) {
    const JointDef& j = *d.joint;
    const int jm = sys.marker(j.j);
    if (jm < 0) continue;
    const mb::V3 z = sys.markerAxes(jm, k).col(2);
    const double along = std::abs(z.dot(u));
    std::string s = "joint '" + j.id + "' ";
    if (isRevolute(j))
      s += along > 1.0 - 1e-6 ? "turns about an axis parallel to the cylinder's line (z of marker '" + j.j + "')"
                              : "has the cylinder's line through its axis (a dead point at the start)";
    else
      s += along < 1e-6 ? "slides across the cylinder's line (z of marker '" + j.j + "')"
                        : "does not change the cylinder's length";
    why += (why.empty() ? "" : "; ") + s;
  }
  return why;
}

bool defaultInertia(const PartDef& p) {
  const PartDef fresh;
  return p.mass_properties.empty() && p.inertia == fresh.inertia;
}

// The drawn geometry's centre of mass and inertia at the part's mass: the
// solids, else the links as slender bars. Null when nothing is drawn that
// has a size.
std::optional<MassProperties> drawnProperties(const PartDef& p, const MeshReader& readMesh, std::string& shapes) {
  MassPropertiesError err;
  if (auto solid = geometryMassProperties(p, 1.0, &err, readMesh); solid && solid->volume > 0.0) {
    const double rho = p.mass / solid->volume;
    for (double& v : solid->inertia) v *= rho;
    for (const Geometry& g : p.geometry) {
      if (g.shape == "link" || (g.shape == "mesh" && !readMesh)) continue;  // not counted
      shapes += (shapes.empty() ? "" : ", ") + g.shape + (g.shape == "mesh" ? " " + g.file : "");
    }
    return solid;
  }
  auto marker = [&](const std::string& id) -> const MarkerDef* {
    for (const MarkerDef& m : p.markers)
      if (m.id == id) return &m;
    return nullptr;
  };
  for (const Geometry& g : p.geometry) {
    if (g.shape != "link") continue;
    const MarkerDef *a = marker(g.marker), *b = marker(g.marker2);
    if (!a || !b) continue;
    Eigen::Vector3d pa(a->position[0], a->position[1], a->position[2]), pb(b->position[0], b->position[1], b->position[2]);
    const Eigen::Vector3d axis = pb - pa;
    const double L = axis.norm();
    if (!(L > 0.0)) continue;
    // A slender bar: m L^2 / 12 about every axis across it, none along it.
    const Eigen::Matrix3d J = p.mass * L * L / 12.0 * (Eigen::Matrix3d::Identity() - axis * axis.transpose() / (L * L));
    MassProperties r;
    r.mass = p.mass;
    const Eigen::Vector3d c = (pa + pb) / 2.0;
    r.cm = {c[0], c[1], c[2]};
    r.inertia = {J(0, 0), J(1, 1), J(2, 2), J(0, 1), J(0, 2), J(1, 2)};
    shapes = "link " + numberText(L * 1e3) + " mm";
    return r;
  }
  return std::nullopt;
}

void checkInertia(const Project& p, const MeshReader& readMesh, std::vector<GeometryFinding>& out) {
  for (const PartDef& part : p.mechanism.parts) {
    if (part.ground || !defaultInertia(part) || !(part.mass > 0.0)) continue;
    std::string shapes;
    const auto g = drawnProperties(part, readMesh, shapes);
    if (!g) continue;
    const double given = PartDef{}.inertia[0];
    const double drawn = std::max({g->inertia[0], g->inertia[1], g->inertia[2]});
    if (drawn < 2.0 * given && drawn > 0.5 * given) continue;  // the default is about right
    out.push_back({part.id, "part '" + part.id + "' has the default inertia (" + numberText(given) +
                                " kg m2 about each axis), but its drawn geometry (" + shapes + ") with its mass " +
                                numberText(part.mass) + " kg gives Ixx, Iyy, Izz = " + numberText(g->inertia[0]) + ", " +
                                numberText(g->inertia[1]) + ", " + numberText(g->inertia[2]) +
                                " kg m2 about a centre of mass at (" + numberText(g->cm[0]) + ", " + numberText(g->cm[1]) +
                                ", " + numberText(g->cm[2]) + ") m: enter them, or set \"mass_properties\": " +
                                "\"from_geometry\" for solids"});
  }
}

}  // namespace

std::vector<GeometryFinding> checkMechanismGeometry(const Project& drawn, const MeshReader& readMesh) {
  std::optional<Project> flat;
  const Project& p = expandedView(drawn, flat);
  std::vector<GeometryFinding> out;
  if (p.mechanism.empty()) return out;
  checkInertia(p, readMesh, out);
  const mb::ExternalLoads loads = loadsOf(p);
  std::unique_ptr<mb::MultibodySystem> base;
  try {
    base = std::make_unique<mb::MultibodySystem>(p.mechanism, loads);
  } catch (const std::exception&) {
    return out;  // the compile says what is wrong
  }
  for (const Component& c : p.components) {
    const auto a = attachedOf(c);
    if (!a || !a->joint.empty()) continue;  // along a joint: its travel is the stroke
    const int ib = base->marker(a->barrel), ir = base->marker(a->rod);
    if (ib < 0 || ir < 0) continue;
    const double length0 = lengthAt(*base, base->initialState().data(), ib, ir, nullptr);
    if (a->len.mismatch(length0, a->barrel, a->rod)) continue;  // refused by the compile
    const std::string cyl = "cylinder '" + c.id + "'";
    if (base->degreesOfFreedom() == 0) {
      out.push_back({c.id, cyl + " cannot move the mechanism: the joints leave it no degree of freedom"});
      continue;
    }
    std::vector<Driver> drivers = driversOf(p, *a, loads);
    if (drivers.empty()) continue;  // no joint drives it alone (spherical chains...): nothing to sweep
    if (!moves(drivers.front(), length0)) {
      out.push_back({c.id, cyl + " cannot move the linkage: at the start no joint changes its length (" +
                               cannotMove(p, *a, drivers) + ")"});
      continue;
    }
    // A joint whose coordinate turns back on the way (a toggle's ram at its
    // dead centre) cannot drive the whole stroke: the next one is tried, and
    // a lock-up is said only when every joint locks.
    std::vector<GeometryFinding> firstLock;
    for (Driver& d : drivers) {
      if (!moves(d, length0)) break;
      std::vector<GeometryFinding> f;
      const bool locked = sweep(*a, d, length0, f);
      if (!locked) {
        out.insert(out.end(), f.begin(), f.end());
        firstLock.clear();
        break;
      }
      if (firstLock.empty()) firstLock = f;
    }
    out.insert(out.end(), firstLock.begin(), firstLock.end());
  }
  return out;
}

std::vector<GeometryFinding> deadPointCrossings(const Project& drawn, const ResultStore& r) {
  std::optional<Project> flat;
  const Project& p = expandedView(drawn, flat);
  std::vector<GeometryFinding> out;
  if (p.mechanism.empty() || r.rows() < 2) return out;
  const mb::ExternalLoads loads = loadsOf(p);
  for (const Component& c : p.components) {
    const auto a = attachedOf(c);
    if (!a || !a->joint.empty()) continue;
    std::vector<Driver> drivers;
    try {
      drivers = driversOf(p, *a, loads);
    } catch (const std::exception&) {
      continue;
    }
    const auto t = r.times();
    const int cx = r.find(c.id + ".x"), cv = r.find(c.id + ".v");
    if (cx < 0 || cv < 0) continue;
    const auto x = r.column(cx), v = r.column(cv);
    const double L = a->len.stroke, margin = 0.01 * L;
    for (const Driver& d : drivers) {
      // Only joints that change the cylinder's length (not another axis's slide).
      if (!moves(d, a->len.stroke)) continue;
      const JointDef& j = *d.joint;
      const bool rev = isRevolute(j);
      const int jr = r.find(j.id + (rev ? ".rate" : ".velocity")), jq = r.find(j.id + (rev ? ".angle" : ".displacement"));
      if (jr < 0 || jq < 0) continue;
      const auto w = r.column(jr), q = r.column(jq);
      int passes = 0;
      size_t first = 0;
      for (size_t i = 1; i < t.size(); ++i) {
        if (!(v[i - 1] * v[i] < 0.0) || !(w[i - 1] * w[i] > 0.0)) continue;  // not reversing, or the joint reverses too
        if (x[i] < margin || x[i] > L - margin) continue;                        // a bounce at a stop
        if (passes++ == 0) first = i;
      }
      if (passes == 0) continue;
      const size_t i = first;
      const double s = v[i - 1] / (v[i - 1] - v[i]), tc = t[i - 1] + s * (t[i] - t[i - 1]);
      const double qc = q[i - 1] + s * (q[i] - q[i - 1]), xc = x[i - 1] + s * (x[i] - x[i - 1]);
      std::string msg = "cylinder '" + c.id + "' drove the linkage over a dead point at t = " + numberText(tc) +
                        " s: joint '" + j.id + "' kept " + (rev ? "turning" : "moving") + " (" + numberText(w[i]) +
                        (rev ? " rad/s" : " m/s") + " at " + coordinateText(j, qc) +
                        ") while the cylinder reversed at x = " + numberText(xc * 1e3) + " mm of its " +
                        numberText(L * 1e3) + " mm stroke, away from its end stops";
      if (passes > 1) msg += " (" + std::to_string(passes - 1) + " more pass(es) later)";
      out.push_back({c.id, msg});
      break;
    }
  }
  return out;
}

std::vector<std::string> deadPointChannels(const Project& drawn) {
  std::optional<Project> flat;
  const Project& p = expandedView(drawn, flat);
  std::vector<std::string> out;
  if (p.mechanism.empty()) return out;
  for (const Component& c : p.components)
    if (const auto a = attachedOf(c); a && a->joint.empty()) {
      out.push_back(c.id + ".x");
      out.push_back(c.id + ".v");
    }
  if (out.empty()) return out;
  for (const JointDef& j : p.mechanism.joints) {
    const bool rev = isRevolute(j);
    out.push_back(j.id + (rev ? ".rate" : ".velocity"));
    out.push_back(j.id + (rev ? ".angle" : ".displacement"));
  }
  return out;
}

std::optional<CylinderAttachment> cylinderAttachment(const Project& p, const std::string& component) {
  const Component* c = p.find(component);
  if (!c) return std::nullopt;
  const auto a = attachedOf(*c);
  if (!a) return std::nullopt;
  CylinderAttachment r;
  r.barrel = a->barrel;
  r.rod = a->rod;
  r.joint = a->joint;
  r.x0 = a->len.x0;
  try {
    mb::MultibodySystem sys(p.mechanism, loadsOf(p));
    const double* y = sys.initialState().data();
    if (a->joint.empty()) {
      const int ib = sys.marker(a->barrel), ir = sys.marker(a->rod);
      if (ib < 0 || ir < 0) return r;
      r.distance = lengthAt(sys, y, ib, ir, nullptr);
      r.retracted = a->len.retracted(r.distance);
      if (auto why = a->len.mismatch(r.distance, a->barrel, a->rod)) {
        // The cylinder's own range then, not the one the markers would give it.
        r.problem = *why;
        r.retracted = a->len.given() ? a->len.retractedGiven : a->len.minimumRetracted();
      }
      r.exact = a->len.given();
      r.required = r.retracted + a->len.x0;
    } else {
      const int j = sys.joint(a->joint);
      if (j < 0) return r;
      r.distance = sys.jointCoordinateAt(y, j, nullptr);
      r.retracted = r.distance - a->len.x0;
    }
    r.extended = r.retracted + a->len.stroke;
    r.known = true;
  } catch (const std::exception&) {
  }
  return r;
}

}  // namespace pm
