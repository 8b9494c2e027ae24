#include "mechanism_editing.h"

#include "contact_editing.h"
#include "flexible_body_editing.h"

#include "engine/engine.h"
#include "engine/subcircuits.h"
#include "model/mass_properties.h"
#include "model/mechanism_types.h"
#include "model/project_error.h"
#include "units.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <set>

namespace pm::gui {

namespace {

constexpr double kDeg = M_PI / 180.0;

std::pair<std::string, std::string> splitRef(const std::string& ref) {
  const auto dot = ref.find('.');
  if (dot == std::string::npos) return {ref, {}};
  return {ref.substr(0, dot), ref.substr(dot + 1)};
}

bool validIdSyntax(const std::string& id) {
  if (id.empty() || !std::isalpha(static_cast<unsigned char>(id[0]))) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

bool idTaken(const Project& p, const std::string& id) {
  const Mechanism& m = p.mechanism;
  auto has = [&](const auto& v) { return std::any_of(v.begin(), v.end(), [&](const auto& o) { return o.id == id; }); };
  return has(m.parts) || has(m.flexible_bodies) || has(m.joints) || has(m.forces) || has(m.motions) ||
         has(m.contacts) || has(m.latches) || has(p.components);
}

// How a quantity is shown: scale from SI and the unit's name.
struct Shown {
  QString unit;
  double scale = 1.0;
};

Shown shownUnit(const std::string& si) {
  if (si == "m") return {"mm", 1e3};
  if (si == "m/s") return {"mm/s", 1e3};
  if (si == "rad") return {"deg", 1 / kDeg};
  if (si == "rad/s") return {"deg/s", 1 / kDeg};
  if (si == "N/m") return {"N/mm", 1e-3};
  if (si == "N s/m") return {"N s/mm", 1e-3};
  const units::DisplayUnit du = units::forUnit(si);
  if (du.offset == 0.0) return {du.unit, du.scale};
  return {QString::fromStdString(si), 1.0};
}

// "m|rad" parameters of motions: the unit of the driven joint's coordinate.
std::string resolveUnit(const std::string& unit, bool rotational) {
  const auto bar = unit.find('|');
  if (bar == std::string::npos) return unit;
  return rotational ? unit.substr(bar + 1) : unit.substr(0, bar);
}

QString num(double v) { return units::formatNumber(v); }

EditField numberField(const std::string& key, const QString& label, double si, const Shown& u, const QString& tip = {}) {
  EditField f;
  f.key = key;
  f.label = label;
  f.kind = EditField::Kind::Number;
  f.unit = u.unit;
  f.value = num(si * u.scale);
  f.tip = tip;
  return f;
}

EditField choiceField(const std::string& key, const QString& label, const std::string& value, QStringList choices,
                      const QString& tip = {}) {
  EditField f;
  f.key = key;
  f.label = label;
  f.kind = EditField::Kind::Choice;
  f.value = QString::fromStdString(value);
  if (!choices.contains(f.value)) choices.prepend(f.value);
  f.choices = std::move(choices);
  f.tip = tip;
  return f;
}

EditField textField(const std::string& key, const QString& label, const std::string& value, bool editable) {
  EditField f;
  f.key = key;
  f.label = label;
  f.kind = EditField::Kind::Text;
  f.value = QString::fromStdString(value);
  f.editable = editable;
  return f;
}

const Shown kMm{"mm", 1e3};
const Shown kDegrees{"deg", 1 / kDeg};
const char* kAxes[3] = {"x", "y", "z"};
const char* kRpy[3] = {"roll", "pitch", "yaw"};
const char* kInertia[6] = {"Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz"};

void poseFields(std::vector<EditField>& out, const Vec3& pos, const Vec3& rpy) {
  for (int k = 0; k < 3; ++k)
    out.push_back(numberField(std::string("position.") + kAxes[k], QString("position %1").arg(kAxes[k]), pos[k], kMm));
  for (int k = 0; k < 3; ++k)
    out.push_back(numberField(std::string("orientation.") + kRpy[k], QString(kRpy[k]), rpy[k], kDegrees,
                              "R = Rz(yaw) Ry(pitch) Rx(roll)"));
}

bool jointIsRotational(const Mechanism& m, const std::string& joint) {
  for (const JointDef& j : m.joints)
    if (j.id == joint) return j.type == "revolute";
  return false;
}

void paramFields(std::vector<EditField>& out, const MechTypeDecl* decl, const std::map<std::string, double>& params,
                 bool rotational) {
  if (!decl) return;
  for (const ParamDecl& d : decl->params) {
    auto it = params.find(d.name);
    const double si = it == params.end() ? d.def : it->second;
    EditField f = numberField("param." + d.name, QString::fromStdString(d.name), si,
                              shownUnit(resolveUnit(d.unit, rotational)), QString::fromStdString(d.doc));
    if (!std::isfinite(si)) f.value = si > 0 ? "inf" : "-inf";
    if (it == params.end()) f.tip += (f.tip.isEmpty() ? "" : " ") + QString("(default)");
    out.push_back(f);
  }
}

QStringList names(const std::vector<MechTypeDecl>& decls) {
  QStringList l;
  for (const MechTypeDecl& d : decls) l << QString::fromStdString(d.name);
  return l;
}

// Display geometry: the sizes each shape has (SI, with the 3D view's defaults).
const std::vector<std::pair<std::string, double>>& shapeSizes(const std::string& shape) {
  static const std::map<std::string, std::vector<std::pair<std::string, double>>> sizes{
      {"box", {{"lx", 0.05}, {"ly", 0.05}, {"lz", 0.05}}},
      {"cylinder", {{"radius", 0.01}, {"length", 0.1}}},
      {"tube", {{"radius", 0.01}, {"inner_radius", 0.008}, {"length", 0.1}}},
      {"sphere", {{"radius", 0.02}}},
      {"link", {{"width", 0.02}}},
      {"mesh", {{"scale", 1.0}}}};
  static const std::vector<std::pair<std::string, double>> none;
  auto it = sizes.find(shape);
  return it == sizes.end() ? none : it->second;
}

const QStringList kShapes{"box", "cylinder", "tube", "sphere", "link", "mesh"};

// The part's "mass properties" choice: entered by hand, or from the geometry
// with a material, with the mass given, or (from a file) with a density.
const QString kEntered = "entered";
const QString kFromGeometry = "from geometry: ";
const QString kGivenMass = "given mass";

QString massBasis(const PartDef& d) {
  if (d.mass_properties.empty()) return kEntered;
  if (!d.material.empty()) return kFromGeometry + QString::fromStdString(d.material);
  if (d.density != 0.0) return kFromGeometry + QString("density %1 kg/m3").arg(d.density);
  return kFromGeometry + kGivenMass;
}

QStringList massBases(const PartDef& d) {
  QStringList l{kEntered, kFromGeometry + kGivenMass};
  for (const Material& m : materials()) l << kFromGeometry + QString::fromStdString(m.name);
  if (!l.contains(massBasis(d))) l << massBasis(d);
  return l;
}

void setMassBasis(PartDef& d, const QString& choice) {
  if (choice == massBasis(d)) return;
  d.material.clear();
  d.density = 0.0;
  if (choice == kEntered) {  // the computed values stay, as entered numbers
    d.mass_properties.clear();
    return;
  }
  d.mass_properties = "from_geometry";
  const QString what = choice.mid(kFromGeometry.size());
  if (what != kGivenMass) d.material = what.toStdString();
  else if (!(d.mass > 0.0)) d.mass = 1.0;
}
const QString kRemoveShape = "(remove)";

void geometryFields(std::vector<EditField>& out, const PartDef& d) {
  QStringList markers{""};
  for (const MarkerDef& mk : d.markers) markers << QString::fromStdString(mk.id);
  for (size_t n = 0; n < d.geometry.size(); ++n) {
    const Geometry& g = d.geometry[n];
    const std::string k = "geometry." + std::to_string(n) + ".";
    const QString label = QString("shape %1").arg(n + 1);
    out.push_back(choiceField(k + "shape", label, g.shape, kShapes + QStringList{kRemoveShape},
                              QObject::tr("Display geometry (with mass properties from geometry, also the part's solids); %1 deletes it")
                                  .arg(kRemoveShape)));
    for (const auto& [name, def] : shapeSizes(g.shape)) {
      auto it = g.size.find(name);
      const bool length = name != "scale";
      out.push_back(numberField(k + name, QString("  %1").arg(QString::fromStdString(name)),
                                it == g.size.end() ? def : it->second, length ? kMm : Shown{"", 1.0},
                                length ? QString() : QObject::tr("Mesh units to metres")));
    }
    out.push_back(choiceField(k + "marker", "  at marker", g.marker, markers,
                              g.shape == "link" ? QObject::tr("First end of the link (empty: part origin)")
                                                : QObject::tr("Frame the shape sits in (empty: the part frame)")));
    if (g.shape == "link")
      out.push_back(choiceField(k + "marker2", "  to marker", g.marker2, markers, QObject::tr("Second end of the link")));
    if (g.shape == "mesh") {
      EditField f = textField(k + "file", "  file", g.file, true);
      f.tip = QObject::tr("STL or OBJ file, relative to the project file");
      out.push_back(f);
    }
    EditField c = textField(k + "color", "  colour", g.color, true);
    c.tip = QObject::tr("#rrggbb; empty: the part's palette colour");
    out.push_back(c);
  }
  out.push_back(choiceField("geometry.add", "add shape", "", QStringList{""} + kShapes,
                            QObject::tr("Appends a display shape to the part")));
}

// "geometry.<n>.<what>" of part `d`: the shape and what, or null.
Geometry* geometryOf(PartDef& d, const std::string& key, std::string& what) {
  if (key.rfind("geometry.", 0) != 0) return nullptr;
  const std::string rest = key.substr(9);
  const auto dot = rest.find('.');
  if (dot == std::string::npos) return nullptr;
  const size_t n = static_cast<size_t>(std::atoi(rest.substr(0, dot).c_str()));
  if (n >= d.geometry.size()) return nullptr;
  what = rest.substr(dot + 1);
  return &d.geometry[n];
}

void setShape(Geometry& g, const std::string& shape) {
  g.shape = shape;
  std::map<std::string, double> kept;
  for (const auto& [name, def] : shapeSizes(shape)) {
    auto it = g.size.find(name);
    kept[name] = it == g.size.end() ? def : it->second;
  }
  g.size = std::move(kept);
  if (shape != "link") g.marker2.clear();
  if (shape != "mesh") g.file.clear();
}

// The unit a motion's table values are shown in: the driven joint's
// coordinate (or its rate).
Shown tableUnit(const Mechanism& m, const MotionDef& d) {
  const bool rot = jointIsRotational(m, d.joint);
  if (d.quantity == "velocity") return rot ? Shown{"deg/s", 1 / kDeg} : Shown{"mm/s", 1e3};
  return rot ? kDegrees : kMm;
}

}  // namespace

// ----------------------------------------------------------------- lookups

ObjectKind objectKind(const Project& p, const std::string& id) {
  if (id.empty()) return ObjectKind::None;
  const Mechanism& m = p.mechanism;
  auto has = [&](const auto& v) { return std::any_of(v.begin(), v.end(), [&](const auto& o) { return o.id == id; }); };
  if (has(m.parts)) return ObjectKind::Part;
  if (has(m.flexible_bodies)) return ObjectKind::FlexibleBody;
  if (has(m.joints)) return ObjectKind::Joint;
  if (has(m.forces)) return ObjectKind::Force;
  if (has(m.motions)) return ObjectKind::Motion;
  if (has(m.contacts)) return ObjectKind::Contact;
  if (has(m.latches)) return ObjectKind::Latch;
  if (p.find(id)) return ObjectKind::Component;
  if (findMarker(m, id)) return ObjectKind::Marker;
  return ObjectKind::None;
}

QString kindName(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::Part: return "part";
    case ObjectKind::Marker: return "marker";
    case ObjectKind::Joint: return "joint";
    case ObjectKind::Force: return "force";
    case ObjectKind::Motion: return "motion";
    case ObjectKind::FlexibleBody: return "flexible body";
    case ObjectKind::Contact: return "contact";
    case ObjectKind::Latch: return "latch";
    default: return {};
  }
}

template <class T>
static T* findById(std::vector<T>& v, const std::string& id) {
  auto it = std::find_if(v.begin(), v.end(), [&](const T& o) { return o.id == id; });
  return it == v.end() ? nullptr : &*it;
}

PartDef* findPart(Mechanism& m, const std::string& id) { return findById(m.parts, id); }
JointDef* findJoint(Mechanism& m, const std::string& id) { return findById(m.joints, id); }
ForceDef* findForce(Mechanism& m, const std::string& id) { return findById(m.forces, id); }
MotionDef* findMotion(Mechanism& m, const std::string& id) { return findById(m.motions, id); }

MarkerDef* findMarker(Mechanism& m, const std::string& ref) {
  const auto [part, marker] = splitRef(ref);
  PartDef* p = findPart(m, part);
  return p ? findById(p->markers, marker) : nullptr;
}

const MarkerDef* findMarker(const Mechanism& m, const std::string& ref) {
  return findMarker(const_cast<Mechanism&>(m), ref);
}

QString checkNewId(const Project& p, const std::string& id) {
  if (!validIdSyntax(id))
    return QObject::tr("'%1': an id starts with a letter and uses only letters, digits, '_' and '-'")
        .arg(QString::fromStdString(id));
  if (idTaken(p, id))
    return QObject::tr("'%1' is taken (parts, joints, forces, motions and components share one id space)")
        .arg(QString::fromStdString(id));
  return {};
}

QString checkNewMarkerId(const Mechanism& m, const std::string& part, const std::string& id) {
  const PartDef* p = m.part(part);
  if (!p) return QObject::tr("no part '%1'").arg(QString::fromStdString(part));
  if (!validIdSyntax(id))
    return QObject::tr("'%1': a marker id starts with a letter and uses only letters, digits, '_' and '-'")
        .arg(QString::fromStdString(id));
  for (const MarkerDef& mk : p->markers)
    if (mk.id == id) return QObject::tr("part '%1' already has a marker '%2'").arg(QString::fromStdString(part), QString::fromStdString(id));
  return {};
}

std::string freshObjectId(const Project& p, const std::string& stem) {
  for (int n = 1;; ++n)
    if (const std::string id = stem + std::to_string(n); !idTaken(p, id)) return id;
}

std::string freshMarkerId(const PartDef& part, const std::string& stem) {
  for (int n = 1;; ++n) {
    const std::string id = stem + std::to_string(n);
    if (std::none_of(part.markers.begin(), part.markers.end(), [&](const MarkerDef& m) { return m.id == id; }))
      return id;
  }
}

QStringList markerRefs(const Mechanism& m) {
  QStringList l;
  for (const PartDef& p : m.parts)
    for (const MarkerDef& mk : p.markers) l << QString::fromStdString(p.id + "." + mk.id);
  for (const FlexibleBodyDef& b : m.flexible_bodies)
    for (const BeamMarkerDef& mk : b.markers) l << QString::fromStdString(b.id + "." + mk.id);
  return l;
}

QStringList drivableJoints(const Mechanism& m, bool forCylinder) {
  QStringList l;
  for (const JointDef& j : m.joints)
    if (j.type == "translational" || j.type == "cylindrical" || (!forCylinder && j.type == "revolute"))
      l << QString::fromStdString(j.id);
  return l;
}

// ----------------------------------------------------------------- cylinders

bool isCylinder(const Component& c) { return c.type.rfind("cylinder_", 0) == 0; }
bool isActuator(const Component& c) { return isCylinder(c) || c.type == "semi_rotary_actuator"; }

nlohmann::json attachment(const Component& c) {
  if (c.data.is_object() && c.data.contains("attach")) return c.data["attach"];
  return nullptr;
}

void setAttachment(Project& p, const std::string& cylinder, const std::string& barrel, const std::string& rod) {
  Component* c = p.find(cylinder);
  if (!c) return;
  if (!c->data.is_object()) c->data = nlohmann::json::object();
  c->data["attach"] = {{"barrel", barrel}, {"rod", rod}};
}

void clearAttachment(Project& p, const std::string& cylinder) {
  Component* c = p.find(cylinder);
  if (!c || !c->data.is_object()) return;
  c->data.erase("attach");
  if (c->data.empty()) c->data = nullptr;
}

// ----------------------------------------------------------------- delete

bool removeMechanismObject(Project& p, const std::string& id) {
  Mechanism& m = p.mechanism;
  std::set<std::string> markers, joints, forces, motions, contacts, latches;
  switch (objectKind(p, id)) {
    case ObjectKind::Part: {
      const PartDef* part = m.part(id);
      for (const MarkerDef& mk : part->markers) markers.insert(id + "." + mk.id);
      std::erase_if(m.parts, [&](const PartDef& q) { return q.id == id; });
      break;
    }
    case ObjectKind::Marker: {
      const auto [partId, markerId] = splitRef(id);
      PartDef* part = findPart(m, partId);
      std::erase_if(part->markers, [&](const MarkerDef& k) { return k.id == markerId; });
      std::erase_if(part->geometry, [&](const Geometry& g) { return g.marker == markerId || g.marker2 == markerId; });
      markers.insert(id);
      break;
    }
    case ObjectKind::FlexibleBody: {
      for (const BeamMarkerDef& mk : m.flexibleBody(id)->markers) markers.insert(id + "." + mk.id);
      std::erase_if(m.flexible_bodies, [&](const FlexibleBodyDef& q) { return q.id == id; });
      break;
    }
    case ObjectKind::Joint: joints.insert(id); break;
    case ObjectKind::Force: forces.insert(id); break;
    case ObjectKind::Motion: motions.insert(id); break;
    case ObjectKind::Contact: contacts.insert(id); break;
    case ObjectKind::Latch: latches.insert(id); break;
    default: return false;
  }
  // What stood on the deleted markers and joints goes with them.
  for (const JointDef& j : m.joints)
    if (markers.count(j.i) || markers.count(j.j)) joints.insert(j.id);
  for (bool more = true; more;) {  // couplers of couplers
    more = false;
    for (const JointDef& j : m.joints)
      if (!joints.count(j.id) && std::any_of(j.joints.begin(), j.joints.end(), [&](const std::string& q) { return joints.count(q) > 0; }))
        joints.insert(j.id), more = true;
  }
  for (const ForceDef& f : m.forces)
    if (markers.count(f.i) || markers.count(f.j) || markers.count(f.ref)) forces.insert(f.id);
  for (const MotionDef& mo : m.motions)
    if (joints.count(mo.joint)) motions.insert(mo.id);
  for (const ContactDef& c : m.contacts)
    if (markers.count(c.i.marker) || markers.count(c.j.marker)) contacts.insert(c.id);
  for (const LatchDef& l : m.latches)
    if (markers.count(l.i) || markers.count(l.j)) latches.insert(l.id);
  std::erase_if(m.contacts, [&](const ContactDef& c) { return contacts.count(c.id) > 0; });
  std::erase_if(m.latches, [&](const LatchDef& l) { return latches.count(l.id) > 0; });
  std::erase_if(m.joints, [&](const JointDef& j) { return joints.count(j.id) > 0; });
  std::erase_if(m.forces, [&](const ForceDef& f) { return forces.count(f.id) > 0; });
  std::erase_if(m.motions, [&](const MotionDef& mo) { return motions.count(mo.id) > 0; });
  for (Component& c : p.components) {
    const nlohmann::json a = attachment(c);
    if (!a.is_object()) continue;
    if (markers.count(a.value("barrel", "")) || markers.count(a.value("rod", "")) || joints.count(a.value("joint", "")))
      clearAttachment(p, c.id);
  }
  return true;
}

// ----------------------------------------------------------------- rename

QString renameObject(Project& p, const std::string& id, const std::string& newIdIn, std::string* renamed) {
  Mechanism& m = p.mechanism;
  const ObjectKind kind = objectKind(p, id);
  const QString where = QString::fromStdString(id) + ".id";
  const std::string newId = QString::fromStdString(newIdIn).trimmed().toStdString();
  if (kind == ObjectKind::None || kind == ObjectKind::Component)
    return QObject::tr("%1: only mechanism objects are renamed here").arg(where);
  // Marker references are exact; every other id also prefixes signal
  // references "<id>.<channel>".
  auto exact = [](std::string& ref, const std::string& from, const std::string& to) {
    if (ref == from) ref = to;
  };
  auto prefixed = [](std::string& ref, const std::string& from, const std::string& to) {
    if (ref.size() > from.size() && ref.compare(0, from.size() + 1, from + ".") == 0) ref = to + ref.substr(from.size());
  };
  // The components inside the project's sub-circuit types attach to the
  // mechanism and read it too: renamed with the drawn ones, written back after.
  std::vector<std::pair<nlohmann::json*, Project>> insides;
  for (auto& [type, def] : p.userComponents)
    if (def.is_object() && def.value("format", "") == "pneumech-subcircuit") try {
        insides.emplace_back(&def, engine::subcircuitInside(def, {}));
      } catch (const ProjectError&) {  // a bad one is refused when it is registered
      }
  const auto eachComponent = [&](const auto& fn) {
    for (Component& c : p.components) fn(c);
    for (auto& [def, inside] : insides)
      for (Component& c : inside.components) fn(c);
  };
  const auto writeInsides = [&] {
    for (auto& [def, inside] : insides)
      if (inside.components != engine::subcircuitInside(*def, {}).components) *def = engine::withInside(*def, inside);
  };
  auto eachMarkerRef = [&](const auto& fn) {
    for (JointDef& j : m.joints) fn(j.i), fn(j.j);
    for (ForceDef& f : m.forces) fn(f.i), fn(f.j), fn(f.ref);
    for (ContactDef& c : m.contacts) fn(c.i.marker), fn(c.j.marker);
    for (LatchDef& l : m.latches) fn(l.i), fn(l.j);
    eachComponent([&](Component& c) {
      if (!c.data.is_object() || !c.data.contains("attach") || !c.data["attach"].is_object()) return;
      for (const char* k : {"barrel", "rod"})
        if (c.data["attach"].contains(k) && c.data["attach"][k].is_string()) {
          std::string r = c.data["attach"][k];
          fn(r);
          c.data["attach"][k] = r;
        }
    });
  };
  auto eachSignalRef = [&](const auto& fn) {
    for (LatchDef& l : m.latches) fn(l.engage), fn(l.release);
    eachComponent([&](Component& c) {
      for (auto& [name, ref] : c.inputs) fn(ref);
      if (c.data.is_object() && c.data.contains("inputs") && c.data["inputs"].is_object())
        for (auto& v : c.data["inputs"])
          if (v.is_string()) {
            std::string r = v;
            fn(r);
            v = r;
          }
    });
  };

  if (kind == ObjectKind::Marker) {
    const auto [partId, oldMarker] = splitRef(id);
    std::string marker = newId;
    if (const auto dot = newId.find('.'); dot != std::string::npos) {
      if (newId.substr(0, dot) != partId)
        return QObject::tr("%1: a marker stays on its part ('%2.<marker>')").arg(where, QString::fromStdString(partId));
      marker = newId.substr(dot + 1);
    }
    const std::string to = partId + "." + marker;
    if (renamed) *renamed = to;
    if (marker == oldMarker) return {};
    if (const QString err = checkNewMarkerId(m, partId, marker); !err.isEmpty()) return where + ": " + err;
    PartDef* part = findPart(m, partId);
    findById(part->markers, oldMarker)->id = marker;
    for (Geometry& g : part->geometry) exact(g.marker, oldMarker, marker), exact(g.marker2, oldMarker, marker);
    eachMarkerRef([&](std::string& r) { exact(r, id, to); });
    writeInsides();
    return {};
  }
  if (renamed) *renamed = newId;
  if (newId == id) return {};
  if (const QString err = checkNewId(p, newId); !err.isEmpty()) return where + ": " + err;
  switch (kind) {
    case ObjectKind::Part:
      findPart(m, id)->id = newId;
      eachMarkerRef([&](std::string& r) { prefixed(r, id, newId); });
      break;
    case ObjectKind::Joint:
      findJoint(m, id)->id = newId;
      for (JointDef& j : m.joints)
        for (std::string& q : j.joints) exact(q, id, newId);
      for (MotionDef& mo : m.motions) exact(mo.joint, id, newId);
      eachComponent([&](Component& c) {
        if (c.data.is_object() && c.data.contains("attach") && c.data["attach"].is_object() &&
            c.data["attach"].value("joint", "") == id)
          c.data["attach"]["joint"] = newId;
      });
      break;
    case ObjectKind::Force: findForce(m, id)->id = newId; break;
    case ObjectKind::Motion: findMotion(m, id)->id = newId; break;
    case ObjectKind::Contact: findContact(m, id)->id = newId; break;
    case ObjectKind::Latch: findLatch(m, id)->id = newId; break;
    default: break;
  }
  eachSignalRef([&](std::string& r) { prefixed(r, id, newId); });
  writeInsides();
  return {};
}

// ----------------------------------------------------------------- fields

std::vector<EditField> editFields(const Project& p, const std::string& id) {
  const Mechanism& m = p.mechanism;
  std::vector<EditField> out;
  const QStringList markers = markerRefs(m);
  switch (objectKind(p, id)) {
    case ObjectKind::FlexibleBody: return flexibleBodyFields(*m.flexibleBody(id));
    case ObjectKind::Contact: return contactFields(p, *findContact(const_cast<Mechanism&>(m), id));
    case ObjectKind::Latch: return latchFields(p, *findLatch(const_cast<Mechanism&>(m), id));
    case ObjectKind::Part: {
      const PartDef& d = *m.part(id);
      out.push_back(textField("id", "id", d.id, true));
      EditField g;
      g.key = "ground";
      g.label = "ground";
      g.kind = EditField::Kind::Flag;
      g.value = d.ground ? "1" : "0";
      g.tip = QObject::tr("The fixed part of the mechanism (exactly one)");
      out.push_back(g);
      out.push_back(choiceField("mass_properties", "mass properties", massBasis(d).toStdString(), massBases(d),
                                QObject::tr("Entered by hand, or computed from the geometry's solids (box, cylinder, "
                                            "tube, sphere) with a material or the mass given")));
      out.push_back(numberField("mass", "mass", d.mass, {"kg", 1.0}));
      poseFields(out, d.position, d.orientation);
      const bool computed = !d.mass_properties.empty();
      for (int k = 0; k < 3; ++k) {
        out.push_back(numberField(std::string("cm.") + kAxes[k], QString("cm %1").arg(kAxes[k]), d.cm[k], kMm,
                                  QObject::tr("Centre of mass in the part frame")));
        out.back().editable = !computed;
      }
      for (int k = 0; k < 6; ++k) {
        out.push_back(numberField(std::string("inertia.") + kInertia[k], kInertia[k], d.inertia[k], {"kg m2", 1.0},
                                  QObject::tr("About the centre of mass, part axes")));
        out.back().editable = !computed;
      }
      geometryFields(out, d);
      break;
    }
    case ObjectKind::Marker: {
      const MarkerDef& k = *findMarker(m, id);
      out.push_back(textField("id", "marker", id, true));
      poseFields(out, k.position, k.orientation);
      break;
    }
    case ObjectKind::Joint: {
      const JointDef& d = *findJoint(const_cast<Mechanism&>(m), id);
      out.push_back(textField("id", "id", d.id, true));
      out.push_back(choiceField("type", "type", d.type, names(jointTypes())));
      if (d.type != "coupler") {
        out.push_back(choiceField("i", "I marker", d.i, markers, QObject::tr("The joint moves I relative to J")));
        out.push_back(choiceField("j", "J marker", d.j, markers));
      } else {
        QStringList joints = drivableJoints(m, false);
        joints.removeAll(QString::fromStdString(d.id));
        for (int k = 0; k < 2; ++k)
          out.push_back(choiceField("joints." + std::to_string(k), QString("joint %1").arg(k + 1),
                                    k < int(d.joints.size()) ? d.joints[k] : std::string(), joints,
                                    QObject::tr("q1 + ratio * q2 stays at its initial value")));
      }
      paramFields(out, findJointType(d.type), d.params, d.type == "revolute");
      break;
    }
    case ObjectKind::Force: {
      const ForceDef& d = *findForce(const_cast<Mechanism&>(m), id);
      out.push_back(textField("id", "id", d.id, true));
      out.push_back(choiceField("type", "type", d.type, names(forceTypes())));
      out.push_back(choiceField("i", "I marker", d.i, markers));
      out.push_back(choiceField("j", "J marker", d.j, QStringList{""} + markers, QObject::tr("Empty: action-only")));
      if (d.type == "vforce" || d.type == "vtorque")
        out.push_back(choiceField("ref", "axes of", d.ref, QStringList{""} + markers, QObject::tr("Empty: world axes")));
      paramFields(out, findForceType(d.type), d.params, d.type == "rotational_spring_damper");
      break;
    }
    case ObjectKind::Motion: {
      const MotionDef& d = *findMotion(const_cast<Mechanism&>(m), id);
      out.push_back(textField("id", "id", d.id, true));
      out.push_back(choiceField("joint", "joint", d.joint, drivableJoints(m, false)));
      out.push_back(choiceField("quantity", "quantity", d.quantity, {"displacement", "velocity"}));
      out.push_back(choiceField("function", "function", d.function, names(motionFunctions())));
      paramFields(out, findMotionFunction(d.function), d.params, jointIsRotational(m, d.joint));
      if (d.function == "table") {
        const Shown u = tableUnit(m, d);
        QStringList points;
        for (const auto& [t, v] : d.table) points << QString("%1 %2").arg(num(t), num(v * u.scale));
        EditField f = textField("table", QString("table (t [s] value [%1])").arg(u.unit), points.join("; ").toStdString(), true);
        f.tip = QObject::tr("Points 't value' separated by ';', times increasing; a spline runs through them");
        out.push_back(f);
      }
      break;
    }
    default: break;
  }
  return out;
}

namespace {

QString applyFieldTo(Project& p, const std::string& id, const std::string& key, const QString& text) {
  const ObjectKind kind = objectKind(p, id);
  const std::vector<EditField> fields = editFields(p, id);
  auto fit = std::find_if(fields.begin(), fields.end(), [&](const EditField& f) { return f.key == key; });
  const QString where = QString("%1.%2").arg(QString::fromStdString(id), QString::fromStdString(key));
  if (fit == fields.end()) return QObject::tr("%1: no such field").arg(where);
  const EditField& field = *fit;
  if (!field.editable) return QObject::tr("%1: read-only").arg(where);
  Mechanism& m = p.mechanism;
  const std::string value = text.trimmed().toStdString();
  if (key == "id") return renameObject(p, id, value);
  std::string what;
  Geometry* geometry = kind == ObjectKind::Part ? geometryOf(*findPart(m, id), key, what) : nullptr;

  if (field.kind == EditField::Kind::Choice) {
    if (!field.choices.contains(QString::fromStdString(value)))
      return QObject::tr("%1: '%2' is not one of: %3").arg(where, text.trimmed(), field.choices.join(", "));
    auto keepParams = [](std::map<std::string, double>& params, const MechTypeDecl* decl) {
      std::erase_if(params, [&](const auto& kv) { return !decl || !decl->param(kv.first); });
    };
    if (kind == ObjectKind::Part) {
      PartDef& d = *findPart(m, id);
      if (key == "mass_properties") {
        setMassBasis(d, QString::fromStdString(value));
      } else if (key == "geometry.add" && !value.empty()) {
        Geometry g;
        setShape(g, value);
        d.geometry.push_back(g);
      } else if (geometry && what == "shape" && value == kRemoveShape.toStdString()) {
        d.geometry.erase(d.geometry.begin() + (geometry - d.geometry.data()));
      } else if (geometry && what == "shape") {
        setShape(*geometry, value);
      } else if (geometry && what == "marker") {
        geometry->marker = value;
      } else if (geometry && what == "marker2") {
        geometry->marker2 = value;
      }
      return {};
    }
    if (kind == ObjectKind::Joint) {
      JointDef& j = *findJoint(m, id);
      if (key.rfind("joints.", 0) == 0) {
        const size_t k = key == "joints.0" ? 0 : 1;
        if (j.joints.size() < 2) j.joints.resize(2);
        j.joints[k] = value;
        if (j.joints[0] == j.joints[1]) return QObject::tr("%1: a coupler couples two different joints").arg(where);
        return {};
      }
      if (key == "type") j.type = value, keepParams(j.params, findJointType(value));
      else if (key == "i") j.i = value;
      else if (key == "j") j.j = value;
    } else if (kind == ObjectKind::Force) {
      ForceDef& f = *findForce(m, id);
      if (key == "type") f.type = value, keepParams(f.params, findForceType(value));
      else if (key == "i") f.i = value;
      else if (key == "j") f.j = value;
      else if (key == "ref") f.ref = value;
    } else if (kind == ObjectKind::Motion) {
      MotionDef& mo = *findMotion(m, id);
      if (key == "joint") mo.joint = value;
      else if (key == "quantity") mo.quantity = value;
      else if (key == "function") mo.function = value, keepParams(mo.params, findMotionFunction(value));
    }
    return {};
  }
  if (field.kind == EditField::Kind::Flag) {
    const bool on = value == "1" || value == "true" || value == "yes";
    if (kind == ObjectKind::Part && key == "ground") {
      // One ground: making this part the ground frees the previous one.
      if (on)
        for (PartDef& q : m.parts) q.ground = false;
      findPart(m, id)->ground = on;
    }
    return {};
  }
  if (field.kind == EditField::Kind::Text && kind == ObjectKind::Motion && key == "table") {
    MotionDef& mo = *findMotion(m, id);
    const Shown u = tableUnit(m, mo);
    std::vector<std::array<double, 2>> points;
    for (const QString& item : text.split(';', Qt::SkipEmptyParts)) {
      const QStringList tv = item.simplified().replace(',', '.').split(' ', Qt::SkipEmptyParts);
      bool okT = false, okV = false;
      const double t = tv.size() == 2 ? QLocale::c().toDouble(tv[0], &okT) : 0.0;
      const double v = tv.size() == 2 ? QLocale::c().toDouble(tv[1], &okV) : 0.0;
      if (!okT || !okV || !std::isfinite(t) || !std::isfinite(v))
        return QObject::tr("%1: '%2' is not a point 't value'").arg(where, item.trimmed());
      if (!points.empty() && !(t > points.back()[0]))
        return QObject::tr("%1: times must increase (%2 after %3 s)").arg(where, num(t), num(points.back()[0]));
      points.push_back({t, v / u.scale});
    }
    if (points.size() < 2) return QObject::tr("%1: a table needs at least two points").arg(where);
    mo.table = std::move(points);
    return {};
  }
  if (field.kind == EditField::Kind::Text && geometry && what == "file") {
    geometry->file = value;
    return {};
  }
  if (field.kind == EditField::Kind::Text && geometry && what == "color") {
    const bool hex = value.size() == 7 && value[0] == '#' &&
                     std::all_of(value.begin() + 1, value.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
    if (!value.empty() && !hex) return QObject::tr("%1: '%2' is not a colour #rrggbb").arg(where, text.trimmed());
    geometry->color = value;
    return {};
  }
  if (field.kind != EditField::Kind::Number) return QObject::tr("%1: not editable here").arg(where);

  double shown = 0.0;
  if (QString err = parseFieldNumber(field, text, where, shown); !err.isEmpty()) return err;
  const double scale = [&] {
    if (field.unit == "mm") return 1e3;
    if (field.unit == "deg") return 1 / kDeg;
    return 1.0;
  }();
  double si = shown / scale;
  auto component = [&](const std::string& prefix, const char* const* names, int n) -> int {
    if (key.rfind(prefix, 0) != 0) return -1;
    for (int k = 0; k < n; ++k)
      if (key.substr(prefix.size()) == names[k]) return k;
    return -1;
  };
  const int pos = component("position.", kAxes, 3), rpy = component("orientation.", kRpy, 3);
  if (kind == ObjectKind::Part) {
    PartDef& d = *findPart(m, id);
    if (key == "mass") {
      if (!(si >= 0)) return QObject::tr("%1: the mass must be >= 0 kg").arg(where);
      d.mass = si;
      d.material.clear();  // from the geometry: now with this mass
      d.density = 0.0;
    } else if (pos >= 0) d.position[pos] = si;
    else if (rpy >= 0) d.orientation[rpy] = si;
    else if (int c = component("cm.", kAxes, 3); c >= 0) d.cm[c] = si;
    else if (geometry) {
      if (!(si > 0) || !std::isfinite(si)) return QObject::tr("%1: must be a finite size > 0").arg(where);
      geometry->size[what] = si;
    }
    else if (int i = component("inertia.", kInertia, 6); i >= 0) {
      if (i < 3 && si < 0) return QObject::tr("%1: a principal moment must be >= 0").arg(where);
      d.inertia[i] = si;
    }
    return {};
  }
  if (kind == ObjectKind::Marker) {
    MarkerDef& k = *findMarker(m, id);
    if (pos >= 0) k.position[pos] = si;
    else if (rpy >= 0) k.orientation[rpy] = si;
    return {};
  }
  // A declared parameter: its own range check, in SI.
  const std::string name = key.substr(std::string("param.").size());
  const MechTypeDecl* decl = nullptr;
  std::map<std::string, double>* params = nullptr;
  if (kind == ObjectKind::Joint) decl = findJointType(findJoint(m, id)->type), params = &findJoint(m, id)->params;
  if (kind == ObjectKind::Force) decl = findForceType(findForce(m, id)->type), params = &findForce(m, id)->params;
  if (kind == ObjectKind::Motion)
    decl = findMotionFunction(findMotion(m, id)->function), params = &findMotion(m, id)->params;
  if (!decl || !params) return QObject::tr("%1: no such parameter").arg(where);
  return applyParamField(*decl, *params, name, field, text, where);
}

}  // namespace

ShownUnit shownUnitOf(const std::string& si) {
  if (si == "1") return {};
  const Shown u = shownUnit(si);
  return {u.unit, u.scale};
}

void appendParamFields(std::vector<EditField>& out, const MechTypeDecl& decl, const std::map<std::string, double>& params) {
  const size_t first = out.size();
  paramFields(out, &decl, params, false);
  for (size_t k = first; k < out.size(); ++k)
    if (out[k].unit == "1") out[k].unit.clear();
}

QString parseFieldNumber(const EditField& field, const QString& text, const QString& where, double& shown) {
  QString t = text.trimmed();
  if (!field.unit.isEmpty() && t.endsWith(field.unit)) t = t.left(t.size() - field.unit.size()).trimmed();
  t.replace(',', '.');
  if (t == "inf" || t == "+inf") shown = INFINITY;
  else if (t == "-inf") shown = -INFINITY;
  else {
    bool ok = false;
    shown = QLocale::c().toDouble(t, &ok);
    if (!ok || !std::isfinite(shown))
      return QObject::tr("%1: '%2' is not a number%3")
          .arg(where, text.trimmed(), field.unit.isEmpty() ? QString() : QObject::tr(" (in %1)").arg(field.unit));
  }
  return {};
}

QString applyParamField(const MechTypeDecl& decl, std::map<std::string, double>& params, const std::string& name,
                        const EditField& field, const QString& text, const QString& where) {
  const ParamDecl* pd = decl.param(name);
  if (!pd) return QObject::tr("%1: no such parameter").arg(where);
  double shown = 0.0;
  if (QString err = parseFieldNumber(field, text, where, shown); !err.isEmpty()) return err;
  const double si = shown / shownUnit(resolveUnit(pd->unit, field.unit == "deg" || field.unit == "deg/s")).scale;
  if (!pd->accepts(si)) {
    QString t = text.trimmed();
    if (!field.unit.isEmpty() && t.endsWith(field.unit)) t = t.left(t.size() - field.unit.size()).trimmed();
    return QObject::tr("%1: %2 %3 is outside %4 (SI)").arg(where, t, field.unit, QString::fromStdString(pd->rangeText()));
  }
  params[name] = si;
  return {};
}

QString applyField(Project& p, const std::string& id, const std::string& key, const QString& text,
                   const std::string& projectFile) {
  const ObjectKind kind = objectKind(p, id);
  if (kind == ObjectKind::FlexibleBody || kind == ObjectKind::Contact || kind == ObjectKind::Latch) {
    Project changed = p;
    const QString e = kind == ObjectKind::FlexibleBody ? applyFlexibleBodyField(changed, id, key, text)
                      : kind == ObjectKind::Contact    ? applyContactField(changed, id, key, text)
                                                       : applyLatchField(changed, id, key, text);
    if (e.isEmpty()) p = std::move(changed);
    return e;
  }
  const QString err = applyFieldTo(p, id, key, text);
  if (!err.isEmpty() || key == "id" || objectKind(p, id) != ObjectKind::Part) return err;
  // A part's mass properties from its geometry follow every edit of it.
  PartDef& d = *findPart(p.mechanism, id);
  if (auto e = applyMassProperties(d, engine::meshReader(projectFile)))
    return QObject::tr("%1.%2: %3").arg(QString::fromStdString(id), QString::fromStdString(e->field),
                                        QString::fromStdString(e->message));
  for (size_t n = 0; n < d.geometry.size(); ++n) {
    const auto& size = d.geometry[n].size;
    if (d.geometry[n].shape == "tube" && size.count("inner_radius") && size.count("radius") &&
        !(size.at("inner_radius") < size.at("radius")))
      return QObject::tr("%1.geometry.%2.inner_radius: must be smaller than the radius").arg(QString::fromStdString(id)).arg(n);
  }
  return {};
}

}  // namespace pm::gui
