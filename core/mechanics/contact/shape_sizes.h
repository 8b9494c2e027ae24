// The contact shapes and the sizes each takes (issue 27), declared once:
// per shape its name and, per size, the file's key under "size", what it
// measures (in the marker's axes, shape.h), its SI unit and how a new
// shape's value is made from the body it sits on. The loader's checks and
// messages (contact_pair.cpp: shapeOf), the engine's API and the studio's
// Add Contact dialog and property form all read this table.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace pm::contact {

using Sizes = std::map<std::string, double>;  // size name -> value [SI]

// What a new shape's sizes are made from: the body's extent along the
// marker's axes [m], 0 where unknown. A part: the bounding box of its
// drawing (display geometry) in the part frame. A flexible body
// (`section` true): one element's length along x (the beam's axis) and
// its section's height and width along y and z.
struct SizeBasis {
  double x = 0.0, y = 0.0, z = 0.0;
  bool section = false;
};

struct SizeDecl {
  std::string name;         // the file's key: "radius", "lx", ...
  std::string description;  // what it measures: "the sphere's radius", ...
  std::string unit;         // SI: "m"
  std::string rule;         // how a new shape's value is made, in words
  // The value the rule gives on `b` (0: the basis gives none), from the
  // sizes made before it in declaration order.
  double (*fromBasis)(const SizeBasis& b, const Sizes& made);
  double fallback = 0.0;  // [SI] when the basis gives none
  bool optional = false;  // may be left out (a mesh's scale)
};

struct ShapeDecl {
  std::string name;         // the file's "shape": "sphere", ...
  std::string description;  // where it sits on its marker
  std::vector<SizeDecl> sizes;
  const SizeDecl* size(const std::string& n) const;
  // "radius length" ("none" without sizes): for messages.
  std::string sizeNames() const;
};

// Every shape, in the order the studio offers them: sphere, box, capsule,
// cylinder, plane, funnel, mesh.
const std::vector<ShapeDecl>& shapeDecls();
// The declaration of `name`, or null for an unknown shape.
const ShapeDecl* findShapeDecl(const std::string& name);

// A new `shape`'s sizes on a body of basis `b`: each declared size not
// optional, from `keep` when it holds that name (a size already typed),
// else by its rule, else its fallback. Sizes of `keep` that `shape` lacks
// are left out. Unknown shape: empty.
Sizes defaultSizes(const std::string& shape, const SizeBasis& b, const Sizes& keep = {});

}  // namespace pm::contact
