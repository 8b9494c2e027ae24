// Standalone driver (not built by CMake): the wider random paths of
// test_contact_funnel randomPathsWithoutJumps, seeds 5, 11, 12, 2,000 paths each
// (the odd ones are cylinders), 300 steps; |dF|/h > 10 counted. Build against
// the contact sources: g++ -O3 -std=c++20 -Icore -I/usr/include/eigen3
// tests/tools/funnel_random_paths.cpp core/mechanics/contact/{shape,narrow_phase,box_box,
// cylinder_box,cylinder_cylinder,mesh_shape,mesh_pairs,funnel_pairs}.cpp
// Arguments: steps [seed path [s to trace]].
#include "mechanics/contact/narrow_phase.h"
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
using namespace pm::contact;
namespace {
const Shape kFunnel = Shape::funnel(0.1, 0.4, 0.4);
M3 rotX(double a) { return Eigen::AngleAxisd(a, V3::UnitX()).toRotationMatrix(); }
M3 rotY(double a) { return Eigen::AngleAxisd(a, V3::UnitY()).toRotationMatrix(); }
const Frame kFunnelAt{V3(0.5, -0.3, 0.2), rotY(0.3) * rotX(0.2)};
std::string feature(const Contact& c) {
  if (!c.touching()) return "apart";
  const V3 n = kFunnelAt.R.transpose() * c.normal;
  const double nz = n.z();
  if (std::abs(nz - 0.6) < 1e-9) return "wall";
  if (std::abs(nz + 0.8) < 1e-9) return "base face";
  if (std::abs(nz - 0.8) < 1e-9) return "mouth face";
  const V3 p = kFunnelAt.toLocal(c.points.front().point);
  return p.z() < 0.2 ? "base rim" : "mouth rim";
}
V3 force(const Contact& c) {
  V3 F = V3::Zero();
  for (const ContactPoint& p : c.points) F += p.depth * c.normal;
  return F;
}
struct Sweep { double worst = 0, at = 0, maxF = 0; std::string from, to; };
double gTraceAt = -1.0;
Sweep sweep(const Shape& body, const M3& R, const std::function<V3(double)>& p, int n) {
  Sweep out;
  const double h = (p(1.0) - p(0.0)).norm() / n;
  V3 prev = V3::Zero();
  std::string last;
  for (int i = 0; i <= n; ++i) {
    const double s = double(i) / n;
    const Contact c = collide(kFunnel, kFunnelAt, body, {kFunnelAt.toWorld(p(s)), kFunnelAt.R * R});
    const V3 F = force(c);
    const std::string f = feature(c);
    if (gTraceAt >= 0 && std::abs(s - gTraceAt) < 6.0 / n) {
      const V3 nl = kFunnelAt.R.transpose() * c.normal;
      std::printf("  s=%.4f %-10s dist %.6g pts %zu |F| %.6g n (%.4f %.4f %.4f) |dF|/h %.4g\n", s, f.c_str(), c.distance, c.points.size(), F.norm(), nl.x(), nl.y(), nl.z(), i > 0 ? (F - prev).norm() / h : 0.0);
      for (auto& q : c.points) { const V3 pl = kFunnelAt.toLocal(q.point); std::printf("      pt (%.5f %.5f %.5f) depth %.6g\n", pl.x(), pl.y(), pl.z(), q.depth); }
    }
    if (i > 0 && (F - prev).norm() / h > out.worst) out.worst = (F - prev).norm() / h, out.at = s, out.from = last, out.to = f;
    out.maxF = std::max(out.maxF, F.norm());
    prev = F;
    last = f;
  }
  return out;
}
}  // namespace
int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 300;
  const int only = argc > 3 ? std::atoi(argv[3]) : -1, onlySeed = argc > 2 ? std::atoi(argv[2]) : -1;
  if (argc > 4) gTraceAt = std::atof(argv[4]);
  const Shape cyl = Shape::cylinder(0.02, 0.05);
  int total[2] = {0, 0}, jumps[2] = {0, 0};
  double worstAll[2] = {0, 0};
  for (const int seed : {5, 11, 12}) {
    if (onlySeed >= 0 && seed != onlySeed) continue;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int path = 0; path < 2000; ++path) {
      const V3 axis = V3(u(rng), u(rng), u(rng)).normalized();
      const M3 R = Eigen::AngleAxisd(3.0 * u(rng), axis).toRotationMatrix();
      const V3 p0(0.3 * u(rng), 0.3 * u(rng), 0.2 + 0.25 * u(rng));
      const V3 p1 = p0 + 0.05 * V3(u(rng), u(rng), u(rng));
      if (path % 2 == 0 || (only >= 0 && path != only)) continue;
      const Sweep sw = sweep(cyl, R, [&](double s) { return V3(p0 + s * (p1 - p0)); }, steps);
      if (sw.maxF >= 0.1) continue;
      const int deep = sw.maxF >= 0.01;
      ++total[deep];
      worstAll[deep] = std::max(worstAll[deep], sw.worst);
      if (sw.worst > 10.0 || only >= 0) {
        ++jumps[deep];
        std::printf("seed %d path %d %s maxF %.4g: %.4g at s=%.4f %s > %s\n", seed, path, deep ? "deep" : "shallow", sw.maxF,
                    sw.worst, sw.at, sw.from.c_str(), sw.to.c_str());
      }
    }
  }
  std::printf("shallow %d paths, %d jump (worst %.4g); deep %d paths, %d jump (worst %.4g)\n", total[0], jumps[0], worstAll[0],
              total[1], jumps[1], worstAll[1]);
}
