#include "mechanics/contact/mesh_shape.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace pm::contact {

namespace {

V3 vec(const std::array<double, 3>& a) { return V3(a[0], a[1], a[2]); }

// Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "(" + std::to_string(a).
std::string edgeText(int a, int b) {
  std::string s("(");
  s += std::to_string(a);
  s += ", ";
  s += std::to_string(b);
  s += ")";
  return s;
}

}  // namespace

std::optional<MeshShape::Problem> MeshShape::check(const std::vector<std::array<double, 3>>& vertices,
                                                   const std::vector<std::array<int, 3>>& triangles) {
  const int nv = static_cast<int>(vertices.size());
  if (vertices.empty()) return Problem{"vertices", "the mesh is empty: no vertices"};
  if (triangles.empty()) return Problem{"triangles", "the mesh is empty: no triangles"};
  for (int i = 0; i < nv; ++i)
    if (!vec(vertices[i]).allFinite())
      return Problem{"vertices[" + std::to_string(i) + "]", "not a finite number"};
  // Per directed edge, the triangle that runs along it; an undirected edge
  // may have one triangle each way.
  std::map<std::pair<int, int>, int> directed;
  std::map<std::pair<int, int>, int> uses;
  for (size_t t = 0; t < triangles.size(); ++t) {
    const std::string f = "triangles[" + std::to_string(t) + "]";
    const auto& c = triangles[t];
    for (int k = 0; k < 3; ++k)
      if (c[k] < 0 || c[k] >= nv)
        return Problem{f, "vertex index " + std::to_string(c[k]) + " is out of range (the mesh has " +
                              std::to_string(nv) + " vertices, 0 to " + std::to_string(nv - 1) + ")"};
    if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2]) return Problem{f, "repeats a vertex (a triangle needs three)"};
    const V3 a = vec(vertices[c[0]]), b = vec(vertices[c[1]]), d = vec(vertices[c[2]]);
    const double longest = std::max({(b - a).squaredNorm(), (d - b).squaredNorm(), (a - d).squaredNorm()});
    if (!((b - a).cross(d - a).norm() > 1e-12 * longest))
      return Problem{f, "is degenerate: its corners are collinear (zero area)"};
    for (int k = 0; k < 3; ++k) {
      const int p = c[k], q = c[(k + 1) % 3];
      if (++uses[{std::min(p, q), std::max(p, q)}] > 2)
        return Problem{f, "its edge " + edgeText(std::min(p, q), std::max(p, q)) +
                              " is shared by more than two triangles (a contact mesh must be a surface)"};
      auto [it, fresh] = directed.emplace(std::pair{p, q}, static_cast<int>(t));
      if (!fresh)
        return Problem{f, "is wound against triangles[" + std::to_string(it->second) + "]: both run their shared edge " +
                              edgeText(p, q) + " the same way, so their normals disagree (list every triangle "
                              "counter-clockwise seen from the side that is touched)"};
    }
  }
  return std::nullopt;
}

MeshShape::MeshShape(const std::vector<std::array<double, 3>>& vertices, const std::vector<std::array<int, 3>>& triangles)
    : t_(triangles) {
  for (const auto& v : vertices) v_.push_back(vec(v));
  nb_.resize(v_.size());
  std::map<std::pair<int, int>, int> edgeOf;
  te_.resize(t_.size());
  for (size_t t = 0; t < t_.size(); ++t) {
    const V3 &a = v_[t_[t][0]], &b = v_[t_[t][1]], &c = v_[t_[t][2]];
    n_.push_back((b - a).cross(c - a).normalized());
    tlo_.push_back(a.cwiseMin(b).cwiseMin(c));
    thi_.push_back(a.cwiseMax(b).cwiseMax(c));
    for (int k = 0; k < 3; ++k) {
      const int p = t_[t][k], q = t_[t][(k + 1) % 3];
      const auto key = std::pair{std::min(p, q), std::max(p, q)};
      auto [it, fresh] = edgeOf.emplace(key, static_cast<int>(e_.size()));
      if (fresh) {
        MeshEdge e;
        e.a = key.first;
        e.b = key.second;
        e_.push_back(e);
        nb_[p].push_back(q);
        nb_[q].push_back(p);
      }
      MeshEdge& e = e_[it->second];
      const int side = e.tri[0] < 0 ? 0 : 1;
      e.tri[side] = static_cast<int>(t);
      e.inward[side] = n_[t].cross(v_[q] - v_[p]).normalized();
      te_[t][k] = it->second;
    }
  }
  sharpV_.assign(v_.size(), 0);
  ridges_.resize(v_.size());
  for (size_t i = 0; i < e_.size(); ++i) {
    MeshEdge& e = e_[i];
    e.sharp = e.tri[1] < 0 || n_[e.tri[0]].dot(e.inward[1]) < -kFlatAngle;
    if (e.sharp) sharpV_[e.a] = sharpV_[e.b] = 1;
    if (e.sharp && e.tri[1] >= 0)
      for (int v : {e.a, e.b}) ridges_[v].push_back(static_cast<int>(i));
  }
  patches();
  order_.resize(t_.size());
  for (size_t t = 0; t < t_.size(); ++t) order_[t] = static_cast<int>(t);
  nodes_.reserve(2 * t_.size());
  build(0, static_cast<int>(t_.size()), 0);
}

// Flat patches (flood fill across flat edges), then per ridge the patches
// of the triangles at its end vertices.
void MeshShape::patches() {
  patch_.assign(t_.size(), -1);
  int next = 0;
  std::vector<int> stack;
  for (size_t t0 = 0; t0 < t_.size(); ++t0) {
    if (patch_[t0] >= 0) continue;
    patch_[t0] = next;
    stack.assign(1, static_cast<int>(t0));
    while (!stack.empty()) {
      const int t = stack.back();
      stack.pop_back();
      for (int id : te_[t]) {
        const MeshEdge& e = e_[id];
        const int other = e.tri[0] == t ? e.tri[1] : e.tri[0];
        const bool flat = other >= 0 && (n_[other] - n_[t]).norm() <= kFlatAngle;
        if (flat && patch_[other] < 0) {
          patch_[other] = next;
          stack.push_back(other);
        }
      }
    }
    ++next;
  }
  std::vector<std::vector<int>> at(v_.size());  // per vertex: the patches of its triangles
  for (size_t t = 0; t < t_.size(); ++t)
    for (int k = 0; k < 3; ++k) at[t_[t][k]].push_back(patch_[t]);
  ridgePatches_.resize(e_.size());
  for (size_t i = 0; i < e_.size(); ++i) {
    if (!e_[i].sharp || e_[i].tri[1] < 0) continue;
    std::vector<int>& p = ridgePatches_[i];
    for (int v : {e_[i].a, e_[i].b}) p.insert(p.end(), at[v].begin(), at[v].end());
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
  }
}

int MeshShape::build(int first, int count, int depth) {
  const int id = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  V3 lo = tlo_[order_[first]], hi = thi_[order_[first]], clo = lo, chi = hi;
  for (int i = first; i < first + count; ++i) {
    const int t = order_[i];
    lo = lo.cwiseMin(tlo_[t]);
    hi = hi.cwiseMax(thi_[t]);
    const V3 c = 0.5 * (tlo_[t] + thi_[t]);
    clo = clo.cwiseMin(c);
    chi = chi.cwiseMax(c);
  }
  nodes_[id].lo = lo;
  nodes_[id].hi = hi;
  if (count <= 4 || depth > 60) {
    nodes_[id].first = first;
    nodes_[id].count = count;
    return id;
  }
  // Median split of the triangles' box centres along their widest spread.
  int axis = 0;
  (chi - clo).maxCoeff(&axis);
  const int half = count / 2;
  std::nth_element(order_.begin() + first, order_.begin() + first + half, order_.begin() + first + count,
                   [&](int a, int b) { return tlo_[a][axis] + thi_[a][axis] < tlo_[b][axis] + thi_[b][axis]; });
  const int left = build(first, half, depth + 1);
  const int right = build(first + half, count - half, depth + 1);
  nodes_[id].left = left;
  nodes_[id].right = right;
  return id;
}

long long& MeshShape::visits() {
  thread_local long long n = 0;
  return n;
}

void MeshShape::query(const V3& lo, const V3& hi, std::vector<int>& out) const {
  int stack[128];
  int top = 0;
  stack[top++] = 0;
  long long& seen = visits();
  seen = 0;
  while (top > 0) {
    const MeshNode& nd = nodes_[stack[--top]];
    ++seen;
    if ((nd.lo.array() > hi.array()).any() || (lo.array() > nd.hi.array()).any()) continue;
    if (nd.left < 0) {
      for (int i = nd.first; i < nd.first + nd.count; ++i) {
        const int t = order_[i];
        if (!((tlo_[t].array() > hi.array()).any() || (lo.array() > thi_[t].array()).any())) out.push_back(t);
      }
      continue;
    }
    stack[top++] = nd.left;
    stack[top++] = nd.right;
  }
}

}  // namespace pm::contact
