#include "model/triangle_mesh.h"

#include <Eigen/Dense>

#include <cmath>
#include <map>
#include <sstream>

namespace pm {

TriangleMesh weldVertices(const TriangleMesh& m) {
  TriangleMesh out;
  std::map<Vec3, std::uint32_t> index;
  std::vector<std::uint32_t> remap(m.vertices.size());
  for (size_t k = 0; k < m.vertices.size(); ++k) {
    auto [it, fresh] = index.try_emplace(m.vertices[k], std::uint32_t(out.vertices.size()));
    if (fresh) out.vertices.push_back(m.vertices[k]);
    remap[k] = it->second;
  }
  for (const auto& t : m.triangles) {
    const std::array<std::uint32_t, 3> w{remap[t[0]], remap[t[1]], remap[t[2]]};
    if (w[0] != w[1] && w[1] != w[2] && w[0] != w[2]) out.triangles.push_back(w);
  }
  return out;
}

namespace {

std::string pointText(const Vec3& p) {
  std::ostringstream s;
  s << "(" << p[0] << ", " << p[1] << ", " << p[2] << ")";
  return s.str();
}

}  // namespace

std::string closedMeshProblem(const TriangleMesh& m) {
  if (m.triangles.empty()) return "it has no triangles";
  // Directed edge (a, b) -> how often it occurs; a closed oriented surface
  // has each exactly once, and its reverse exactly once.
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (const auto& t : m.triangles)
    for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
  for (const auto& [e, n] : directed) {
    const auto rev = directed.find({e.second, e.first});
    const int back = rev == directed.end() ? 0 : rev->second;
    const std::string edge = "the edge " + pointText(m.vertices[e.first]) + "-" + pointText(m.vertices[e.second]);
    if (n > 1)
      return edge + " is used twice in the same direction: the triangles are not oriented consistently (or more than "
                    "two meet there)";
    if (back == 0) return edge + " belongs to 1 triangle: the surface has a hole there";
  }
  return {};
}

MeshIntegrals meshIntegrals(const TriangleMesh& m) {
  // Tetrahedron (0, a, b, c) with det = a . (b x c): volume det/6, first
  // moment det/24 (a + b + c), second moment integral(x x^T) =
  // det/120 (s s^T + a a^T + b b^T + c c^T) with s = a + b + c (the
  // covariance of a tetrahedron, Tonon 2004). Signed: outside parts cancel.
  double six_volume = 0.0;
  Eigen::Vector3d first = Eigen::Vector3d::Zero();  // 24 * integral(x)
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero(); // 120 * integral(x x^T)
  for (const auto& t : m.triangles) {
    const Eigen::Vector3d a(m.vertices[t[0]].data()), b(m.vertices[t[1]].data()), c(m.vertices[t[2]].data());
    const double det = a.dot(b.cross(c));
    const Eigen::Vector3d s = a + b + c;
    six_volume += det;
    first += det * s;
    second += det * (s * s.transpose() + a * a.transpose() + b * b.transpose() + c * c.transpose());
  }
  MeshIntegrals r;
  if (six_volume == 0.0) return r;
  const double sign = six_volume < 0.0 ? -1.0 : 1.0;  // inside-out: same solid
  const double volume = sign * six_volume / 6.0;
  const Eigen::Vector3d cm = first / (4.0 * six_volume);  // (first/24) / (six_volume/6)
  // Second moment about the origin, then about the cm (parallel axes).
  const Eigen::Matrix3d C = sign * second / 120.0 - volume * cm * cm.transpose();
  const Eigen::Matrix3d J = C.trace() * Eigen::Matrix3d::Identity() - C;
  r.volume = volume;
  r.cm = {cm.x(), cm.y(), cm.z()};
  r.inertia = {J(0, 0), J(1, 1), J(2, 2), J(0, 1), J(0, 2), J(1, 2)};
  return r;
}

}  // namespace pm
