#include "flexible_body_editing.h"

#include "units.h"
#include "model/orientation.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pm::gui {

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
const char* kAxes[] = {"x", "y", "z"};
const char* kRpy[] = {"roll", "pitch", "yaw"};
const QStringList kShapes{"rectangle", "round", "tube", "direct"};

// Shown unit and scale from SI of each number a beam has.
struct Shown {
  const char* unit;
  double scale;
};

Shown sectionUnit(const std::string& k) {
  if (k == "A") return {"mm2", 1e6};
  if (k == "Iy" || k == "Iz" || k == "J") return {"mm4", 1e12};
  return {"mm", 1e3};  // hy, bz, d, d_inner, cy, cz
}

EditField number(const std::string& key, const QString& label, double si, Shown u, const QString& tip = {}) {
  EditField f;
  f.key = key;
  f.label = label;
  f.kind = EditField::Kind::Number;
  f.unit = u.unit;
  f.value = units::formatNumber(si * u.scale);
  f.tip = tip;
  return f;
}

// The section's entries a shape needs, with their defaults [m, m2, m4].
std::map<std::string, double> defaultSection(const std::string& shape) {
  if (shape == "round") return {{"d", 0.02}};
  if (shape == "tube") return {{"d", 0.03}, {"d_inner", 0.024}};
  if (shape == "direct") return {{"A", 2e-4}, {"Iy", 1.667e-9}, {"Iz", 6.667e-9}, {"J", 4.58e-9}};
  return {{"hy", 0.02}, {"bz", 0.01}};
}

// Markers follow a new element count: the tip stays the tip, the others
// keep their place along the beam (nearest node).
void renumberMarkers(FlexibleBodyDef& d, int from, int to) {
  for (BeamMarkerDef& mk : d.markers)
    mk.node = mk.node == from ? to : static_cast<int>(std::lround(double(mk.node) * to / std::max(from, 1)));
}

}  // namespace

FlexibleBodyDef* findFlexibleBody(Mechanism& m, const std::string& id) {
  for (FlexibleBodyDef& d : m.flexible_bodies)
    if (d.id == id) return &d;
  return nullptr;
}

std::pair<double, double> beamSectionSize(const FlexibleBodyDef& d) {
  auto get = [&](const char* k, double dflt) {
    auto it = d.section.find(k);
    return it == d.section.end() ? dflt : it->second;
  };
  if (d.section_shape == "rectangle") return {get("hy", 0.02), get("bz", 0.01)};
  if (d.section_shape == "round" || d.section_shape == "tube") return {get("d", 0.02), get("d", 0.02)};
  const double a = std::sqrt(std::max(get("A", 4e-4), 1e-12));
  return {a, a};
}

std::vector<EditField> flexibleBodyFields(const FlexibleBodyDef& d) {
  std::vector<EditField> out;
  EditField id;
  id.key = "id";
  id.label = "id";
  id.kind = EditField::Kind::Text;
  id.value = QString::fromStdString(d.id);
  id.editable = false;
  out.push_back(id);
  out.push_back(number("length", "length", d.length, {"mm", 1e3}, QObject::tr("Undeformed length along the beam's x axis")));
  EditField n = number("elements", "elements", d.elements, {"", 1.0},
                       QObject::tr("Finite elements along the beam (1 to 1000; nodes: one more)"));
  out.push_back(n);
  EditField shape;
  shape.key = "section.shape";
  shape.label = "section";
  shape.kind = EditField::Kind::Choice;
  shape.value = QString::fromStdString(d.section_shape);
  shape.choices = kShapes;
  shape.tip = QObject::tr("rectangle (hy along y, bz along z), round (d), tube (d, d_inner), direct (A, Iy, Iz, J)");
  out.push_back(shape);
  for (const auto& [k, v] : d.section) out.push_back(number("section." + k, QString("  %1").arg(QString::fromStdString(k)), v, sectionUnit(k)));
  auto mat = [&](const char* k, double dflt) {
    auto it = d.material.find(k);
    return it == d.material.end() ? dflt : it->second;
  };
  out.push_back(number("material.E", "Young's modulus E", mat("E", 70e9), {"GPa", 1e-9}));
  if (d.material.count("G")) out.push_back(number("material.G", "shear modulus G", mat("G", 26e9), {"GPa", 1e-9}));
  else out.push_back(number("material.nu", "Poisson's ratio", mat("nu", 0.33), {"", 1.0}));
  out.push_back(number("material.density", "density", mat("density", 2700), {"kg/m3", 1.0}));
  if (d.damping.count("beta"))
    out.push_back(number("damping.beta", "damping beta", d.damping.at("beta"), {"s", 1.0},
                         QObject::tr("Stiffness-proportional (Rayleigh) damping factor")));
  else
    out.push_back(number("damping.ratio", "damping ratio", d.damping.count("ratio") ? d.damping.at("ratio") : 0.0,
                         {"", 1.0}, QObject::tr("Modal damping ratio of the first bending mode (0: undamped)")));
  EditField tim;
  tim.key = "timoshenko";
  tim.label = "Timoshenko shear";
  tim.kind = EditField::Kind::Flag;
  tim.value = d.timoshenko ? "1" : "0";
  out.push_back(tim);
  for (int k = 0; k < 3; ++k)
    out.push_back(number(std::string("position.") + kAxes[k], QString("root %1").arg(kAxes[k]), d.position[k], {"mm", 1e3}));
  for (int k = 0; k < 3; ++k)
    out.push_back(number(std::string("orientation.") + kRpy[k], QString(kRpy[k]), d.orientation[k], {"deg", 1 / kDeg}));
  // The initial motion, as the studio shows rates elsewhere (mm/s, deg/s).
  for (int k = 0; k < 3; ++k)
    out.push_back(number(std::string("velocity.") + kAxes[k], QString("velocity %1").arg(kAxes[k]), d.velocity[k],
                         {"mm/s", 1e3},
                         QObject::tr("Initial velocity of the root, world axes: the beam starts as a rigid body "
                                     "moving so (what holds the root wins)")));
  for (int k = 0; k < 3; ++k)
    out.push_back(number(std::string("angular_velocity.") + kAxes[k], QString("angular velocity %1").arg(kAxes[k]),
                         d.angular_velocity[k], {"deg/s", 1 / kDeg},
                         QObject::tr("Initial angular velocity, world axes, about the root")));
  return out;
}

QString applyFlexibleBodyField(Project& p, const std::string& id, const std::string& key, const QString& text) {
  FlexibleBodyDef* d = findFlexibleBody(p.mechanism, id);
  const QString where = QString("%1.%2").arg(QString::fromStdString(id), QString::fromStdString(key));
  if (!d) return QObject::tr("%1: no such flexible body").arg(QString::fromStdString(id));
  const std::vector<EditField> fields = flexibleBodyFields(*d);
  auto f = std::find_if(fields.begin(), fields.end(), [&](const EditField& x) { return x.key == key; });
  if (f == fields.end()) return QObject::tr("%1: no such field").arg(where);
  if (!f->editable) return QObject::tr("%1: read-only").arg(where);
  const QString value = text.trimmed();
  if (f->kind == EditField::Kind::Choice) {
    if (!f->choices.contains(value)) return QObject::tr("%1: '%2' is not one of: %3").arg(where, value, f->choices.join(", "));
    if (value.toStdString() != d->section_shape) d->section_shape = value.toStdString(), d->section = defaultSection(d->section_shape);
    return {};
  }
  if (f->kind == EditField::Kind::Flag) {
    d->timoshenko = value == "1";
    return {};
  }
  // A number, with or without the unit shown.
  QString number = value;
  if (!f->unit.isEmpty() && number.endsWith(f->unit)) number.chop(f->unit.size());
  bool ok = false;
  const double shown = number.trimmed().toDouble(&ok);
  if (!ok || !std::isfinite(shown)) return QObject::tr("%1: '%2' is not a number").arg(where, value);
  auto si = [&](Shown u) { return shown / u.scale; };
  auto positive = [&](double v) -> QString {
    return v > 0 ? QString() : QObject::tr("%1: must be positive").arg(where);
  };
  if (key == "length") {
    if (auto e = positive(shown); !e.isEmpty()) return e;
    d->length = si({"mm", 1e3});
  } else if (key == "elements") {
    if (shown != std::floor(shown) || shown < 1 || shown > 1000) return QObject::tr("%1: a whole number from 1 to 1000").arg(where);
    renumberMarkers(*d, d->elements, static_cast<int>(shown));
    d->elements = static_cast<int>(shown);
  } else if (key.rfind("section.", 0) == 0) {
    const std::string k = key.substr(8);
    if (auto e = positive(shown); !e.isEmpty() && k != "cy" && k != "cz") return e;
    d->section[k] = si(sectionUnit(k));
    if (d->section_shape == "tube" && !(d->section["d_inner"] < d->section["d"]))
      return QObject::tr("%1: the inner diameter must be smaller than the outer").arg(where);
  } else if (key == "material.E" || key == "material.G") {
    if (auto e = positive(shown); !e.isEmpty()) return e;
    d->material[key.substr(9)] = si({"GPa", 1e-9});
  } else if (key == "material.nu") {
    if (!(shown > -1 && shown < 0.5)) return QObject::tr("%1: must lie in (-1, 0.5)").arg(where);
    d->material["nu"] = shown;
  } else if (key == "material.density") {
    if (auto e = positive(shown); !e.isEmpty()) return e;
    d->material["density"] = shown;
  } else if (key == "damping.ratio" || key == "damping.beta") {
    if (shown < 0 || (key == "damping.ratio" && shown >= 1)) return QObject::tr("%1: must lie in [0, 1)").arg(where);
    d->damping.clear();
    if (shown > 0) d->damping[key.substr(8)] = shown;
  } else if (key.rfind("position.", 0) == 0) {
    const int k = key.back() - 'x';
    d->position[k] = si({"mm", 1e3});
  } else if (key.rfind("velocity.", 0) == 0) {
    d->velocity[key.back() - 'x'] = si({"mm/s", 1e3});
  } else if (key.rfind("angular_velocity.", 0) == 0) {
    d->angular_velocity[key.back() - 'x'] = shown * kDeg;
  } else if (key.rfind("orientation.", 0) == 0) {
    const std::string a = key.substr(12);
    const int k = a == "roll" ? 0 : a == "pitch" ? 1 : 2;
    d->orientation[k] = shown * kDeg;
  }
  return {};
}

namespace {

// The highest world z of one shape of a part at (R, r): its bounding box's
// corners in the frame it sits in.
double shapeTop(const Geometry& g, const PartDef& part, const Eigen::Matrix3d& R, const Eigen::Vector3d& r) {
  auto size = [&](const char* k, double def) { return g.size.count(k) ? g.size.at(k) : def; };
  auto markerFrame = [&](const std::string& id, Eigen::Matrix3d& Rm, Eigen::Vector3d& rm) {
    Rm = R, rm = r;
    for (const MarkerDef& k : part.markers)
      if (k.id == id) rm = r + R * Eigen::Vector3d(k.position[0], k.position[1], k.position[2]), Rm = R * rotationFromRpy(k.orientation);
  };
  Eigen::Matrix3d Rm;
  Eigen::Vector3d rm;
  markerFrame(g.marker, Rm, rm);
  Eigen::Vector3d lo, hi;
  if (g.shape == "box") {
    hi = 0.5 * Eigen::Vector3d(size("lx", 0), size("ly", 0), size("lz", 0)), lo = -hi;
  } else if (g.shape == "cylinder" || g.shape == "tube") {
    const double a = size("radius", 0);
    lo = {-a, -a, 0}, hi = {a, a, size("length", 0)};
  } else if (g.shape == "sphere") {
    hi = Eigen::Vector3d::Constant(size("radius", 0)), lo = -hi;
  } else if (g.shape == "link") {
    Eigen::Matrix3d R2;
    Eigen::Vector3d r2;
    markerFrame(g.marker2, R2, r2);
    return std::max(rm.z(), r2.z()) + 0.5 * size("width", 0);
  } else {
    return -INFINITY;  // a mesh: its extent is in its file
  }
  double top = -INFINITY;
  for (int c = 0; c < 8; ++c) {
    const Eigen::Vector3d corner(c & 1 ? hi.x() : lo.x(), c & 2 ? hi.y() : lo.y(), c & 4 ? hi.z() : lo.z());
    top = std::max(top, (rm + Rm * corner).z());
  }
  return top;
}

}  // namespace

Vec3 newBeamRoot(const Project& p) {
  double top = -INFINITY;
  for (const PartDef& part : p.mechanism.parts) {
    if (!part.ground) continue;
    const Eigen::Matrix3d R = rotationFromRpy(part.orientation);
    const Eigen::Vector3d r(part.position[0], part.position[1], part.position[2]);
    for (const Geometry& g : part.geometry) top = std::max(top, shapeTop(g, part, R, r));
  }
  return {0.0, 0.0, std::isfinite(top) ? top + 0.05 : 0.0};
}

std::string addFlexibleBody(Project& p, const Vec3& root, const std::string& stem) {
  const std::string id = freshObjectId(p, stem);
  FlexibleBodyDef d;
  d.id = id;
  d.length = 0.5;
  d.elements = 10;
  d.section_shape = "rectangle";
  d.section = defaultSection("rectangle");
  d.material = {{"E", 70e9}, {"nu", 0.33}, {"density", 2700}};
  d.damping = {{"ratio", 0.02}};
  d.position = root;
  d.markers = {{"root", 0, {}}, {"tip", d.elements, {}}};
  Mechanism& m = p.mechanism;
  PartDef* ground = nullptr;
  for (PartDef& part : m.parts)
    if (part.ground) ground = &part;
  if (ground) {
    const std::string mk = freshMarkerId(*ground, id + "_root");
    ground->markers.push_back({mk, root, {}});
    JointDef j;
    j.id = freshObjectId(p, id + "_clamp");
    j.type = "fixed";
    j.i = id + ".root";
    j.j = ground->id + "." + mk;
    m.joints.push_back(j);
  }
  m.flexible_bodies.push_back(std::move(d));
  return id;
}

}  // namespace pm::gui
