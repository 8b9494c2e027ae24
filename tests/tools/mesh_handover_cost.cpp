// Cost of the mesh pairs' hand-overs (issue 27, docs/performance.md "Mesh
// contact: the ridge and side/cap hand-overs"): a box (turned 0.3 rad) and a
// cylinder (standing, and lying along its slide) 1 mm deep, slid across a
// 10-degree ridge and a flat two-triangle square, 20,001 poses each (the
// sweeps of tests/test_contact_mesh.cpp). Built with the mesh sources
// compiled in (their definitions take the core library's place, so two
// versions of them are compared in the same build):
//   g++ -std=c++20 -O3 -DNDEBUG -Icore -isystem /usr/include/eigen3 tests/tools/mesh_handover_cost.cpp \
//       core/mechanics/contact/mesh_pairs.cpp core/mechanics/contact/mesh_shape.cpp \
//       -o /tmp/drv -Lbuild/lib -lpneumech_core -Wl,-rpath,$PWD/build/lib
//   valgrind --tool=callgrind --toggle-collect='pm::contact::mesh*' /tmp/drv
#include "mechanics/contact/mesh_shape.h"
#include "mechanics/contact/narrow_phase.h"
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
using namespace pm::contact;
int main() {
  const double z = -std::tan(10.0 * std::numbers::pi / 180.0);
  std::vector<std::array<double, 3>> roof = {{0, -1, 0}, {0, 1, 0}, {1, -1, z}, {1, 1, z}, {-1, -1, z}, {-1, 1, z}};
  std::vector<std::array<int, 3>> rt = {{0, 2, 3}, {0, 3, 1}, {0, 1, 5}, {0, 5, 4}};
  std::vector<std::array<double, 3>> sq = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  std::vector<std::array<int, 3>> st = {{0, 1, 2}, {0, 2, 3}};
  const Shape ridge = Shape::triangles(std::make_shared<const MeshShape>(roof, rt));
  const Shape flat = Shape::triangles(std::make_shared<const MeshShape>(sq, st));
  const double d = 1e-3, r = 0.02, L = 0.05;
  const V3 e(0.03, 0.02, 0.01);
  const M3 turn = Eigen::AngleAxisd(0.3, V3::UnitZ()).toRotationMatrix();
  const M3 lying = Eigen::AngleAxisd(std::numbers::pi / 2, V3::UnitY()).toRotationMatrix();
  double sum = 0;
  const int n = 20000;
  for (int k = 0; k <= n; ++k) {
    const double s = double(k) / n;
    sum += collide(ridge, Frame{}, Shape::box(e), Frame{V3(-0.2 + 0.4 * s, 0.05, e.z() - d), turn}).points.size();
    sum += collide(flat, Frame{}, Shape::box(e), Frame{V3(-0.2 + 0.4 * s, 0.05, e.z() - d), turn}).points.size();
    sum += collide(ridge, Frame{}, Shape::cylinder(r, L), Frame{V3(-0.1 + 0.2 * s, 0.1, L - d), M3::Identity()}).points.size();
    sum += collide(ridge, Frame{}, Shape::cylinder(r, L), Frame{V3(0.2 * s, 0.1, r - d), lying}).points.size();
    sum += collide(flat, Frame{}, Shape::cylinder(r, L), Frame{V3(-0.2 + 0.4 * s, 0.05, r - d), lying}).points.size();
  }
  std::printf("%g\n", sum);
}
