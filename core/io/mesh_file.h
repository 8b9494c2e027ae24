// CAD meshes for parts: STL (ASCII and binary) and Wavefront OBJ, read into
// a TriangleMesh with its vertices welded (mechanics/triangle_mesh.h). Only
// the geometry is read: normals, texture coordinates, groups and materials
// are ignored (the triangles' winding gives the outside). OBJ faces with more
// than three corners are split into a fan.
#pragma once

#include "model/triangle_mesh.h"

#include <functional>
#include <string>

namespace pm {

// Largest mesh file read (a detailed CAD part is a few MB).
inline constexpr std::size_t kMeshFileMaxBytes = std::size_t(256) << 20;

// The mesh in `text`; the format from `name`'s extension (.stl, .obj, any
// case). Throws std::runtime_error "<name>: <what>" ("<name>: line 12:
// expected 'vertex x y z'") for anything it cannot read.
TriangleMesh parseMeshText(const std::string& text, const std::string& name);

// The mesh file `ref`, relative to the project's folder `folder` and
// confined to it (io/confined_file.h). Throws std::runtime_error naming
// `ref` for a missing, unreadable or malformed file.
TriangleMesh readMeshFile(const std::string& folder, const std::string& ref);

// A reader of the meshes a project names, for applyMassProperties.
std::function<TriangleMesh(const std::string&)> meshReaderFor(const std::string& projectFile);

}  // namespace pm
