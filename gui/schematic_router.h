// Orthogonal line routing around symbols: an A* search over the grid lines
// through the edges of the symbols' padded rectangles (an orthogonal
// visibility graph), with a cost per bend and per length run along another
// line, so lines go around bodies with the fewest bends. Plain geometry: the
// scene supplies the rectangles and the other lines.
#pragma once

#include <QLineF>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>

#include <optional>
#include <vector>

namespace pm::gui {

struct RouteObstacles {
  std::vector<QRectF> bodies;  // symbol rectangles, scene coordinates
  std::vector<QLineF> lines;   // horizontal/vertical segments of other nets (to keep off)
};

// True when a segment of `route` passes through the inside of one of `bodies`
// (running along an edge or touching a corner is not a crossing).
bool crossesBodies(const QPolygonF& route, const std::vector<QRectF>& bodies);

// A route from port `a` (leaving along `dirA`) to port `b` (entered against
// `dirB`) that keeps `clearance` off every body, on the grid `grid`. A null
// direction leaves/enters the point in any direction. No route: nullopt.
std::optional<QPolygonF> routeAround(const QPointF& a, const QPointF& dirA, const QPointF& b, const QPointF& dirB,
                                     const RouteObstacles& obstacles, double grid, double clearance);

}  // namespace pm::gui
