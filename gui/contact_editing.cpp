#include "contact_editing.h"

#include "engine/engine.h"
#include "flexible_body_editing.h"
#include "model/fixed_parts.h"
#include "model/orientation.h"
#include "units.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace pm::gui {

namespace {

const Vec3 kZero{0, 0, 0};

QString mm(double metres) { return units::formatNumber(metres * 1e3); }

double sizeOf(const Geometry& g, const char* k) {
  auto it = g.size.find(k);
  return it == g.size.end() ? 0.0 : it->second;
}

EditField field(const std::string& key, const QString& label, EditField::Kind kind, const QString& value,
                const QString& unit = {}, const QString& tip = {}) {
  EditField f;
  f.key = key;
  f.label = label;
  f.kind = kind;
  f.value = value;
  f.unit = unit;
  f.tip = tip;
  return f;
}

EditField choice(const std::string& key, const QString& label, const std::string& value, QStringList choices,
                 const QString& tip = {}) {
  EditField f = field(key, label, EditField::Kind::Choice, QString::fromStdString(value), {}, tip);
  if (!choices.contains(f.value)) choices.prepend(f.value);
  f.choices = std::move(choices);
  return f;
}

// A marker's pose in its part frame moved by `offset` along its own z.
MarkerDef alongZ(const MarkerDef& base, double offset) {
  MarkerDef m = base;
  const Eigen::Vector3d z = rotationFromRpy(base.orientation).col(2);
  for (int k = 0; k < 3; ++k) m.position[k] += offset * z[k];
  return m;
}

// Roll, pitch, yaw of a frame whose z-axis is `z` (any x across it).
Vec3 rpyWithZ(Eigen::Vector3d z) {
  z.normalize();
  Eigen::Vector3d x = std::abs(z.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  x = (x - x.dot(z) * z).normalized();
  Eigen::Matrix3d R;
  R.col(0) = x;
  R.col(1) = z.cross(x);
  R.col(2) = z;
  // R = Rz(yaw) Ry(pitch) Rx(roll)
  const double pitch = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
  const double roll = std::atan2(R(2, 1), R(2, 2));
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  return {roll, pitch, yaw};
}

bool samePose(const MarkerDef& a, const MarkerDef& b) {
  for (int k = 0; k < 3; ++k)
    if (std::abs(a.position[k] - b.position[k]) > 1e-12) return false;
  return (rotationFromRpy(a.orientation) - rotationFromRpy(b.orientation)).norm() < 1e-12;
}

// A sentence from a declaration's lower-case text.
QString sentence(const std::string& text) {
  QString t = QString::fromStdString(text);
  if (!t.isEmpty()) t[0] = t[0].toUpper();
  return t;
}

// The part frame's bounds of one drawn shape (its marker's pose applied),
// grown into `lo`, `hi`. A mesh is not read here: it adds nothing.
void growByDrawing(const PartDef& part, const Geometry& g, Eigen::Vector3d& lo, Eigen::Vector3d& hi) {
  auto pose = [&](const std::string& id, Eigen::Vector3d& p, Eigen::Matrix3d& R) {
    p.setZero();
    R.setIdentity();
    for (const MarkerDef& k : part.markers)
      if (k.id == id) {
        p = Eigen::Vector3d(k.position[0], k.position[1], k.position[2]);
        R = rotationFromRpy(k.orientation);
      }
  };
  Eigen::Vector3d p, a, b;
  Eigen::Matrix3d R, R2;
  pose(g.marker, p, R);
  auto grow = [&](const Eigen::Vector3d& x) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  };
  if (g.shape == "link" && !g.marker2.empty()) {  // its two ends, widened by half its width
    pose(g.marker2, b, R2);
    const Eigen::Vector3d w = Eigen::Vector3d::Constant(0.5 * sizeOf(g, "width"));
    for (const Eigen::Vector3d& e : {p, b}) grow(e - w), grow(e + w);
    return;
  }
  if (g.shape == "box") {
    b = 0.5 * Eigen::Vector3d(sizeOf(g, "lx"), sizeOf(g, "ly"), sizeOf(g, "lz"));
    a = -b;
  } else if (g.shape == "sphere") {
    b = Eigen::Vector3d::Constant(sizeOf(g, "radius"));
    a = -b;
  } else if (g.shape == "cylinder" || g.shape == "tube") {  // from its marker along +z
    const double r = sizeOf(g, "radius");
    a = Eigen::Vector3d(-r, -r, 0.0);
    b = Eigen::Vector3d(r, r, sizeOf(g, "length"));
  } else {
    return;
  }
  for (int c = 0; c < 8; ++c)
    grow(p + R * Eigen::Vector3d(c & 1 ? b.x() : a.x(), c & 2 ? b.y() : a.y(), c & 4 ? b.z() : a.z()));
}

// The SI unit of a size field "<side>.size.<name>" of `shape` ("m").
std::string sizeUnit(const std::string& shape, const std::string& key) {
  const engine::ContactShapeDecl* decl = engine::contactShapeDecl(shape);
  const engine::ContactSizeDecl* d = decl ? decl->size(key.substr(key.find(".size.") + 6)) : nullptr;
  return d ? d->unit : "m";
}

QString message(const ProjectError& e) {
  return QString::fromStdString(e.object() + "." + e.field() + ": " + e.message());
}

// "<id>.<key>": where a typed value's message points.
QString fieldWhere(const std::string& id, const std::string& key) {
  return QString("%1.%2").arg(QString::fromStdString(id), QString::fromStdString(key));
}

// What applying a typed value to a contact pair or a latch has in common:
// the field looked up among those the form shows, "id" renamed, a choice
// checked against those offered; `set` writes any other field's value
// (trimmed) and returns "" or the reason naming `where`.
QString applyTypedField(
    Project& p, const std::string& id, const std::string& key, const QString& text, const std::vector<EditField>& fields,
    const std::function<QString(const EditField& f, const std::string& value, const QString& where)>& set) {
  const QString where = fieldWhere(id, key);
  auto f = std::find_if(fields.begin(), fields.end(), [&](const EditField& e) { return e.key == key; });
  if (f == fields.end()) return QObject::tr("%1: no such field").arg(where);
  const std::string value = text.trimmed().toStdString();
  if (key == "id") return renameObject(p, id, value);
  if (f->kind == EditField::Kind::Choice && !f->choices.contains(text.trimmed()))
    return QObject::tr("%1: '%2' is not one of: %3").arg(where, text.trimmed(), f->choices.join(", "));
  return set(*f, value, where);
}

}  // namespace

ContactDef* findContact(Mechanism& m, const std::string& id) {
  auto it = std::find_if(m.contacts.begin(), m.contacts.end(), [&](const ContactDef& c) { return c.id == id; });
  return it == m.contacts.end() ? nullptr : &*it;
}

LatchDef* findLatch(Mechanism& m, const std::string& id) {
  auto it = std::find_if(m.latches.begin(), m.latches.end(), [&](const LatchDef& l) { return l.id == id; });
  return it == m.latches.end() ? nullptr : &*it;
}

// ----------------------------------------------------------------- shapes

QString contactShapeLabel(const ContactShapeOption& o, const std::map<std::string, double>& size, bool typed) {
  auto at = [&](const char* k) {
    auto it = size.find(k);
    return mm(it == size.end() ? 0.0 : it->second);
  };
  if (!o.drawn) return o.label;  // "sphere, sizes typed below": no drawn sizes to tell apart
  const std::string& shape = o.shape.shape;
  QString sizes;
  if (shape == "box") sizes = QObject::tr("%1 x %2 x %3 mm").arg(at("lx"), at("ly"), at("lz"));
  else if (shape == "sphere") sizes = QObject::tr("r %1 mm").arg(at("radius"));
  else if (shape == "cylinder" || shape == "capsule") sizes = QObject::tr("r %1 x %2 mm").arg(at("radius"), at("length"));
  else return o.label;  // sizes not in its label (a plane, a shape with sizes typed below)
  const QString origin = typed ? QObject::tr("typed") : o.origin;
  QStringList words{QString::fromStdString(shape), sizes};
  if (!origin.isEmpty()) words << QString("(%1)").arg(origin);
  if (!o.place.isEmpty()) words << o.place;
  return words.join(' ');
}

std::vector<ContactShapeOption> contactShapeOptions(const Mechanism& m, const std::string& partId) {
  std::vector<ContactShapeOption> out;
  const PartDef* part = m.part(partId);
  if (!part) return out;
  auto markerOf = [&](const std::string& id) -> MarkerDef {
    for (const MarkerDef& k : part->markers)
      if (k.id == id) return k;
    return MarkerDef{"", kZero, kZero};  // the part frame
  };
  auto where = [](const Geometry& g) {
    return g.marker.empty() ? QObject::tr("at the part frame") : QObject::tr("at %1").arg(QString::fromStdString(g.marker));
  };
  for (const Geometry& g : part->geometry) {
    ContactShapeOption o;
    const MarkerDef base = markerOf(g.marker);
    o.at = base;
    if (g.shape == "box") {
      o.shape.shape = "box";
      o.shape.size = {{"lx", sizeOf(g, "lx")}, {"ly", sizeOf(g, "ly")}, {"lz", sizeOf(g, "lz")}};
      o.place = where(g);
    } else if (g.shape == "sphere") {
      o.shape.shape = "sphere";
      o.shape.size = {{"radius", sizeOf(g, "radius")}};
      o.place = where(g);
    } else if (g.shape == "cylinder" || g.shape == "tube") {
      // Drawn from its marker along +z; the contact cylinder is centred.
      const double len = sizeOf(g, "length");
      o.shape.shape = "cylinder";
      o.shape.size = {{"radius", sizeOf(g, "radius")}, {"length", len}};
      o.at = alongZ(base, 0.5 * len);
      o.place = where(g);
    } else if (g.shape == "link" && !g.marker2.empty()) {
      // A flat bar with rounded ends between two markers: a capsule along it.
      const MarkerDef a = markerOf(g.marker), b = markerOf(g.marker2);
      const Eigen::Vector3d pa(a.position[0], a.position[1], a.position[2]), pb(b.position[0], b.position[1], b.position[2]);
      const double len = (pb - pa).norm();
      if (!(len > 0.0)) continue;
      const Eigen::Vector3d mid = 0.5 * (pa + pb);
      o.at = MarkerDef{"", {mid.x(), mid.y(), mid.z()}, rpyWithZ(pb - pa)};
      o.shape.shape = "capsule";
      o.shape.size = {{"radius", 0.5 * sizeOf(g, "width")}, {"length", len}};
      o.place = QObject::tr("along the link %1 - %2").arg(QString::fromStdString(g.marker), QString::fromStdString(g.marker2));
    } else {
      continue;  // a mesh: the core has no mesh contact
    }
    if (!(o.shape.size.begin()->second > 0.0)) continue;
    o.label = contactShapeLabel(o, o.shape.size);
    if (!g.marker.empty() && samePose(base, o.at) && !base.id.empty()) o.shape.marker = partId + "." + g.marker;
    for (const MarkerDef& k : part->markers)
      if (o.shape.marker.empty() && samePose(k, o.at)) o.shape.marker = partId + "." + k.id;
    out.push_back(o);
  }
  for (const MarkerDef& k : part->markers) {
    ContactShapeOption o;
    o.at = k;
    o.shape.marker = partId + "." + k.id;
    o.shape.shape = "plane";
    o.label = QObject::tr("plane at %1 (its xy-plane, z out of the solid)").arg(QString::fromStdString(k.id));
    out.push_back(o);
  }
  const engine::ContactSizeBasis basis = contactSizeBasis(m, partId);
  for (const std::string& shape : engine::contactShapes()) {
    if (shape == "plane") continue;  // at each marker above
    ContactShapeOption o;
    o.at = MarkerDef{"", kZero, kZero};
    o.drawn = false;
    o.shape.shape = shape;
    o.shape.size = engine::contactDefaultSizes(shape, basis);
    o.label = QObject::tr("%1, sizes typed below").arg(QString::fromStdString(shape));
    out.push_back(o);
  }
  return out;
}

std::vector<ContactShapeOption> flexibleShapeOptions(const Mechanism& m, const std::string& bodyId) {
  std::vector<ContactShapeOption> out;
  const FlexibleBodyDef* d = m.flexibleBody(bodyId);
  if (!d) return out;
  const engine::ContactSizeBasis basis = contactSizeBasis(m, bodyId);
  ContactShapeOption sphere;
  sphere.shape.shape = "sphere";
  sphere.shape.size = engine::contactDefaultSizes("sphere", basis);
  sphere.origin = QObject::tr("the section's size");
  sphere.place = QObject::tr("at a marker");
  sphere.label = contactShapeLabel(sphere, sphere.shape.size);
  ContactShapeOption box;
  box.shape.shape = "box";
  box.shape.size = engine::contactDefaultSizes("box", basis);
  box.origin = QObject::tr("an element");
  box.place = QObject::tr("at a marker");
  box.label = contactShapeLabel(box, box.shape.size);
  ContactShapeOption plane;
  plane.shape.shape = "plane";
  plane.label = QObject::tr("plane at a marker (its xy-plane, z out of the solid)");
  return {sphere, box, plane};
}

engine::ContactSizeBasis contactSizeBasis(const Mechanism& m, const std::string& body) {
  engine::ContactSizeBasis b;
  if (const FlexibleBodyDef* d = m.flexibleBody(body)) {
    const auto [hy, bz] = beamSectionSize(*d);
    b = {d->length / std::max(1, d->elements), hy, bz, true};
  } else if (const PartDef* p = m.part(body)) {
    Eigen::Vector3d lo = Eigen::Vector3d::Constant(HUGE_VAL), hi = -lo;
    for (const Geometry& g : p->geometry) growByDrawing(*p, g, lo, hi);
    if ((hi - lo).minCoeff() >= 0.0) b = {hi.x() - lo.x(), hi.y() - lo.y(), hi.z() - lo.z(), false};
  }
  return b;
}

QStringList bodyMarkers(const Mechanism& m, const std::string& body) {
  QStringList out;
  if (const PartDef* p = m.part(body))
    for (const MarkerDef& k : p->markers) out << QString::fromStdString(k.id);
  if (const FlexibleBodyDef* d = m.flexibleBody(body))
    for (const BeamMarkerDef& k : d->markers) out << QString::fromStdString(k.id);
  return out;
}

ContactShapeDef placeContactShape(Mechanism& m, const std::string& partId, const ContactShapeOption& o,
                                  const std::string& marker) {
  ContactShapeDef s = o.shape;
  if (!marker.empty()) s.marker = partId + "." + marker;
  if (!s.marker.empty()) return s;
  PartDef* part = findPart(m, partId);
  if (!part) return s;
  for (const MarkerDef& k : part->markers)
    if (samePose(k, o.at)) {
      s.marker = partId + "." + k.id;
      return s;
    }
  MarkerDef k = o.at;
  k.id = freshMarkerId(*part, "contact");
  part->markers.push_back(k);
  s.marker = partId + "." + k.id;
  return s;
}

bool partCannotMove(const Mechanism& m, const std::string& partId) { return partsFixedToGround(m).count(partId) > 0; }

QString placeMeshShape(Mechanism& m, const std::string& partId, const std::string& folder, const std::string& file,
                       double scale, const std::string& side, ContactShapeDef* out, const std::string& marker) {
  const QString field = QString::fromStdString(side + ".file");
  if (file.empty()) return QObject::tr("%1: choose an STL or OBJ file in the project's folder").arg(field);
  if (!(scale > 0.0)) return QObject::tr("%1: the scale must be positive").arg(QString::fromStdString(side + ".size.scale"));
  TriangleMesh mesh;
  try {
    mesh = engine::readMesh(folder, file);
  } catch (const std::exception& e) {
    return QObject::tr("%1: %2").arg(field, QString::fromStdString(e.what()));
  }
  ContactShapeOption o;
  o.at = MarkerDef{"", kZero, kZero};  // the file's axes are the part frame's
  o.shape.shape = "mesh";
  o.shape.file = file;
  o.shape.size = {{"scale", scale}};
  for (const Vec3& v : mesh.vertices) o.shape.vertices.push_back({scale * v[0], scale * v[1], scale * v[2]});
  for (const auto& t : mesh.triangles) o.shape.triangles.push_back({int(t[0]), int(t[1]), int(t[2])});
  *out = placeContactShape(m, partId, o, marker);
  return {};
}

// ----------------------------------------------------------------- checks

QString checkContactPair(const Mechanism& m, const ContactDef& pair) {
  try {
    engine::checkContact(m, pair);
  } catch (const ProjectError& e) {
    return message(e);
  }
  return {};
}

QString checkLatchDef(const Mechanism& m, const LatchDef& latch) {
  try {
    engine::checkLatch(m, latch);
  } catch (const ProjectError& e) {
    return message(e);
  }
  return {};
}

// ----------------------------------------------------------------- fields

std::vector<EditField> contactSizeFields(const std::string& side, const ContactShapeDef& s) {
  std::vector<EditField> out;
  const engine::ContactShapeDecl* decl = engine::contactShapeDecl(s.shape);
  if (!decl) return out;
  for (const engine::ContactSizeDecl& d : decl->sizes) {
    if (d.optional) continue;  // a mesh's scale: the dialog's unit box
    const ShownUnit u = shownUnitOf(d.unit);
    auto it = s.size.find(d.name);
    out.push_back(field(side + ".size." + d.name, QString::fromStdString(d.name), EditField::Kind::Number,
                        units::formatNumber(u.scale * (it == s.size.end() ? 0.0 : it->second)), u.unit,
                        QObject::tr("%1 [%2]. A new %3: %4.")
                            .arg(sentence(d.description), u.unit, QString::fromStdString(s.shape),
                                 QString::fromStdString(d.rule))));
  }
  return out;
}

QString applyContactSize(ContactShapeDef& s, const EditField& f, const QString& text, const QString& where) {
  double shown = 0.0;
  if (QString err = parseFieldNumber(f, text, where, shown); !err.isEmpty()) return err;
  if (!(shown > 0.0) || !std::isfinite(shown))
    return QObject::tr("%1: %2 %3 is not a size: it must be > 0").arg(where, units::formatNumber(shown), f.unit);
  s.size[f.key.substr(f.key.find(".size.") + 6)] = shown / shownUnitOf(sizeUnit(s.shape, f.key)).scale;
  return {};
}

std::vector<EditField> contactFields(const Project& p, const ContactDef& c) {
  std::vector<EditField> out;
  out.push_back(field("id", "id", EditField::Kind::Text, QString::fromStdString(c.id)));
  const QStringList markers = markerRefs(p.mechanism);
  QStringList shapes;
  for (const std::string& s : engine::contactShapes()) shapes << QString::fromStdString(s);
  for (const auto& [side, s] : {std::pair{"i", &c.i}, std::pair{"j", &c.j}}) {
    const std::string k = std::string(side) + ".";
    const QString who = side == std::string("i") ? "I" : "J";
    out.push_back(choice(k + "marker", QString("%1 marker").arg(who), s->marker, markers,
                         QObject::tr("The shape sits in this marker's axes")));
    out.push_back(choice(k + "shape", QString("%1 shape").arg(who), s->shape, shapes,
                         side == std::string("i") ? QObject::tr("The normal force pushes J's part away from I's")
                                                  : QString()));
    for (EditField f : contactSizeFields(side, *s)) {
      f.label = "  " + f.label;
      out.push_back(f);
    }
  }
  appendParamFields(out, engine::contactParameters(), c.params);
  return out;
}

std::vector<EditField> latchFields(const Project& p, const LatchDef& l) {
  std::vector<EditField> out;
  out.push_back(field("id", "id", EditField::Kind::Text, QString::fromStdString(l.id)));
  QStringList types;
  for (const MechTypeDecl& t : jointTypes())
    if (t.name != "coupler") types << QString::fromStdString(t.name);
  out.push_back(choice("type", "joint when engaged", l.type, types));
  const QStringList markers = markerRefs(p.mechanism);
  out.push_back(choice("i", "I marker", l.i, markers));
  out.push_back(choice("j", "J marker", l.j, markers, QObject::tr("The joint forms where the parts are when it engages")));
  appendParamFields(out, latchType(), l.params);
  for (EditField& f : out)
    if (f.key == "param.engaged") {
      f.kind = EditField::Kind::Flag;
      f.value = f.value.toDouble() > 0.5 ? "1" : "0";
      f.label = "engaged at the start";
    }
  out.push_back(field("engage", "engage signal", EditField::Kind::Text, QString::fromStdString(l.engage), {},
                      QObject::tr("Engages while this signal is above 0.5 (with the capture radius, when both are given)")));
  out.push_back(field("release", "release signal", EditField::Kind::Text, QString::fromStdString(l.release), {},
                      QObject::tr("Releases when this signal is above 0.5")));
  return out;
}

QString applyContactField(Project& p, const std::string& id, const std::string& key, const QString& text) {
  ContactDef* c = findContact(p.mechanism, id);
  if (!c) return QObject::tr("%1: no contact pair '%2'").arg(fieldWhere(id, key), QString::fromStdString(id));
  return applyTypedField(p, id, key, text, contactFields(p, *c), [&](const EditField& f, const std::string& value,
                                                                     const QString& where) -> QString {
    ContactShapeDef* side = key.rfind("i.", 0) == 0 ? &c->i : key.rfind("j.", 0) == 0 ? &c->j : nullptr;
    const std::string what = side ? key.substr(2) : std::string();
    if (what == "marker") {
      side->marker = value;
    } else if (what == "shape") {
      side->shape = value;
      // The sizes both shapes take stay; the others by the core's rules.
      const std::string body = side->marker.substr(0, side->marker.find('.'));
      side->size = engine::contactDefaultSizes(value, contactSizeBasis(p.mechanism, body), side->size);
    } else if (what.rfind("size.", 0) == 0) {
      if (QString err = applyContactSize(*side, f, text, where); !err.isEmpty()) return err;
    } else if (key.rfind("param.", 0) == 0) {
      if (QString err = applyParamField(engine::contactParameters(), c->params, key.substr(6), f, text, where);
          !err.isEmpty())
        return err;
    } else {
      return QObject::tr("%1: not editable here").arg(where);
    }
    return checkContactPair(p.mechanism, *c);
  });
}

QString applyLatchField(Project& p, const std::string& id, const std::string& key, const QString& text) {
  LatchDef* l = findLatch(p.mechanism, id);
  if (!l) return QObject::tr("%1: no latch '%2'").arg(fieldWhere(id, key), QString::fromStdString(id));
  return applyTypedField(p, id, key, text, latchFields(p, *l), [&](const EditField& f, const std::string& value,
                                                                   const QString& where) -> QString {
    if (key == "type") l->type = value;
    else if (key == "i") l->i = value;
    else if (key == "j") l->j = value;
    else if (key == "engage") l->engage = value;
    else if (key == "release") l->release = value;
    else if (key == "param.engaged") {
      if (value == "1") l->params["engaged"] = 1.0;
      else l->params.erase("engaged");
    } else if (key.rfind("param.", 0) == 0) {
      if (QString err = applyParamField(latchType(), l->params, key.substr(6), f, text, where); !err.isEmpty()) return err;
    } else {
      return QObject::tr("%1: not editable here").arg(where);
    }
    return checkLatchDef(p.mechanism, *l);
  });
}

}  // namespace pm::gui
