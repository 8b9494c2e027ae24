// Closed triangle meshes built in the tests (a box, a regular prism, a UV
// sphere) and written as ASCII STL, binary STL or OBJ, so that mesh import
// and its mass properties can be checked against closed forms.
#pragma once

#include "model/triangle_mesh.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>

namespace pm::test {

// A box lx x ly x lz with its centre at `c`, triangles counter-clockwise
// from outside (12 triangles on 8 corners).
inline TriangleMesh boxMesh(double lx, double ly, double lz, Vec3 c = {0, 0, 0}) {
  TriangleMesh m;
  for (int k = 0; k < 8; ++k)
    m.vertices.push_back({c[0] + (k & 1 ? lx : -lx) / 2, c[1] + (k & 2 ? ly : -ly) / 2, c[2] + (k & 4 ? lz : -lz) / 2});
  // Each face as a quad, corners counter-clockwise seen from outside.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[1]), std::uint32_t(q[2])});
    m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[2]), std::uint32_t(q[3])});
  }
  return m;
}

// A regular n-sided prism of circumradius r from z = 0 to z = h (the
// faceted cylinder a CAD export gives).
inline TriangleMesh prismMesh(int n, double r, double h) {
  TriangleMesh m;
  for (int k = 0; k < n; ++k) {
    const double a = 2 * std::numbers::pi * k / n;
    m.vertices.push_back({r * std::cos(a), r * std::sin(a), 0});
    m.vertices.push_back({r * std::cos(a), r * std::sin(a), h});
  }
  const auto bottom = std::uint32_t(m.vertices.size());
  m.vertices.push_back({0, 0, 0});
  m.vertices.push_back({0, 0, h});
  for (int k = 0; k < n; ++k) {
    const auto a0 = std::uint32_t(2 * k), a1 = a0 + 1, b0 = std::uint32_t(2 * ((k + 1) % n)), b1 = b0 + 1;
    m.triangles.push_back({a0, b0, b1});
    m.triangles.push_back({a0, b1, a1});
    m.triangles.push_back({bottom, b0, a0});
    m.triangles.push_back({bottom + 1, a1, b1});
  }
  return m;
}

// A UV sphere of radius r about the origin: `rings` latitude bands,
// `segments` around.
inline TriangleMesh sphereMesh(int rings, int segments, double r) {
  TriangleMesh m;
  m.vertices.push_back({0, 0, -r});
  for (int i = 1; i < rings; ++i) {
    const double t = std::numbers::pi * i / rings - std::numbers::pi / 2;
    for (int k = 0; k < segments; ++k) {
      const double a = 2 * std::numbers::pi * k / segments;
      m.vertices.push_back({r * std::cos(t) * std::cos(a), r * std::cos(t) * std::sin(a), r * std::sin(t)});
    }
  }
  m.vertices.push_back({0, 0, r});
  const auto top = std::uint32_t(m.vertices.size() - 1);
  auto at = [&](int ring, int k) { return std::uint32_t(1 + (ring - 1) * segments + (k % segments)); };
  for (int k = 0; k < segments; ++k) {
    m.triangles.push_back({0, at(1, k + 1), at(1, k)});
    m.triangles.push_back({top, at(rings - 1, k), at(rings - 1, k + 1)});
    for (int i = 1; i + 1 < rings; ++i) {
      m.triangles.push_back({at(i, k), at(i, k + 1), at(i + 1, k + 1)});
      m.triangles.push_back({at(i, k), at(i + 1, k + 1), at(i + 1, k)});
    }
  }
  return m;
}

inline std::string asciiStl(const TriangleMesh& m) {
  std::ostringstream s;
  s.precision(17);
  s << "solid test\n";
  for (const auto& t : m.triangles) {
    s << "  facet normal 0 0 0\n    outer loop\n";
    for (auto v : t) s << "      vertex " << m.vertices[v][0] << " " << m.vertices[v][1] << " " << m.vertices[v][2] << "\n";
    s << "    endloop\n  endfacet\n";
  }
  s << "endsolid test\n";
  return s.str();
}

// Float32 coordinates, as the format has.
inline std::string binaryStl(const TriangleMesh& m) {
  std::string out(80, ' ');
  out.replace(0, 11, "solid test ");  // some exporters start binary files so
  const auto n = std::uint32_t(m.triangles.size());
  out.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : m.triangles) {
    float rec[12] = {0, 0, 0};
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d) rec[3 + 3 * k + d] = float(m.vertices[t[k]][d]);
    out.append(reinterpret_cast<const char*>(rec), sizeof rec);
    out.append(2, '\0');
  }
  return out;
}

// OBJ with 1-based indices; `quads` writes pairs of triangles sharing their
// first and third corners as one quad where possible (fan-split on reading).
inline std::string objText(const TriangleMesh& m) {
  std::ostringstream s;
  s.precision(17);
  s << "# test mesh\no part\n";
  for (const auto& v : m.vertices) s << "v " << v[0] << " " << v[1] << " " << v[2] << "\n";
  s << "vn 0 0 1\n";
  for (const auto& t : m.triangles) s << "f " << t[0] + 1 << "//1 " << t[1] + 1 << "//1 " << t[2] + 1 << "//1\n";
  return s.str();
}

inline void writeFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace pm::test
