#include "schematic_router.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace pm::gui {

namespace {

constexpr double kEps = 1e-6;

// Headings: 0 +x, 1 -x, 2 +y, 3 -y; -1 none.
int heading(const QPointF& d) {
  if (d.isNull()) return -1;
  if (std::abs(d.x()) >= std::abs(d.y())) return d.x() > 0 ? 0 : 1;
  return d.y() > 0 ? 2 : 3;
}
int opposite(int h) { return h ^ 1; }

bool strictlyInside(const QPointF& p, const QRectF& r) {
  return p.x() > r.left() + kEps && p.x() < r.right() - kEps && p.y() > r.top() + kEps && p.y() < r.bottom() - kEps;
}

bool segmentCrosses(const QPointF& p, const QPointF& q, const QRectF& r) {
  const double x0 = std::min(p.x(), q.x()), x1 = std::max(p.x(), q.x());
  const double y0 = std::min(p.y(), q.y()), y1 = std::max(p.y(), q.y());
  return x1 > r.left() + kEps && x0 < r.right() - kEps && y1 > r.top() + kEps && y0 < r.bottom() - kEps;
}

// Sorted coordinates without near-duplicates.
void uniqueSorted(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end(), [](double a, double b) { return std::abs(a - b) < kEps; }), v.end());
}

int indexOf(const std::vector<double>& v, double x) {
  auto it = std::lower_bound(v.begin(), v.end(), x - kEps);
  return int(it - v.begin());
}

QPolygonF withoutCollinear(const QPolygonF& in) {
  QPolygonF out;
  for (const QPointF& p : in) {
    if (!out.isEmpty() && std::abs(out.back().x() - p.x()) < kEps && std::abs(out.back().y() - p.y()) < kEps) continue;
    while (out.size() >= 2) {
      const QPointF a = out[out.size() - 2], b = out.back();
      const double cross = (b.x() - a.x()) * (p.y() - b.y()) - (b.y() - a.y()) * (p.x() - b.x());
      if (std::abs(cross) > kEps) break;
      out.pop_back();
    }
    out << p;
  }
  return out;
}

}  // namespace

bool crossesBodies(const QPolygonF& route, const std::vector<QRectF>& bodies) {
  const QRectF box = route.boundingRect();
  for (const QRectF& r : bodies) {
    if (box.right() <= r.left() || box.left() >= r.right() || box.bottom() <= r.top() || box.top() >= r.bottom())
      continue;
    for (int i = 0; i + 1 < route.size(); ++i)
      if (segmentCrosses(route[i], route[i + 1], r)) return true;
  }
  return false;
}

std::optional<QPolygonF> routeAround(const QPointF& a, const QPointF& dirA, const QPointF& b, const QPointF& dirB,
                                     const RouteObstacles& obstacles, double grid, double clearance) {
  const double g = grid;
  auto down = [g](double v) { return std::floor(v / g + kEps) * g; };
  auto up = [g](double v) { return std::ceil(v / g - kEps) * g; };
  const int hA = heading(dirA), hB = heading(dirB);
  // Search between the ends of the port stubs (one cell out of each port).
  const QPointF S = hA < 0 ? a : a + dirA * g;
  const QPointF T = hB < 0 ? b : b + dirB * g;

  // Padded bodies on the grid; an end inside one (symbols closer than the
  // clearance) only keeps clear of the body itself there.
  std::vector<QRectF> pads;
  pads.reserve(obstacles.bodies.size());
  const QRectF ends = QRectF(S, T).normalized();
  const double reach = 8 * g + ends.width() + ends.height();
  const QRectF near = ends.adjusted(-reach, -reach, reach, reach);
  for (const QRectF& body : obstacles.bodies) {
    if (!near.intersects(body)) continue;
    QRectF r(QPointF(down(body.left() - clearance), down(body.top() - clearance)),
             QPointF(up(body.right() + clearance), up(body.bottom() + clearance)));
    if (strictlyInside(S, r) || strictlyInside(T, r))
      r = QRectF(QPointF(down(body.left()), down(body.top())), QPointF(up(body.right()), up(body.bottom())));
    if (strictlyInside(S, r) || strictlyInside(T, r)) continue;
    pads.push_back(r);
  }
  // The region searched: the ends, grown by the bodies around them, plus a
  // free lane all round.
  QRectF region = ends.adjusted(-4 * g, -4 * g, 4 * g, 4 * g);
  for (const QRectF& r : pads)
    if (r.intersects(region)) region |= r;
  region = QRectF(QPointF(down(region.left()) - 2 * g, down(region.top()) - 2 * g),
                  QPointF(up(region.right()) + 2 * g, up(region.bottom()) + 2 * g));
  std::vector<QRectF> used;
  for (const QRectF& r : pads)
    if (r.intersects(region)) used.push_back(r);

  std::vector<double> xs{S.x(), T.x(), region.left(), region.right(), down((S.x() + T.x()) / 2)};
  std::vector<double> ys{S.y(), T.y(), region.top(), region.bottom(), down((S.y() + T.y()) / 2)};
  // Lanes beside the ends, so lines converging on one symbol find parallel
  // tracks instead of a detour.
  for (int k = 1; k <= 3; ++k)
    for (double sgn : {-1.0, 1.0}) {
      for (double x : {S.x() + sgn * k * g, T.x() + sgn * k * g})
        if (x > region.left() && x < region.right()) xs.push_back(x);
      for (double y : {S.y() + sgn * k * g, T.y() + sgn * k * g})
        if (y > region.top() && y < region.bottom()) ys.push_back(y);
    }
  for (const QRectF& r : used) {
    for (double x : {r.left(), r.right()})
      if (x > region.left() && x < region.right()) xs.push_back(x);
    for (double y : {r.top(), r.bottom()})
      if (y > region.top() && y < region.bottom()) ys.push_back(y);
  }
  uniqueSorted(xs);
  uniqueSorted(ys);
  const int nx = int(xs.size()), ny = int(ys.size());
  // A line across a large, irregular drawing: the plain route rather than a
  // search that would take longer than a redraw should.
  if (size_t(nx) * size_t(ny) > 300000) return std::nullopt;
  auto node = [nx](int i, int j) { return j * nx + i; };
  std::vector<char> blockedNode(size_t(nx) * ny, 0), blockedH(size_t(nx) * ny, 0), blockedV(size_t(nx) * ny, 0);
  std::vector<char> overlapH(size_t(nx) * ny, 0), overlapV(size_t(nx) * ny, 0);
  for (const QRectF& r : used) {
    // Index range of the rectangle; a side beyond the region lies outside it.
    const int i0 = r.left() < region.left() - kEps ? -1 : indexOf(xs, r.left());
    const int i1 = r.right() > region.right() + kEps ? nx : indexOf(xs, r.right());
    const int j0 = r.top() < region.top() - kEps ? -1 : indexOf(ys, r.top());
    const int j1 = r.bottom() > region.bottom() + kEps ? ny : indexOf(ys, r.bottom());
    for (int j = std::max(j0, 0); j <= std::min(j1, ny - 1); ++j)
      for (int i = std::max(i0, 0); i <= std::min(i1, nx - 1); ++i) {
        const bool inX = i > i0 && i < i1, inY = j > j0 && j < j1;
        if (inX && inY) blockedNode[node(i, j)] = 1;
        if (inY && i < i1 && i + 1 > i0 && i + 1 < nx) blockedH[node(i, j)] = 1;  // (i,j)-(i+1,j)
        if (inX && j < j1 && j + 1 > j0 && j + 1 < ny) blockedV[node(i, j)] = 1;  // (i,j)-(i,j+1)
      }
  }
  // Edges lying on other nets' lines.
  for (const QLineF& l : obstacles.lines) {
    const bool horizontal = std::abs(l.y1() - l.y2()) < kEps;
    const bool vertical = std::abs(l.x1() - l.x2()) < kEps;
    if (horizontal == vertical) continue;
    if (horizontal) {
      const int j = indexOf(ys, l.y1());
      if (j >= ny || std::abs(ys[j] - l.y1()) > kEps) continue;
      const double lo = std::min(l.x1(), l.x2()), hi = std::max(l.x1(), l.x2());
      for (int i = 0; i + 1 < nx; ++i)
        if (std::min(hi, xs[i + 1]) - std::max(lo, xs[i]) > kEps) overlapH[node(i, j)] = 1;
    } else {
      const int i = indexOf(xs, l.x1());
      if (i >= nx || std::abs(xs[i] - l.x1()) > kEps) continue;
      const double lo = std::min(l.y1(), l.y2()), hi = std::max(l.y1(), l.y2());
      for (int j = 0; j + 1 < ny; ++j)
        if (std::min(hi, ys[j + 1]) - std::max(lo, ys[j]) > kEps) overlapV[node(i, j)] = 1;
    }
  }

  // A* over (node, heading): length, a penalty per bend, and a surcharge for
  // running along another line.
  const double bend = 3 * g, overlap = 20.0;
  const int si = indexOf(xs, S.x()), sj = indexOf(ys, S.y()), ti = indexOf(xs, T.x()), tj = indexOf(ys, T.y());
  const int goal = node(ti, tj);
  const size_t nStates = size_t(nx) * ny * 4;
  std::vector<double> cost(nStates, std::numeric_limits<double>::infinity());
  std::vector<int> parent(nStates, -1);
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
  auto h = [&](int i, int j) { return std::abs(xs[i] - T.x()) + std::abs(ys[j] - T.y()); };
  for (int d = 0; d < 4; ++d) {
    if (hA >= 0 && d != hA) continue;
    const int s = node(si, sj) * 4 + d;
    cost[s] = 0;
    open.push({h(si, sj), s});
  }
  const int arrive = hB < 0 ? -1 : opposite(hB);  // heading of the last piece into b
  int found = -1;
  while (!open.empty()) {
    const auto [f, s] = open.top();
    open.pop();
    const int n = s / 4, d = s % 4, i = n % nx, j = n / nx;
    if (f - h(i, j) > cost[s] + kEps) continue;  // stale entry
    if (n == goal) {
      found = s;
      break;
    }
    for (int nd = 0; nd < 4; ++nd) {
      if (nd == opposite(d)) continue;
      int ni = i, nj = j;
      bool blocked = false, along = false;
      if (nd == 0) ni = i + 1, blocked = ni >= nx || blockedH[node(i, j)], along = !blocked && overlapH[node(i, j)];
      if (nd == 1) ni = i - 1, blocked = ni < 0 || blockedH[node(ni, j)], along = !blocked && overlapH[node(ni, j)];
      if (nd == 2) nj = j + 1, blocked = nj >= ny || blockedV[node(i, j)], along = !blocked && overlapV[node(i, j)];
      if (nd == 3) nj = j - 1, blocked = nj < 0 || blockedV[node(i, nj)], along = !blocked && overlapV[node(i, nj)];
      if (blocked || blockedNode[node(ni, nj)]) continue;
      const double len = std::abs(xs[ni] - xs[i]) + std::abs(ys[nj] - ys[j]);
      double c = cost[s] + len * (along ? 1.0 + overlap : 1.0) + (nd != d ? bend : 0.0);
      if (node(ni, nj) == goal && arrive >= 0 && nd != arrive) c += nd == opposite(arrive) ? 2 * bend : bend;
      const int ns = node(ni, nj) * 4 + nd;
      if (c + kEps < cost[ns]) {
        cost[ns] = c;
        parent[ns] = s;
        open.push({c + h(ni, nj), ns});
      }
    }
  }
  if (found < 0) return std::nullopt;
  std::vector<QPointF> path;
  for (int s = found; s >= 0; s = parent[s]) {
    const int n = s / 4;
    path.emplace_back(xs[n % nx], ys[n / nx]);
  }
  std::reverse(path.begin(), path.end());
  QPolygonF out;
  out << a;
  for (const QPointF& p : path) out << p;
  out << b;
  return withoutCollinear(out);
}

}  // namespace pm::gui
