#include "mechanics/contact/shape_sizes.h"

#include <algorithm>

namespace pm::contact {

namespace {

// A length the basis gives only when every side it reads is known.
double known(double v, std::initializer_list<double> sides) {
  for (double s : sides)
    if (!(s > 0.0)) return 0.0;
  return v;
}

// A sphere: half the drawing's smallest side (it fits in the body); on a
// flexible body half the section's larger side (as thick as the beam).
double sphereRadius(const SizeBasis& b, const Sizes&) {
  if (b.section) return known(0.5 * std::max(b.y, b.z), {b.y, b.z});
  return known(0.5 * std::min({b.x, b.y, b.z}), {b.x, b.y, b.z});
}
// A round shape about the marker's z: half the drawing's smaller side
// across z; on a flexible body as a sphere's.
double radiusAboutZ(const SizeBasis& b, const Sizes& made) {
  if (b.section) return sphereRadius(b, made);
  return known(0.5 * std::min(b.x, b.y), {b.x, b.y});
}
double alongX(const SizeBasis& b, const Sizes&) { return known(b.x, {b.x}); }
double alongY(const SizeBasis& b, const Sizes&) { return known(b.y, {b.y}); }
double alongZ(const SizeBasis& b, const Sizes&) { return known(b.z, {b.z}); }
double twiceRadius(const SizeBasis&, const Sizes& made) {
  auto it = made.find("radius");
  return it == made.end() ? 0.0 : 2.0 * it->second;
}
double one(const SizeBasis&, const Sizes&) { return 1.0; }

const char* kSphereRule =
    "half the smallest side of the part's drawing; on a flexible body half its section's larger side; else 10 mm";
const char* kRoundRule =
    "half the smaller side of the part's drawing across the marker's z; on a flexible body half its section's "
    "larger side; else 10 mm";
const char* kAlongZRule = "the part's drawing's length along the marker's z (a flexible body: its section's width); "
                          "else 20 mm";

std::vector<ShapeDecl> makeDecls() {
  const std::string m = "m";
  return {
      {"sphere", "centred on its marker", {{"radius", "the sphere's radius", m, kSphereRule, sphereRadius, 0.01}}},
      {"box",
       "centred on its marker, its sides along the marker's axes",
       {{"lx", "the box's full length along the marker's x, centred on it", m,
         "the part's drawing's length along x (a flexible body: one element's length); else 20 mm", alongX, 0.02},
        {"ly", "the box's full length along the marker's y, centred on it", m,
         "the part's drawing's length along y (a flexible body: its section's height); else 20 mm", alongY, 0.02},
        {"lz", "the box's full length along the marker's z, centred on it", m,
         "the part's drawing's length along z (a flexible body: its section's width); else 20 mm", alongZ, 0.02}}},
      {"capsule",
       "a cylinder with a hemisphere at each end, its axis the marker's z, centred on it",
       {{"radius", "the capsule's radius (its side's and its caps')", m, kRoundRule, radiusAboutZ, 0.01},
        {"length", "the straight part along the marker's z, centred on it (a cap of the radius at each end)", m,
         kAlongZRule, alongZ, 0.02}}},
      {"cylinder",
       "its axis the marker's z, centred on it",
       {{"radius", "the cylinder's radius", m, kRoundRule, radiusAboutZ, 0.01},
        {"length", "the cylinder's full length along the marker's z, centred on it", m, kAlongZRule, alongZ, 0.02}}},
      {"plane", "the half-space below its marker's xy-plane (z out of the solid)", {}},
      {"funnel",
       "a conical wall about the marker's z, its base at the marker, its mouth at z = length",
       {{"radius", "the funnel's base radius, at the marker (z = 0)", m, kRoundRule, radiusAboutZ, 0.01},
        {"mouth_radius", "the funnel's mouth radius, at z = length", m, "twice the base radius", twiceRadius, 0.02},
        {"length", "from the funnel's base to its mouth, along the marker's z", m, kAlongZRule, alongZ, 0.02}}},
      {"mesh",
       "triangles in its marker's axes, given by vertices or read from an STL or OBJ file",
       {{"scale", "the length of one unit of its file (0.001: a file in mm); only with a file", m,
         "1 (a file in m)", one, 1.0, true}}},
  };
}

}  // namespace

const SizeDecl* ShapeDecl::size(const std::string& n) const {
  for (const SizeDecl& s : sizes)
    if (s.name == n) return &s;
  return nullptr;
}

std::string ShapeDecl::sizeNames() const {
  std::string out;
  for (const SizeDecl& s : sizes) out += (out.empty() ? "" : " ") + s.name;
  return out.empty() ? "none" : out;
}

const std::vector<ShapeDecl>& shapeDecls() {
  static const std::vector<ShapeDecl> decls = makeDecls();
  return decls;
}

const ShapeDecl* findShapeDecl(const std::string& name) {
  for (const ShapeDecl& d : shapeDecls())
    if (d.name == name) return &d;
  return nullptr;
}

Sizes defaultSizes(const std::string& shape, const SizeBasis& b, const Sizes& keep) {
  Sizes out;
  const ShapeDecl* d = findShapeDecl(shape);
  if (!d) return out;
  for (const SizeDecl& s : d->sizes) {
    if (s.optional) continue;
    auto it = keep.find(s.name);
    const double v = it != keep.end() ? it->second : s.fromBasis(b, out);
    out[s.name] = v > 0.0 ? v : s.fallback;
  }
  return out;
}

}  // namespace pm::contact
