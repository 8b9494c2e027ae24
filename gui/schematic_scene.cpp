#include "schematic_scene.h"

#include "document.h"
#include "model/component_type.h"
#include "edit_operations.h"
#include "schematic_items.h"
#include "schematic_router.h"
#include "symbol_library.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

namespace pm::gui {

namespace {

bool vertical(const QPointF& d) { return std::abs(d.y()) > std::abs(d.x()); }

bool same(const QPointF& a, const QPointF& b) { return std::abs(a.x() - b.x()) < 1e-6 && std::abs(a.y() - b.y()) < 1e-6; }

// Drops repeated points and the middle of three collinear points.
QPolygonF simplify(const QPolygonF& in) {
  QPolygonF out;
  for (const QPointF& p : in) {
    if (!out.isEmpty() && same(out.back(), p)) continue;
    while (out.size() >= 2) {
      const QPointF a = out[out.size() - 2], b = out.back();
      const double cross = (b.x() - a.x()) * (p.y() - b.y()) - (b.y() - a.y()) * (p.x() - b.x());
      if (std::abs(cross) > 1e-6) break;
      out.pop_back();
    }
    out << p;
  }
  return out;
}

// Union-find over "comp.port" keys.
struct Nets {
  std::map<std::string, std::string> parent;
  std::string find(const std::string& k) {
    auto it = parent.find(k);
    if (it == parent.end()) return parent[k] = k;
    if (it->second == k) return k;
    return it->second = find(it->second);
  }
  void join(const std::string& a, const std::string& b) { parent[find(a)] = find(b); }
};

// Where an orthogonal route crosses one of `lines` (a proper crossing,
// not a shared end or a run along it).
int crossings(const QPolygonF& route, const std::vector<QLineF>& lines) {
  int n = 0;
  for (int i = 0; i + 1 < route.size(); ++i) {
    const QPointF p = route[i], q = route[i + 1];
    const bool horizontal = std::abs(p.y() - q.y()) < 1e-6;
    for (const QLineF& l : lines) {
      const bool lHorizontal = std::abs(l.y1() - l.y2()) < 1e-6;
      if (horizontal == lHorizontal) continue;
      const QLineF h = horizontal ? QLineF(p, q) : l, v = horizontal ? l : QLineF(p, q);
      const double x = v.x1(), y = h.y1();
      if (x > std::min(h.x1(), h.x2()) + 1e-6 && x < std::max(h.x1(), h.x2()) - 1e-6 &&
          y > std::min(v.y1(), v.y2()) + 1e-6 && y < std::max(v.y1(), v.y2()) - 1e-6)
        ++n;
    }
  }
  return n;
}

// A signal line crossing more lines than this is drawn as a pair of
// reference tags instead (ISO 1219-2 diagrams name far signals rather than
// draw them across the circuit).
constexpr int kMaxSignalCrossings = 2;

}  // namespace

SchematicScene::SchematicScene(Document* doc, QObject* parent) : QGraphicsScene(parent), doc_(doc) {
  setItemIndexMethod(QGraphicsScene::BspTreeIndex);
  junctions_ = new JunctionItem;
  signals_ = new SignalItem;
  addItem(junctions_);
  addItem(signals_);
  sync();
}

const Project& SchematicScene::project() const { return doc_->project(); }

void SchematicScene::sync() {
  const Project& p = project();
  // Components: keep items by id, drop vanished ones, add new ones.
  std::set<std::string> ids;
  for (const Component& c : p.components) {
    ids.insert(c.id);
    auto it = components_.find(c.id);
    if (it == components_.end()) {
      auto* item = new ComponentItem(this, c);
      addItem(item);
      components_.emplace(c.id, item);
    } else {
      it->second->setComponent(c);
    }
  }
  for (auto it = components_.begin(); it != components_.end();) {
    if (!ids.count(it->first)) {
      delete it->second;
      it = components_.erase(it);
    } else {
      ++it;
    }
  }
  std::set<std::string> wireIds;
  for (const Connection& k : p.connections) {
    wireIds.insert(k.id);
    if (!wires_.count(k.id)) {
      auto* w = new WireItem(this, k.id);
      addItem(w);
      wires_.emplace(k.id, w);
    }
  }
  for (auto it = wires_.begin(); it != wires_.end();) {
    if (!wireIds.count(it->first)) {
      delete it->second;
      it = wires_.erase(it);
    } else {
      ++it;
    }
  }
  updateWires(nullptr);
  updateSignals();
  // Grow the scene rect with the drawing (never shrink while editing).
  setSceneRect(sceneRect() | drawingBounds().adjusted(-400, -300, 400, 300));
}

ComponentItem* SchematicScene::componentItem(const std::string& id) const {
  auto it = components_.find(id);
  return it == components_.end() ? nullptr : it->second;
}

WireItem* SchematicScene::wireItem(const std::string& id) const {
  auto it = wires_.find(id);
  return it == wires_.end() ? nullptr : it->second;
}

std::optional<QPointF> SchematicScene::portPos(const PortRef& r) const {
  const ComponentItem* c = componentItem(r.component);
  if (!c || !c->hasPort(QString::fromStdString(r.port))) return std::nullopt;
  return c->portScenePos(QString::fromStdString(r.port));
}

QPointF SchematicScene::portDir(const PortRef& r) const {
  const ComponentItem* c = componentItem(r.component);
  return c ? c->portSceneDir(QString::fromStdString(r.port)) : QPointF(0, 1);
}

std::optional<PortRef> SchematicScene::portNear(const QPointF& p, double radius) const {
  std::optional<PortRef> best;
  double bestD = radius * radius;
  const QRectF box(p - QPointF(radius + 60, radius + 60), QSizeF(2 * radius + 120, 2 * radius + 120));
  for (QGraphicsItem* gi : items(box)) {
    auto* c = qgraphicsitem_cast<ComponentItem*>(gi);
    if (!c) continue;
    for (const SymbolPort& sp : c->symbol().ports) {
      if (sp.kind == PortKind::Mechanical) continue;
      const QPointF d = c->portScenePos(sp.name) - p;
      const double dd = d.x() * d.x() + d.y() * d.y();
      if (dd <= bestD) {
        bestD = dd;
        best = PortRef{c->id(), sp.name.toStdString()};
      }
    }
  }
  return best;
}

QPolygonF SchematicScene::orthogonalRoute(const QPointF& a, const QPointF& dirA, const std::vector<QPointF>& via,
                                          const QPointF& b, const QPointF& dirB,
                                          const std::function<bool(const QPointF&, const QPointF&)>& blocked) {
  QPolygonF pts;
  pts << a;
  // The grid line nearest `mid` whose segment is free (mid, +1, -1, +2, ... cells).
  auto freeLine = [&](double mid, const std::function<std::pair<QPointF, QPointF>(double)>& seg) {
    if (!blocked) return mid;
    for (int k = 0; k <= 8; ++k)
      for (int sgn : {1, -1}) {
        const double v = mid + sgn * k * kGrid;
        const auto [p, q] = seg(v);
        if (!blocked(p, q)) return v;
        if (k == 0) break;
      }
    return mid;
  };
  if (via.empty()) {
    // Leave and enter along the ports' directions, one grid cell out.
    const QPointF sa = a + dirA * kGrid, sb = b + dirB * kGrid;
    pts << sa;
    if (vertical(dirA) && vertical(dirB)) {
      const double my = freeLine(snapToGrid((sa.y() + sb.y()) / 2),
                                 [&](double y) { return std::make_pair(QPointF(sa.x(), y), QPointF(sb.x(), y)); });
      pts << QPointF(sa.x(), my) << QPointF(sb.x(), my);
    } else if (!vertical(dirA) && !vertical(dirB)) {
      const double mx = freeLine(snapToGrid((sa.x() + sb.x()) / 2),
                                 [&](double x) { return std::make_pair(QPointF(x, sa.y()), QPointF(x, sb.y())); });
      pts << QPointF(mx, sa.y()) << QPointF(mx, sb.y());
    } else if (vertical(dirA)) {
      pts << QPointF(sa.x(), sb.y());
    } else {
      pts << QPointF(sb.x(), sa.y());
    }
    pts << sb << b;
    return simplify(pts);
  }
  std::vector<QPointF> all;
  all.push_back(a);
  all.insert(all.end(), via.begin(), via.end());
  all.push_back(b);
  for (size_t i = 0; i + 1 < all.size(); ++i) {
    const QPointF P = all[i], Q = all[i + 1];
    if (std::abs(P.x() - Q.x()) > 1e-6 && std::abs(P.y() - Q.y()) > 1e-6) {
      bool verticalFirst = false;
      if (i == 0) verticalFirst = vertical(dirA);
      else if (i + 2 == all.size()) verticalFirst = !vertical(dirB);
      pts << (verticalFirst ? QPointF(P.x(), Q.y()) : QPointF(Q.x(), P.y()));
    }
    pts << Q;
  }
  return simplify(pts);
}

QPolygonF SchematicScene::route(const Connection& k) const {
  const auto a = portPos(k.from), b = portPos(k.to);
  if (!a || !b) return {};
  std::vector<QPointF> via;
  for (const Point& w : k.waypoints) via.emplace_back(w.x, w.y);
  if (!via.empty()) return routeVia(*a, portDir(k.from), via, *b, portDir(k.to));
  return autoRoute(*a, portDir(k.from), *b, portDir(k.to), {k.from.str(), k.to.str()}, k.id);
}

QPolygonF SchematicScene::autoRoute(const QPointF& a, const QPointF& dirA, const QPointF& b, const QPointF& dirB,
                                    const std::vector<std::string>& ends, const std::string& skipWire,
                                    const std::vector<QLineF>& more) const {
  // Lines of other nets: not this one, not one sharing a port with it.
  auto otherNet = [&](const std::string& id, const WireItem* w) {
    if (id == skipWire) return false;
    for (const std::string& e : ends)
      if (w->touches(e)) return false;
    return true;
  };
  // The simple route (out of the ports, across on a free grid line) when it
  // clears every symbol; else a search around them.
  auto blocked = [&](const QPointF& p, const QPointF& q) {
    const bool horizontal = std::abs(p.y() - q.y()) < 1e-6;
    const double lo = horizontal ? std::min(p.x(), q.x()) : std::min(p.y(), q.y());
    const double hi = horizontal ? std::max(p.x(), q.x()) : std::max(p.y(), q.y());
    const QRectF span = QRectF(p, q).normalized().adjusted(-1e-6, -1e-6, 1e-6, 1e-6);
    for (const auto& [id, w] : wires_) {
      const QRectF& box = w->routeBounds();
      if (box.right() < span.left() || box.left() > span.right() || box.bottom() < span.top() ||
          box.top() > span.bottom() || !otherNet(id, w))
        continue;
      const QPolygonF& r = w->route();
      for (int i = 0; i + 1 < r.size(); ++i) {
        const QPointF u = r[i], v = r[i + 1];
        if (horizontal ? std::abs(u.y() - v.y()) > 1e-6 || std::abs(u.y() - p.y()) > 1e-6
                       : std::abs(u.x() - v.x()) > 1e-6 || std::abs(u.x() - p.x()) > 1e-6)
          continue;
        const double ulo = horizontal ? std::min(u.x(), v.x()) : std::min(u.y(), v.y());
        const double uhi = horizontal ? std::max(u.x(), v.x()) : std::max(u.y(), v.y());
        if (std::min(hi, uhi) - std::max(lo, ulo) > -1e-6) return true;
      }
    }
    for (const QLineF& l : more) {
      if (horizontal ? std::abs(l.y1() - l.y2()) > 1e-6 || std::abs(l.y1() - p.y()) > 1e-6
                     : std::abs(l.x1() - l.x2()) > 1e-6 || std::abs(l.x1() - p.x()) > 1e-6)
        continue;
      const double ulo = horizontal ? std::min(l.x1(), l.x2()) : std::min(l.y1(), l.y2());
      const double uhi = horizontal ? std::max(l.x1(), l.x2()) : std::max(l.y1(), l.y2());
      if (std::min(hi, uhi) - std::max(lo, ulo) > -1e-6) return true;
    }
    return false;
  };
  const QPolygonF simple = orthogonalRoute(a, dirA, {}, b, dirB, blocked);
  auto runsAlongOthers = [&] {
    for (int i = 0; i + 1 < simple.size(); ++i)
      if (blocked(simple[i], simple[i + 1])) return true;
    return false;
  };
  if (!crossesBodies(simple, bodies_) && !runsAlongOthers()) return simple;
  RouteObstacles obstacles;
  obstacles.bodies = bodies_;
  obstacles.lines = more;
  for (const auto& [id, w] : wires_) {
    if (!otherNet(id, w)) continue;
    const QPolygonF& r = w->route();
    for (int i = 0; i + 1 < r.size(); ++i) obstacles.lines.emplace_back(r[i], r[i + 1]);
  }
  if (auto around = routeAround(a, dirA, b, dirB, obstacles, kGrid, kGrid)) return *around;
  return simple;
}

// The user's waypoints stay; a corner between two of them is turned the other
// way, or searched for, when it would cut through a symbol.
QPolygonF SchematicScene::routeVia(const QPointF& a, const QPointF& dirA, const std::vector<QPointF>& via,
                                   const QPointF& b, const QPointF& dirB) const {
  const QPolygonF plain = orthogonalRoute(a, dirA, via, b, dirB);
  if (!crossesBodies(plain, bodies_)) return plain;
  std::vector<QPointF> all{a};
  all.insert(all.end(), via.begin(), via.end());
  all.push_back(b);
  RouteObstacles obstacles;
  obstacles.bodies = bodies_;
  QPolygonF pts;
  pts << a;
  for (size_t i = 0; i + 1 < all.size(); ++i) {
    const QPointF P = all[i], Q = all[i + 1];
    if (std::abs(P.x() - Q.x()) < 1e-6 || std::abs(P.y() - Q.y()) < 1e-6) {
      pts << Q;
      continue;
    }
    bool verticalFirst = false;
    if (i == 0) verticalFirst = vertical(dirA);
    else if (i + 2 == all.size()) verticalFirst = !vertical(dirB);
    const QPointF c1 = verticalFirst ? QPointF(P.x(), Q.y()) : QPointF(Q.x(), P.y());
    const QPointF c2 = verticalFirst ? QPointF(Q.x(), P.y()) : QPointF(P.x(), Q.y());
    const bool portLeg = i == 0 || i + 2 == all.size();  // an end leg leaves or enters its port square on
    if (!crossesBodies(QPolygonF{P, c1, Q}, bodies_)) {
      pts << c1 << Q;
    } else if (!portLeg && !crossesBodies(QPolygonF{P, c2, Q}, bodies_)) {
      pts << c2 << Q;
    } else if (auto r = routeAround(P, i == 0 ? dirA : QPointF(), Q, i + 2 == all.size() ? dirB : QPointF(), obstacles,
                                    kGrid, kGrid)) {
      for (int j = 1; j < r->size(); ++j) pts << (*r)[j];
    } else {
      pts << c1 << Q;
    }
  }
  return simplify(pts);
}

void SchematicScene::updateBodies() {
  bodies_.clear();
  bodies_.reserve(components_.size());
  for (const auto& [id, c] : components_) bodies_.push_back(c->bodySceneRect());
}

void SchematicScene::updateWires(const std::set<std::string>* onlyTouching) {
  updateBodies();
  for (const Connection& k : project().connections) {
    if (onlyTouching && !onlyTouching->count(k.from.component) && !onlyTouching->count(k.to.component)) continue;
    WireItem* w = wireItem(k.id);
    if (!w) continue;
    w->setEnds(k.from.str(), k.to.str());
    bool pilot = false;
    for (const PortRef& r : {k.from, k.to})
      if (const ComponentItem* c = componentItem(r.component))
        if (const SymbolPort* sp = c->symbol().port(QString::fromStdString(r.port)))
          pilot = pilot || sp->kind == PortKind::Pilot || sp->kind == PortKind::Signal;
    w->setRoute(route(k), pilot);
  }
  updateJunctions();
}

// A dot wherever lines of one net leave a point in three or more directions
// (the port's own stub into the symbol counts as one).
void SchematicScene::updateJunctions() {
  Nets nets;
  for (const Connection& k : project().connections) nets.join(k.from.str(), k.to.str());
  struct NetGeometry {
    std::vector<std::pair<QPointF, QPointF>> segments;
    std::vector<QPointF> vertices;
    std::vector<std::pair<QPointF, QPointF>> ports;  // position, inward direction
  };
  std::map<std::string, NetGeometry> geo;
  std::set<std::string> portSeen;
  for (const Connection& k : project().connections) {
    WireItem* w = wireItem(k.id);
    if (!w || w->route().size() < 2) continue;
    NetGeometry& g = geo[nets.find(k.from.str())];
    const QPolygonF& r = w->route();
    for (int i = 0; i + 1 < r.size(); ++i) g.segments.emplace_back(r[i], r[i + 1]);
    for (const QPointF& v : r) g.vertices.push_back(v);
    for (const PortRef& pr : {k.from, k.to})
      if (portSeen.insert(pr.str()).second)
        if (auto pos = portPos(pr)) g.ports.emplace_back(*pos, -portDir(pr));
  }
  std::vector<QPointF> dots;
  for (auto& [net, g] : geo) {
    std::vector<QPointF> done;
    for (const QPointF& v : g.vertices) {
      if (std::any_of(done.begin(), done.end(), [&](const QPointF& d) { return same(d, v); })) continue;
      done.push_back(v);
      int dirs = 0;  // bit mask: right, left, down, up
      auto add = [&](const QPointF& d) {
        if (d.x() > 1e-6) dirs |= 1;
        else if (d.x() < -1e-6) dirs |= 2;
        else if (d.y() > 1e-6) dirs |= 4;
        else if (d.y() < -1e-6) dirs |= 8;
      };
      for (const auto& [a, b] : g.segments) {
        const bool onX = std::abs(a.y() - b.y()) < 1e-6 && std::abs(v.y() - a.y()) < 1e-6 &&
                         v.x() >= std::min(a.x(), b.x()) - 1e-6 && v.x() <= std::max(a.x(), b.x()) + 1e-6;
        const bool onY = std::abs(a.x() - b.x()) < 1e-6 && std::abs(v.x() - a.x()) < 1e-6 &&
                         v.y() >= std::min(a.y(), b.y()) - 1e-6 && v.y() <= std::max(a.y(), b.y()) + 1e-6;
        if (!onX && !onY) continue;
        if (!same(v, a)) add(a - v);
        if (!same(v, b)) add(b - v);
      }
      for (const auto& [pos, inward] : g.ports)
        if (same(pos, v)) add(inward);
      const int n = ((dirs >> 0) & 1) + ((dirs >> 1) & 1) + ((dirs >> 2) & 1) + ((dirs >> 3) & 1);
      if (n >= 3) dots.push_back(v);
    }
  }
  junctions_->setDots(std::move(dots));
}

// Signal lines (dashed, ISO 1219-1) from the output a reference names to the
// input that reads it: the components' `inputs`, a script controller's
// `data.inputs` and a step sequence's transition conditions. They route around the symbols like the pneumatic lines. An
// input that reads an actuator ("cyl1.x": a limit switch, a servo's position)
// gets a reference tag instead of a line from the cylinder; so does a
// reference to an object the diagram does not show.
void SchematicScene::updateSignals() {
  // A reference as the diagram names it: the source's identification code
  // (ISO 1219-2, "1A1.x"), its id only when it has none or is not shown.
  auto tagText = [this](const std::string& ref) {
    const std::string id = ref.substr(0, ref.find('.'));
    const Component* src = project().find(id);
    const std::string code = src && !src->label.empty() ? src->label : id;
    return QString::fromStdString(code + ref.substr(id.size()));
  };
  std::vector<QPolygonF> lines;
  std::vector<SignalItem::Ref> refsDrawn;
  std::vector<SignalItem::Tag> tags;
  std::vector<QLineF> drawn;  // signal lines keep off each other
  std::vector<QLineF> working;  // the pneumatic lines, which a signal line should not cut across
  for (const auto& [id, w] : wires_)
    for (int i = 0; i + 1 < w->route().size(); ++i) working.emplace_back(w->route()[i], w->route()[i + 1]);
  for (const Component& c : project().components) {
    const ComponentItem* target = componentItem(c.id);
    if (!target) continue;
    std::vector<std::pair<std::string, std::string>> refs(c.inputs.begin(), c.inputs.end());
    if (c.data.is_object() && c.data.contains("inputs") && c.data["inputs"].is_object())
      for (const auto& [name, ref] : c.data["inputs"].items())
        if (ref.is_string()) refs.emplace_back(name, ref.get<std::string>());
    // A sequence's transition conditions (data.steps[].when), each source
    // once, without an input name: they enter from below (the code is above).
    int nConditions = 0;
    if (c.data.is_object() && c.data.contains("steps") && c.data["steps"].is_array()) {
      std::set<std::string> seen;
      auto add = [&](const nlohmann::json& r) {
        if (r.is_string() && seen.insert(r.get<std::string>()).second) refs.emplace_back(std::string(), r.get<std::string>()), ++nConditions;
      };
      for (const auto& step : c.data["steps"])
        if (step.is_object() && step.contains("when")) {
          if (step["when"].is_array())
            for (const auto& r : step["when"]) add(r);
          else
            add(step["when"]);
        }
    }
    const QRectF tr = target->bodySceneRect();
    // Inputs without a port of their own (a script's data.inputs): spread
    // down the left side.
    int free = 0, condition = 0;
    const int nFree = int(std::count_if(refs.begin(), refs.end(), [&](const auto& r) {
      return !r.first.empty() && !target->hasPort(QString::fromStdString(r.first));
    }));
    for (const auto& [input, ref] : refs) {
      const std::string srcId = ref.substr(0, ref.find('.'));
      const QString channel = QString::fromStdString(ref.substr(std::min(ref.size(), srcId.size() + 1)));
      const QString in = QString::fromStdString(input);
      QPointF b, db;
      if (target->hasPort(in)) {
        b = target->portScenePos(in);
        db = target->portSceneDir(in);
      } else if (input.empty()) {
        b = QPointF(tr.left() + tr.width() * ++condition / (nConditions + 1), tr.bottom());
        db = {0, 1};
      } else {
        b = QPointF(tr.left(), tr.top() + tr.height() * ++free / (nFree + 1));
        db = {-1, 0};
      }
      const ComponentItem* source = componentItem(srcId);
      const Component* src = project().find(srcId);
      const ComponentType* st = src ? Registry::instance().find(src->type) : nullptr;
      if (!source || (st && st->category == "Actuators")) {
        tags.push_back({b, db.x() < 0, tagText(ref)});
        continue;
      }
      QPointF a, da;
      if (source->hasPort(channel)) {
        a = source->portScenePos(channel);
        da = source->portSceneDir(channel);
      } else {
        // A channel without a port (a data output the item has no port
        // for): from the right side, named at the input it drives.
        const QRectF r = source->bodySceneRect();
        a = QPointF(r.right(), snapToGrid(r.center().y()));
        da = {1, 0};
        tags.push_back({b, db.x() < 0, channel});
      }
      QPolygonF route = autoRoute(a, da, b, db, {}, {}, drawn);
      if (crossings(route, working) + crossings(route, drawn) > kMaxSignalCrossings) {
        // Named at both ends: the source at the input (a sequence's condition
        // is listed in its steps), the reader at the output, one under the
        // other where an output feeds several.
        if (source->hasPort(channel) && !input.empty()) tags.push_back({b, db.x() < 0, tagText(ref)});
        const int below = int(std::count_if(tags.begin(), tags.end(), [&](const SignalItem::Tag& t) {
          return t.at.x() == a.x() && t.at.y() >= a.y();
        }));
        tags.push_back({a + QPointF(0, 6.0 * below), da.x() < 0,
                        QString::fromUtf8("\u2192 ") + QString::fromStdString(c.label.empty() ? c.id : c.label)});
        continue;
      }
      lines.push_back(std::move(route));
      refsDrawn.push_back({c.id, input, srcId});
      for (int i = 0; i + 1 < lines.back().size(); ++i) drawn.emplace_back(lines.back()[i], lines.back()[i + 1]);
    }
  }
  signals_->setLines(std::move(lines), std::move(refsDrawn), std::move(tags));
}

void SchematicScene::componentMoved(const std::string& id) {
  const std::set<std::string> one{id};
  updateWires(&one);
  updateSignals();
}

std::set<std::string> SchematicScene::selectedComponents() const {
  std::set<std::string> s;
  for (QGraphicsItem* i : selectedItems())
    if (auto* c = qgraphicsitem_cast<ComponentItem*>(i)) s.insert(c->id());
  return s;
}

std::set<std::string> SchematicScene::selectedConnections() const {
  std::set<std::string> s;
  for (QGraphicsItem* i : selectedItems())
    if (auto* w = qgraphicsitem_cast<WireItem*>(i)) s.insert(w->id());
  return s;
}

void SchematicScene::selectObjects(const std::set<std::string>& comps, const std::set<std::string>& conns) {
  const QSignalBlocker block(this);
  clearSelection();
  for (const std::string& id : comps)
    if (ComponentItem* c = componentItem(id)) c->setSelected(true);
  for (const std::string& id : conns)
    if (WireItem* w = wireItem(id)) w->setSelected(true);
  blockSignals(false);
  emit selectionChanged();
}

namespace {

// What a frame shows for one object, as painted: colours compare in 8 bits
// per channel (two frames with the same pixels are equal).
template <class Map, class Key>
auto shownIn(const Map& m, const Key& k) -> std::optional<typename Map::mapped_type> {
  const auto it = m.find(k);
  if (it == m.end()) return std::nullopt;
  return it->second;
}
std::optional<QRgb> rgbOf(const RunFrame& f, const std::string& id) {
  const auto c = shownIn(f.lineColor, id);
  return c ? std::optional<QRgb>(c->rgba()) : std::nullopt;
}
bool componentDiffers(const RunFrame& a, const RunFrame& b, const std::string& id) {
  return shownIn(a.spool, id) != shownIn(b.spool, id) || shownIn(a.rod, id) != shownIn(b.rod, id) ||
         a.lit.count(id) != b.lit.count(id) || shownIn(a.litInputs, id) != shownIn(b.litInputs, id);
}

}  // namespace

// A playback frame repaints only the items whose picture it changes (a
// line's colour, a valve's body, a rod, a lit symbol or signal line): a
// scene-wide update would redraw the whole sheet 30 times a second.
void SchematicScene::setFrame(RunFrame f) {
  const RunFrame old = std::exchange(frame_, std::move(f));
  if (old.active != frame_.active) {
    update();
    return;
  }
  if (!frame_.active) return;
  for (const auto& [id, w] : wires_)
    if (rgbOf(old, id) != rgbOf(frame_, id)) w->update();
  for (const auto& [id, c] : components_)
    if (componentDiffers(old, frame_, id)) update(c->frameSceneRect());
  if (old.lit != frame_.lit) signals_->update();
}

QRectF SchematicScene::drawingBounds() const {
  QRectF r;
  for (const auto& [id, c] : components_) r |= c->sceneBoundingRect();
  for (const auto& [id, w] : wires_) r |= w->sceneBoundingRect();
  if (!signals_->boundingRect().isEmpty()) r |= signals_->sceneBoundingRect();
  return r;
}

void SchematicScene::drawBackground(QPainter* p, const QRectF& rect) {
  p->fillRect(rect, QColor(252, 252, 250));
  // Grid: dots at every cell, a faint line every 5 cells (hidden when too dense).
  const double scale = p->worldTransform().m11();
  if (scale * kGrid < 4) return;
  const double x0 = std::floor(rect.left() / kGrid) * kGrid, y0 = std::floor(rect.top() / kGrid) * kGrid;
  QPen major(QColor(225, 229, 236), 0);
  p->setPen(major);
  for (double x = std::floor(rect.left() / (5 * kGrid)) * 5 * kGrid; x <= rect.right(); x += 5 * kGrid)
    p->drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()));
  for (double y = std::floor(rect.top() / (5 * kGrid)) * 5 * kGrid; y <= rect.bottom(); y += 5 * kGrid)
    p->drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y));
  QPen dot(QColor(190, 196, 206), 0);
  p->setPen(dot);
  std::vector<QPointF> pts;
  for (double x = x0; x <= rect.right(); x += kGrid)
    for (double y = y0; y <= rect.bottom(); y += kGrid) pts.emplace_back(x, y);
  p->drawPoints(pts.data(), int(pts.size()));
}

}  // namespace pm::gui
