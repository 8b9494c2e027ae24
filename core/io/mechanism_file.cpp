#include "io/mechanism_file.h"

#include "io/mesh_file.h"
#include "model/component_type.h"
#include "model/mass_properties.h"
#include "model/mechanism_types.h"
#include "model/message_text.h"
#include "model/project_error.h"

#include <cmath>
#include <set>

namespace pm {

using nlohmann::json;

const PartDef* Mechanism::part(const std::string& id) const {
  for (const auto& p : parts)
    if (p.id == id) return &p;
  return nullptr;
}

const FlexibleBodyDef* Mechanism::flexibleBody(const std::string& id) const {
  for (const auto& b : flexible_bodies)
    if (b.id == id) return &b;
  return nullptr;
}

namespace {

class MReader {
 public:
  explicit MReader(std::string f) : file_(std::move(f)) {}
  [[noreturn]] void fail(const std::string& o, const std::string& f, const std::string& m) const {
    throw ProjectError(file_, o, f, m);
  }
  void only(const json& j, const std::set<std::string>& keys, const std::string& o, const std::string& pre = {}) const {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (!keys.count(it.key())) fail(o, pre + it.key(), "unknown field");
  }
  std::string str(const json& j, const char* k, const std::string& o, bool req = false) const {
    if (!j.contains(k)) {
      if (req) fail(o, k, "missing field");
      return {};
    }
    if (!j.at(k).is_string()) fail(o, k, std::string("expected a string, found ") + j.at(k).type_name());
    return j.at(k).get<std::string>();
  }
  double num(const json& j, const char* k, const std::string& o, double def, const std::string& pre = {}) const {
    if (!j.contains(k)) return def;
    if (!j.at(k).is_number()) fail(o, pre + k, std::string("expected a number, found ") + j.at(k).type_name());
    const double v = j.at(k).get<double>();
    if (!std::isfinite(v)) fail(o, pre + k, "not a finite number");
    return v;
  }
  template <size_t N>
  std::array<double, N> vec(const json& j, const char* k, const std::string& o, std::array<double, N> def) const {
    if (!j.contains(k)) return def;
    const json& a = j.at(k);
    if (!a.is_array() || a.size() != N) fail(o, k, "expected an array of " + std::to_string(N) + " numbers");
    std::array<double, N> r{};
    for (size_t i = 0; i < N; ++i) {
      if (!a[i].is_number() || !std::isfinite(a[i].get<double>()))
        fail(o, std::string(k) + "[" + std::to_string(i) + "]", "expected a finite number");
      r[i] = a[i].get<double>();
    }
    return r;
  }
  std::map<std::string, double> params(const json& j, const std::string& o) const {
    std::map<std::string, double> r;
    if (!j.contains("params")) return r;
    const json& p = j.at("params");
    if (!p.is_object()) fail(o, "params", "expected an object of name: value (SI)");
    for (auto it = p.begin(); it != p.end(); ++it) {
      // JSON has no infinity: "inf" / "-inf" strings stand for absent limits.
      if (it.value().is_string() && (it.value() == "inf" || it.value() == "-inf")) {
        r[it.key()] = it.value() == "inf" ? INFINITY : -INFINITY;
        continue;
      }
      r[it.key()] = num(p, it.key().c_str(), o, 0.0, "params.");
    }
    return r;
  }
  std::vector<std::array<double, 2>> table(const json& j, const std::string& o) const {
    std::vector<std::array<double, 2>> r;
    if (!j.contains("table")) return r;
    const json& t = j.at("table");
    if (!t.is_array()) fail(o, "table", "expected an array of [t, value] pairs");
    for (size_t i = 0; i < t.size(); ++i) {
      const json& p = t[i];
      if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
        fail(o, "table[" + std::to_string(i) + "]", "expected [t, value]");
      r.push_back({p[0].get<double>(), p[1].get<double>()});
    }
    return r;
  }
  Interpolation interpolation(const json& j, const std::string& o) const {
    Interpolation m = kDefaultInterpolation;
    if (!j.contains("interpolation")) return m;
    const json& v = j.at("interpolation");
    if (!v.is_string() || !parseInterpolation(v.get<std::string>(), m))
      fail(o, "interpolation", "unknown value " + v.dump() + " (expected " + interpolationNames() + ")");
    return m;
  }
  // "mass_properties": "from_geometry": mass, cm and inertia from the solids
  // and one of material, density or mass; nothing else may set them.
  void massProperties(const json& p, PartDef& d) const {
    if (d.mass_properties == "from_geometry") {
      for (const char* k : {"cm", "inertia"})
        if (p.contains(k)) fail(d.id, k, "is computed from the geometry (\"mass_properties\": \"from_geometry\"); leave it out");
      const int given = !d.material.empty() + p.contains("density") + p.contains("mass");
      if (given != 1)
        fail(d.id, given ? "mass" : "mass_properties",
             "\"from_geometry\" takes exactly one of \"material\", \"density\" or \"mass\"");
    }
    if (auto e = applyMassProperties(d, meshReaderFor(file_))) fail(d.id, e->field, e->message);
  }
  // A joint's "initial": {"angle", "rate"} (revolute) or {"displacement",
  // "velocity"} (translational, cylindrical): the names of its result channels.
  JointInitial initial(const json& ic, const JointDef& d) const {
    const auto names = jointInitialNames(d.type);
    if (!names) fail(d.id, "initial", "initial conditions are set on revolute, translational or cylindrical joints");
    if (!ic.is_object())
      fail(d.id, "initial", std::string("expected an object {\"") + names->first + "\": ..., \"" + names->second + "\": ...}");
    only(ic, {names->first, names->second}, d.id, "initial.");
    JointInitial r;
    if (ic.contains(names->first)) r.value = num(ic, names->first, d.id, 0.0, "initial.");
    if (ic.contains(names->second)) r.rate = num(ic, names->second, d.id, 0.0, "initial.");
    return r;
  }
  std::map<std::string, double> numbers(const json& j, const char* k, const std::string& o) const {
    std::map<std::string, double> r;
    if (!j.contains(k)) return r;
    if (!j.at(k).is_object()) fail(o, k, "expected an object of name: value (SI)");
    for (auto it = j.at(k).begin(); it != j.at(k).end(); ++it)
      if (!(k == std::string("section") && it.key() == "shape")) r[it.key()] = num(j.at(k), it.key().c_str(), o, 0.0, std::string(k) + ".");
    return r;
  }
  // A flexible body: its numbers here, their physics in validateMechanism.
  FlexibleBodyDef flexibleBody(const json& b, const std::string& where) const {
    if (!b.is_object()) fail(where, "", "expected an object");
    FlexibleBodyDef d;
    d.id = str(b, "id", where, true);
    const std::string& o = d.id;
    only(b, {"id", "length", "elements", "section", "material", "damping", "timoshenko", "position", "orientation",
             "velocity", "angular_velocity", "markers"},
         o);
    if (!b.contains("length")) fail(o, "length", "missing field");
    d.length = num(b, "length", o, d.length);
    if (b.contains("elements")) {
      if (!b.at("elements").is_number_integer()) fail(o, "elements", "expected a whole number");
      d.elements = b.at("elements").get<int>();
    }
    if (!b.contains("section")) fail(o, "section", "missing field");
    if (!b.at("section").is_object()) fail(o, "section", "expected an object {\"shape\": ..., dimensions [m]}");
    d.section_shape = str(b.at("section"), "shape", o + ".section", true);
    d.section = numbers(b, "section", o);
    if (!b.contains("material")) fail(o, "material", "missing field");
    d.material = numbers(b, "material", o);
    d.damping = numbers(b, "damping", o);
    if (b.contains("timoshenko")) {
      if (!b.at("timoshenko").is_boolean()) fail(o, "timoshenko", "expected true or false");
      d.timoshenko = b.at("timoshenko").get<bool>();
    }
    d.position = vec<3>(b, "position", o, d.position);
    d.orientation = vec<3>(b, "orientation", o, d.orientation);
    d.velocity = vec<3>(b, "velocity", o, d.velocity);
    d.angular_velocity = vec<3>(b, "angular_velocity", o, d.angular_velocity);
    for (const json& k : arr(b, "markers", o)) {
      if (!k.is_object()) fail(o, "markers", "expected objects");
      BeamMarkerDef md;
      md.id = str(k, "id", o + ".markers", true);
      only(k, {"id", "node", "orientation", "position"}, o, "markers." + md.id + ".");
      if (!k.contains("node") || !k.at("node").is_number_integer())
        fail(o, "markers." + md.id + ".node", "expected a node number (0 = root .. elements = tip)");
      md.node = k.at("node").get<int>();
      md.orientation = vec<3>(k, "orientation", o + ".markers." + md.id, md.orientation);
      md.position = vec<3>(k, "position", o + ".markers." + md.id, md.position);
      d.markers.push_back(md);
    }
    return d;
  }
  const json& arr(const json& j, const char* k, const std::string& o) const {
    static const json empty = json::array();
    if (!j.contains(k)) return empty;
    if (!j.at(k).is_array()) fail(o, k, "expected an array");
    return j.at(k);
  }

  Mechanism read(const json& m) const {
    if (!m.is_object()) fail("mechanism", "", "expected an object");
    only(m, {"gravity", "parts", "flexible_bodies", "joints", "motions", "forces", "contacts", "latches"}, "mechanism");
    Mechanism r;
    r.gravity = vec<3>(m, "gravity", "mechanism", r.gravity);
    int n = 0;
    for (const json& p : arr(m, "parts", "mechanism")) {
      const std::string where = "mechanism.parts[" + std::to_string(n++) + "]";
      if (!p.is_object()) fail(where, "", "expected an object");
      PartDef d;
      d.id = str(p, "id", where, true);
      const std::string o = d.id;
      only(p, {"id", "ground", "mass", "cm", "inertia", "mass_properties", "material", "density", "position",
               "orientation", "velocity", "angular_velocity", "initial_fixed", "markers", "geometry"},
           o);
      if (p.contains("ground")) {
        if (!p.at("ground").is_boolean()) fail(o, "ground", "expected true or false");
        d.ground = p.at("ground").get<bool>();
      }
      d.mass = num(p, "mass", o, d.mass);
      d.cm = vec<3>(p, "cm", o, d.cm);
      d.inertia = vec<6>(p, "inertia", o, d.inertia);
      d.mass_properties = str(p, "mass_properties", o);
      d.material = str(p, "material", o);
      d.density = num(p, "density", o, 0.0);
      if (p.contains("density") && !(d.density > 0.0)) fail(o, "density", "must be > 0 kg/m3");
      d.position = vec<3>(p, "position", o, d.position);
      d.orientation = vec<3>(p, "orientation", o, d.orientation);
      d.velocity = vec<3>(p, "velocity", o, d.velocity);
      d.angular_velocity = vec<3>(p, "angular_velocity", o, d.angular_velocity);
      if (p.contains("initial_fixed")) {
        if (!p.at("initial_fixed").is_boolean()) fail(o, "initial_fixed", "expected true or false");
        d.initial_fixed = p.at("initial_fixed").get<bool>();
      }
      for (const json& k : arr(p, "markers", o)) {
        if (!k.is_object()) fail(o, "markers", "expected objects");
        MarkerDef md;
        md.id = str(k, "id", o + ".markers", true);
        only(k, {"id", "position", "orientation"}, o + "." + md.id);
        md.position = vec<3>(k, "position", o + "." + md.id, md.position);
        md.orientation = vec<3>(k, "orientation", o + "." + md.id, md.orientation);
        d.markers.push_back(md);
      }
      for (const json& g : arr(p, "geometry", o)) {
        if (!g.is_object()) fail(o, "geometry", "expected objects");
        Geometry gd;
        only(g, {"shape", "size", "marker", "marker2", "file", "color"}, o, "geometry.");
        gd.shape = str(g, "shape", o, true);
        static const std::set<std::string> shapes{"box", "cylinder", "tube", "sphere", "link", "mesh"};
        if (!shapes.count(gd.shape))
          fail(o, "geometry.shape", "unknown shape '" + gd.shape + "' (box, cylinder, tube, sphere, link, mesh)");
        if (g.contains("size")) {
          if (!g.at("size").is_object()) fail(o, "geometry.size", "expected an object of name: value [m]");
          for (auto it = g.at("size").begin(); it != g.at("size").end(); ++it) {
            const double v = num(g.at("size"), it.key().c_str(), o, 0.0, "geometry.size.");
            if (!(v > 0.0)) fail(o, "geometry.size." + it.key(), "must be positive");
            gd.size[it.key()] = v;
          }
        }
        gd.marker = str(g, "marker", o);
        gd.marker2 = str(g, "marker2", o);
        gd.file = str(g, "file", o);
        gd.color = str(g, "color", o);
        if (gd.shape == "tube" && gd.size.count("inner_radius") && gd.size.count("radius") &&
            !(gd.size.at("inner_radius") < gd.size.at("radius")))
          fail(o, "geometry.size.inner_radius", "must be smaller than the outer radius");
        d.geometry.push_back(gd);
      }
      massProperties(p, d);
      r.parts.push_back(std::move(d));
    }
    n = 0;
    for (const json& b : arr(m, "flexible_bodies", "mechanism"))
      r.flexible_bodies.push_back(flexibleBody(b, "mechanism.flexible_bodies[" + std::to_string(n++) + "]"));
    n = 0;
    for (const json& j : arr(m, "joints", "mechanism")) {
      const std::string where = "mechanism.joints[" + std::to_string(n++) + "]";
      if (!j.is_object()) fail(where, "", "expected an object");
      JointDef d;
      d.id = str(j, "id", where, true);
      only(j, {"id", "type", "i", "j", "joints", "params", "initial"}, d.id);
      d.type = str(j, "type", d.id, true);
      d.i = str(j, "i", d.id);
      d.j = str(j, "j", d.id);
      if (j.contains("joints")) {
        const json& a = j.at("joints");
        if (!a.is_array()) fail(d.id, "joints", "expected an array of joint ids");
        for (const json& s : a) {
          if (!s.is_string()) fail(d.id, "joints", "expected joint ids (strings)");
          d.joints.push_back(s.get<std::string>());
        }
      }
      d.params = params(j, d.id);
      if (j.contains("initial")) d.initial = initial(j.at("initial"), d);
      r.joints.push_back(std::move(d));
    }
    n = 0;
    for (const json& j : arr(m, "motions", "mechanism")) {
      const std::string where = "mechanism.motions[" + std::to_string(n++) + "]";
      if (!j.is_object()) fail(where, "", "expected an object");
      MotionDef d;
      d.id = str(j, "id", where, true);
      only(j, {"id", "joint", "quantity", "function", "params", "table", "interpolation"}, d.id);
      d.joint = str(j, "joint", d.id, true);
      if (j.contains("quantity")) d.quantity = str(j, "quantity", d.id);
      if (j.contains("function")) d.function = str(j, "function", d.id);
      d.params = params(j, d.id);
      d.table = table(j, d.id);
      d.interpolation = interpolation(j, d.id);
      r.motions.push_back(std::move(d));
    }
    n = 0;
    for (const json& j : arr(m, "forces", "mechanism")) {
      const std::string where = "mechanism.forces[" + std::to_string(n++) + "]";
      if (!j.is_object()) fail(where, "", "expected an object");
      ForceDef d;
      d.id = str(j, "id", where, true);
      only(j, {"id", "type", "i", "j", "ref", "params", "table", "interpolation"}, d.id);
      d.type = str(j, "type", d.id, true);
      d.i = str(j, "i", d.id);
      d.j = str(j, "j", d.id);
      d.ref = str(j, "ref", d.id);
      d.params = params(j, d.id);
      d.table = table(j, d.id);
      d.interpolation = interpolation(j, d.id);
      r.forces.push_back(std::move(d));
    }
    n = 0;
    for (const json& j : arr(m, "contacts", "mechanism")) {
      const std::string where = "mechanism.contacts[" + std::to_string(n++) + "]";
      if (!j.is_object()) fail(where, "", "expected an object");
      ContactDef d;
      d.id = str(j, "id", where, true);
      only(j, {"id", "i", "j", "params"}, d.id);
      d.i = contactShape(j, "i", d.id);
      d.j = contactShape(j, "j", d.id);
      d.params = params(j, d.id);
      r.contacts.push_back(std::move(d));
    }
    r.latches = latches(m);
    return r;
  }
  // mechanism.latches (issue 27).
  std::vector<LatchDef> latches(const json& m) const {
    std::vector<LatchDef> r;
    int n = 0;
    for (const json& j : arr(m, "latches", "mechanism")) {
      const std::string where = "mechanism.latches[" + std::to_string(n++) + "]";
      if (!j.is_object()) fail(where, "", "expected an object");
      LatchDef d;
      d.id = str(j, "id", where, true);
      only(j, {"id", "type", "i", "j", "params", "engage", "release"}, d.id);
      if (j.contains("type")) d.type = str(j, "type", d.id, true);
      d.i = str(j, "i", d.id);
      d.j = str(j, "j", d.id);
      d.params = params(j, d.id);
      d.engage = str(j, "engage", d.id);
      d.release = str(j, "release", d.id);
      r.push_back(std::move(d));
    }
    return r;
  }
  // A contact pair's side: {"marker": "<part>.<marker>", "shape": ..., "size": {...}}.
  ContactShapeDef contactShape(const json& j, const char* side, const std::string& o) const {
    if (!j.contains(side)) fail(o, side, "missing field (a shape at a marker: {\"marker\", \"shape\", \"size\"})");
    const json& s = j.at(side);
    const std::string pre = std::string(side) + ".";
    if (!s.is_object()) fail(o, side, "expected an object {\"marker\", \"shape\", \"size\"}");
    only(s, {"marker", "shape", "size", "vertices", "triangles", "file"}, o, pre);
    ContactShapeDef d;
    for (const char* k : {"marker", "shape"}) {
      if (!s.contains(k)) fail(o, pre + k, "missing field");
      if (!s.at(k).is_string()) fail(o, pre + k, "expected a string");
    }
    d.marker = s.at("marker").get<std::string>();
    d.shape = s.at("shape").get<std::string>();
    if (s.contains("size")) {
      if (!s.at("size").is_object()) fail(o, pre + "size", "expected an object of name: value [m]");
      for (auto it = s.at("size").begin(); it != s.at("size").end(); ++it)
        d.size[it.key()] = num(s.at("size"), it.key().c_str(), o, 0.0, pre + "size.");
    }
    contactMesh(s, pre, o, d);
    return d;
  }
  // Calls row(value, field) for each row of s[key], an array of three-element rows.
  template <class F>
  void eachTriple(const json& s, const char* key, const std::string& pre, const std::string& o, const std::string& what,
                  F&& row) const {
    if (!s.contains(key)) return;
    const json& a = s.at(key);
    if (!a.is_array()) fail(o, pre + key, "expected an array of " + what);
    for (size_t i = 0; i < a.size(); ++i) {
      const std::string f = pre + key + "[" + std::to_string(i) + "]";
      if (!a[i].is_array() || a[i].size() != 3) fail(o, f, "expected " + what);
      row(a[i], f);
    }
  }
  // A mesh shape's vertices and triangles, or its file (read here, scaled by
  // size.scale); the contents are checked in build/validation.
  void contactMesh(const json& s, const std::string& pre, const std::string& o, ContactShapeDef& d) const {
    eachTriple(s, "vertices", pre, o, "[x, y, z] in m", [&](const json& r, const std::string& f) {
      Vec3 v{};
      for (int k = 0; k < 3; ++k) {
        if (!r[k].is_number() || !std::isfinite(r[k].get<double>())) fail(o, f, "expected finite numbers [x, y, z]");
        v[k] = r[k].get<double>();
      }
      d.vertices.push_back(v);
    });
    eachTriple(s, "triangles", pre, o, "[i, j, k] vertex indices", [&](const json& r, const std::string& f) {
      std::array<int, 3> t{};
      for (int k = 0; k < 3; ++k) {
        if (!r[k].is_number_integer()) fail(o, f, "expected three integer vertex indices (from 0)");
        const long long x = r[k].get<long long>();
        if (x < 0 || x > 2147483647LL) fail(o, f, "vertex index " + std::to_string(x) + " is out of range");
        t[k] = static_cast<int>(x);
      }
      d.triangles.push_back(t);
    });
    if (!s.contains("file")) return;
    if (!s.at("file").is_string()) fail(o, pre + "file", "expected a string (an STL or OBJ file relative to the project)");
    d.file = s.at("file").get<std::string>();
    if (!d.vertices.empty() || !d.triangles.empty())
      fail(o, pre + "file", "give either a file or vertices and triangles, not both");
    const auto sc = d.size.find("scale");
    const double scale = sc == d.size.end() ? 1.0 : sc->second;
    TriangleMesh m;
    try {
      m = meshReaderFor(file_)(d.file);
    } catch (const std::exception& e) {
      fail(o, pre + "file", e.what());
    }
    for (const Vec3& v : m.vertices) d.vertices.push_back({scale * v[0], scale * v[1], scale * v[2]});
    for (const auto& t : m.triangles) d.triangles.push_back({int(t[0]), int(t[1]), int(t[2])});
  }

 private:
  std::string file_;
};

json num(double v) {
  if (std::isinf(v)) return v > 0 ? json("inf") : json("-inf");
  return v;
}
json params(const std::map<std::string, double>& p) {
  json o = json::object();
  for (const auto& [k, v] : p) o[k] = num(v);
  return o;
}
json table(const std::vector<std::array<double, 2>>& t) {
  json a = json::array();
  for (const auto& r : t) a.push_back({r[0], r[1]});
  return a;
}

}  // namespace

Mechanism parseMechanism(const json& section, const std::string& file) { return MReader(file).read(section); }

json serializeMechanism(const Mechanism& m) {
  json r = json::object();
  r["gravity"] = m.gravity;
  json parts = json::array();
  for (const PartDef& p : m.parts) {
    json j = {{"id", p.id}};
    if (p.ground) {
      j["ground"] = true;
    } else if (!p.mass_properties.empty()) {
      // The basis only: cm and inertia follow from the geometry on load.
      j["mass_properties"] = p.mass_properties;
      if (!p.material.empty()) j["material"] = p.material;
      else if (p.density != 0.0) j["density"] = p.density;
      else j["mass"] = p.mass;
    } else {
      j["mass"] = p.mass;
      j["cm"] = p.cm;
      j["inertia"] = p.inertia;
    }
    if (!p.ground) {
      j["position"] = p.position;
      j["orientation"] = p.orientation;
      j["velocity"] = p.velocity;
      j["angular_velocity"] = p.angular_velocity;
      if (p.initial_fixed) j["initial_fixed"] = true;
    }
    json mk = json::array();
    for (const MarkerDef& k : p.markers) mk.push_back({{"id", k.id}, {"position", k.position}, {"orientation", k.orientation}});
    j["markers"] = mk;
    if (!p.geometry.empty()) {
      json gs = json::array();
      for (const Geometry& g : p.geometry) {
        json gj = {{"shape", g.shape}, {"size", g.size}};
        if (!g.marker.empty()) gj["marker"] = g.marker;
        if (!g.marker2.empty()) gj["marker2"] = g.marker2;
        if (!g.file.empty()) gj["file"] = g.file;
        if (!g.color.empty()) gj["color"] = g.color;
        gs.push_back(gj);
      }
      j["geometry"] = gs;
    }
    parts.push_back(j);
  }
  r["parts"] = parts;
  if (!m.flexible_bodies.empty()) {
    json fb = json::array();
    for (const FlexibleBodyDef& d : m.flexible_bodies) {
      json sec = d.section;
      sec["shape"] = d.section_shape;
      json j = {{"id", d.id},           {"length", d.length},     {"elements", d.elements},
                {"section", sec},       {"material", d.material}, {"position", d.position},
                {"orientation", d.orientation}};
      // Written only when the body starts moving: files without them stay as they were.
      if (d.velocity != Vec3{}) j["velocity"] = d.velocity;
      if (d.angular_velocity != Vec3{}) j["angular_velocity"] = d.angular_velocity;
      if (!d.damping.empty()) j["damping"] = d.damping;
      if (d.timoshenko) j["timoshenko"] = true;
      json mk = json::array();
      for (const BeamMarkerDef& k : d.markers) {
        json one = {{"id", k.id}, {"node", k.node}, {"orientation", k.orientation}};
        if (k.position != Vec3{}) one["position"] = k.position;  // an offset from the node only when there is one
        mk.push_back(std::move(one));
      }
      j["markers"] = mk;
      fb.push_back(j);
    }
    r["flexible_bodies"] = fb;
  }
  json joints = json::array();
  for (const JointDef& d : m.joints) {
    json j = {{"id", d.id}, {"type", d.type}};
    if (!d.i.empty()) j["i"] = d.i;
    if (!d.j.empty()) j["j"] = d.j;
    if (!d.joints.empty()) j["joints"] = d.joints;
    if (!d.params.empty()) j["params"] = params(d.params);
    if (const auto names = jointInitialNames(d.type); names && !d.initial.empty()) {
      json ic = json::object();
      if (d.initial.value) ic[names->first] = *d.initial.value;
      if (d.initial.rate) ic[names->second] = *d.initial.rate;
      j["initial"] = ic;
    }
    joints.push_back(j);
  }
  r["joints"] = joints;
  json motions = json::array();
  for (const MotionDef& d : m.motions) {
    json j = {{"id", d.id}, {"joint", d.joint}, {"quantity", d.quantity}, {"function", d.function}};
    if (!d.params.empty()) j["params"] = params(d.params);
    if (!d.table.empty()) j["table"] = table(d.table);
    if (d.interpolation != kDefaultInterpolation) j["interpolation"] = interpolationName(d.interpolation);
    motions.push_back(j);
  }
  r["motions"] = motions;
  json forces = json::array();
  for (const ForceDef& d : m.forces) {
    json j = {{"id", d.id}, {"type", d.type}};
    if (!d.i.empty()) j["i"] = d.i;
    if (!d.j.empty()) j["j"] = d.j;
    if (!d.ref.empty()) j["ref"] = d.ref;
    if (!d.params.empty()) j["params"] = params(d.params);
    if (!d.table.empty()) j["table"] = table(d.table);
    if (d.interpolation != kDefaultInterpolation) j["interpolation"] = interpolationName(d.interpolation);
    forces.push_back(j);
  }
  r["forces"] = forces;
  if (!m.contacts.empty()) {  // absent before issue 27: older files stay as they were
    json contacts = json::array();
    auto side = [](const ContactShapeDef& s) {
      json j = {{"marker", s.marker}, {"shape", s.shape}};
      if (!s.size.empty()) j["size"] = s.size;
      if (!s.file.empty()) j["file"] = s.file;  // the vertices are the file's
      else if (!s.vertices.empty() || !s.triangles.empty()) {
        j["vertices"] = s.vertices;
        j["triangles"] = s.triangles;
      }
      return j;
    };
    for (const ContactDef& d : m.contacts) {
      json j = {{"id", d.id}, {"i", side(d.i)}, {"j", side(d.j)}};
      if (!d.params.empty()) j["params"] = params(d.params);
      contacts.push_back(j);
    }
    r["contacts"] = contacts;
  }
  if (!m.latches.empty()) {
    json latches = json::array();
    for (const LatchDef& d : m.latches) {
      json j = {{"id", d.id}, {"type", d.type}, {"i", d.i}, {"j", d.j}};
      if (!d.params.empty()) j["params"] = params(d.params);
      if (!d.engage.empty()) j["engage"] = d.engage;
      if (!d.release.empty()) j["release"] = d.release;
      latches.push_back(j);
    }
    r["latches"] = latches;
  }
  return r;
}

}  // namespace pm
