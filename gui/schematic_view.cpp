#include "schematic_view.h"

#include "document.h"
#include "edit_operations.h"
#include "engine/engine.h"
#include "engine/subcircuits.h"
#include "model/component_type.h"
#include "run_animation.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "symbol_library.h"
#include "units.h"

#include <QApplication>
#include <QClipboard>
#include <QGraphicsPathItem>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QMimeData>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace pm::gui {

namespace {

// The project fragment of the last copy (the system clipboard holds it too).
Project& localClipboard() {
  static Project p;
  return p;
}

// Moves segment `i` of an orthogonal route by `delta` across its direction;
// an end segment gets a new corner so the port end stays where it is.
QPolygonF moveSegment(QPolygonF pts, int i, const QPointF& delta) {
  if (i < 0 || i + 1 >= pts.size()) return pts;
  const bool horizontal = std::abs(pts[i].y() - pts[i + 1].y()) < 1e-6;
  const QPointF off = horizontal ? QPointF(0, snapToGrid(delta.y())) : QPointF(snapToGrid(delta.x()), 0);
  if (off.isNull()) return pts;
  if (i == 0) {
    pts.insert(0, pts[0]);
    ++i;
  }
  if (i + 2 == pts.size()) pts.append(pts.back());
  pts[i] += off;
  pts[i + 1] += off;
  return pts;
}

}  // namespace

SchematicView::SchematicView(SchematicScene* scene, QWidget* parent) : QGraphicsView(scene, parent), scene_(scene) {
  setObjectName("schematicView");
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
  setDragMode(QGraphicsView::RubberBandDrag);
  setRubberBandSelectionMode(Qt::IntersectsItemShape);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setResizeAnchor(QGraphicsView::AnchorViewCenter);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  setAcceptDrops(true);
  setMouseTracking(true);
  setFrameShape(QFrame::NoFrame);
  scale(3, 3);
  // View > Pressure Units: the colour scale's labels and the symbols' key data.
  connect(&units::UnitSettings::instance(), &units::UnitSettings::changed, this, [this] {
    scene_->sync();
    viewport()->update();
  });
}

Document* SchematicView::document() const { return scene_->document(); }

double SchematicView::zoom() const { return transform().m11(); }

double SchematicView::portRadius() const { return std::max(3.0, 7.0 / std::max(zoom(), 1e-3)); }

// ---------------------------------------------------------------- operations

std::string SchematicView::addComponent(const std::string& type, const QPointF& scenePos) {
  const ComponentType* t = Registry::instance().find(type);
  if (!t) return {};
  Component c = newComponent(document()->project(), type, scenePos.x(), scenePos.y());
  const std::string id = c.id;
  document()->edit(tr("Add %1 %2").arg(QString::fromStdString(c.label), QString::fromStdString(type)),
                   [&](Project& p) { p.components.push_back(c); });
  scene_->selectObjects({id});
  return id;
}

std::string SchematicView::insertIntoLine(const std::string& type, const QPointF& scenePos, const std::string& wire) {
  const ComponentType* t = Registry::instance().find(type);
  const Connection* k = nullptr;
  for (const Connection& c : document()->project().connections)
    if (c.id == wire) k = &c;
  if (!t || !k) return {};
  std::vector<std::string> ports;
  for (const PortDecl& d : t->ports)
    if (d.domain == Domain::Pneumatic) ports.push_back(d.name);
  const auto from = scene_->portPos(k->from), to = scene_->portPos(k->to);
  const Symbol& sym = SymbolLibrary::instance().symbol(type);
  if (ports.size() != 2 || !from || !to) return {};
  Component c = newComponent(document()->project(), type, scenePos.x(), scenePos.y());
  // Where the new symbol's ports will be (unturned: the pivot at the
  // placement); each goes to the line's nearer end.
  auto at = [&](const std::string& port) {
    const SymbolPort* sp = sym.port(QString::fromStdString(port));
    return QPointF(c.placement.x, c.placement.y) + (sp ? sp->pos - sym.pivot() : QPointF());
  };
  auto dist = [](const QPointF& a, const QPointF& b) { return std::hypot(a.x() - b.x(), a.y() - b.y()); };
  if (dist(at(ports[0]), *from) + dist(at(ports[1]), *to) > dist(at(ports[1]), *from) + dist(at(ports[0]), *to))
    std::swap(ports[0], ports[1]);
  const std::string id = c.id;
  const bool ok = document()->edit(
      tr("Insert %1 %2 into line %3").arg(QString::fromStdString(c.label), QString::fromStdString(type),
                                          QString::fromStdString(wire)),
      [&](Project& p) { insertIntoConnection(p, c, wire, ports[0], ports[1]); });
  if (!ok) return {};
  scene_->selectObjects({id});
  emit statusMessage(tr("%1 inserted into the line").arg(QString::fromStdString(c.label)));
  return id;
}

// The line whose drawn route passes within the port radius of `scenePos`.
std::string SchematicView::lineAt(const QPointF& scenePos) const {
  for (QGraphicsItem* i : scene_->items(QRectF(scenePos, QSizeF()).adjusted(-portRadius(), -portRadius(), portRadius(), portRadius())))
    if (auto* w = qgraphicsitem_cast<WireItem*>(i); w && w->segmentAt(scenePos, portRadius()) >= 0) return w->id();
  return {};
}

bool SchematicView::connectPorts(const PortRef& a, const PortRef& b) {
  if (a == b || a.component == b.component) return false;
  const Project& p = document()->project();
  const Component* ca = p.find(a.component);
  const Component* cb = p.find(b.component);
  if (!ca || !cb) return false;
  const ComponentType* ta = Registry::instance().find(ca->type);
  const ComponentType* tb = Registry::instance().find(cb->type);
  if (!ta || !tb) return false;
  // A signal: the input reads the output ("<id>.<channel>"), the field the
  // property editor sets.
  if (tb->input(b.port) || ta->input(a.port)) {
    // An output: a channel of the type or one declared in the data (Y1).
    auto writes = [](const Component& c, const ComponentType* t, const std::string& port) {
      const auto outs = dataOutputs(c);
      return std::any_of(t->channels.begin(), t->channels.end(), [&](const ChannelDecl& k) { return k.quantity == port; }) ||
             std::find(outs.begin(), outs.end(), port) != outs.end();
    };
    const bool bReads = tb->input(b.port) && writes(*ca, ta, a.port);
    const bool aReads = ta->input(a.port) && writes(*cb, tb, b.port);
    if (!aReads && !bReads) {
      emit statusMessage(tr("A signal line joins an output to an input: %1 and %2 are not").arg(
          QString::fromStdString(a.str()), QString::fromStdString(b.str())));
      return false;
    }
    const PortRef& in = bReads ? b : a;
    const PortRef& out = bReads ? a : b;
    const auto& now = p.find(in.component)->inputs;
    if (auto it = now.find(in.port); it != now.end() && it->second == out.str()) return false;
    const bool ok = document()->edit(
        tr("Signal %1 -> %2").arg(QString::fromStdString(out.str()), QString::fromStdString(in.str())),
        [&](Project& q) { q.find(in.component)->inputs[in.port] = out.str(); });
    if (ok) emit statusMessage(tr("%1 reads %2").arg(QString::fromStdString(in.str()), QString::fromStdString(out.str())));
    return ok;
  }
  const PortDecl* pa = ta->port(a.port);
  const PortDecl* pb = tb->port(b.port);
  if (!pa || !pb || pa->domain != Domain::Pneumatic || pb->domain != Domain::Pneumatic) {
    emit statusMessage(tr("%1 and %2 cannot be joined by a line").arg(QString::fromStdString(a.str()),
                                                                       QString::fromStdString(b.str())));
    return false;
  }
  for (const Connection& k : p.connections)
    if ((k.from == a && k.to == b) || (k.from == b && k.to == a)) return false;
  Connection k{freshConnectionId(p), a, b, {}};
  const bool ok = document()->edit(
      tr("Connect %1 - %2").arg(QString::fromStdString(a.str()), QString::fromStdString(b.str())),
      [&](Project& q) { q.connections.push_back(k); });
  if (ok) emit statusMessage(tr("Connected %1 to %2").arg(QString::fromStdString(a.str()), QString::fromStdString(b.str())));
  return ok;
}

bool SchematicView::deleteSelection() {
  const auto comps = scene_->selectedComponents();
  const auto conns = scene_->selectedConnections();
  if (comps.empty() && conns.empty()) {
    // A picked signal line: the input no longer reads anything.
    const auto picked = scene_->signalLines()->picked();
    if (!picked) return false;
    return document()->edit(tr("Remove signal %1.%2").arg(QString::fromStdString(picked->reader),
                                                          QString::fromStdString(picked->input)),
                            [&](Project& p) {
                              Component* c = p.find(picked->reader);
                              if (!c) return;
                              if (!c->inputs.erase(picked->input) && c->data.is_object() && c->data.contains("inputs") &&
                                  c->data["inputs"].is_object())
                                c->data["inputs"].erase(picked->input);
                            });
  }
  return document()->edit(tr("Delete %1 object(s)").arg(comps.size() + conns.size()),
                          [&](Project& p) { removeObjects(p, comps, conns); });
}

bool SchematicView::rotateSelection() {
  const auto comps = scene_->selectedComponents();
  return !comps.empty() && document()->edit(tr("Rotate"), [&](Project& p) { rotateComponents(p, comps); });
}

bool SchematicView::mirrorSelection() {
  const auto comps = scene_->selectedComponents();
  return !comps.empty() && document()->edit(tr("Mirror"), [&](Project& p) { mirrorComponents(p, comps); });
}

bool SchematicView::copySelection() {
  const auto comps = scene_->selectedComponents();
  if (comps.empty()) return false;
  localClipboard() = gui::copySelection(document()->project(), comps);
  auto* mime = new QMimeData;
  mime->setData(kFragmentMime, QByteArray::fromStdString(engine::serialize(localClipboard())));
  QApplication::clipboard()->setMimeData(mime);
  emit statusMessage(tr("Copied %1 component(s)").arg(comps.size()));
  return true;
}

bool SchematicView::paste() {
  Project fragment = localClipboard();
  if (const QMimeData* mime = QApplication::clipboard()->mimeData(); mime && mime->hasFormat(kFragmentMime)) {
    try {
      fragment = engine::parse(mime->data(kFragmentMime).toStdString(), "clipboard");
    } catch (const std::exception&) {
      // keep the local copy
    }
  }
  if (fragment.components.empty()) return false;
  std::vector<std::string> added;
  const bool ok = document()->edit(tr("Paste"), [&](Project& p) { added = pasteFragment(p, fragment, 2 * kGrid, 2 * kGrid); });
  if (!ok) return false;
  scene_->selectObjects({added.begin(), added.end()});
  // The next paste lands beside this one.
  for (Component& c : localClipboard().components) c.placement.x += 2 * kGrid, c.placement.y += 2 * kGrid;
  for (Connection& k : localClipboard().connections)
    for (Point& w : k.waypoints) w.x += 2 * kGrid, w.y += 2 * kGrid;
  if (QApplication::clipboard()->mimeData() && QApplication::clipboard()->mimeData()->hasFormat(kFragmentMime)) {
    auto* mime = new QMimeData;
    mime->setData(kFragmentMime, QByteArray::fromStdString(engine::serialize(localClipboard())));
    QApplication::clipboard()->setMimeData(mime);
  }
  return true;
}

bool SchematicView::duplicateSelection() {
  const auto comps = scene_->selectedComponents();
  if (comps.empty()) return false;
  const Project fragment = gui::copySelection(document()->project(), comps);
  std::vector<std::string> added;
  const bool ok = document()->edit(tr("Duplicate"), [&](Project& p) { added = pasteFragment(p, fragment, 2 * kGrid, 2 * kGrid); });
  if (ok) scene_->selectObjects({added.begin(), added.end()});
  return ok;
}

void SchematicView::commitMoves() {
  const Project& p = document()->project();
  std::map<std::string, QPointF> moved;
  for (const Component& c : p.components)
    if (ComponentItem* item = scene_->componentItem(c.id))
      if (std::abs(item->pos().x() - c.placement.x) > 1e-9 || std::abs(item->pos().y() - c.placement.y) > 1e-9)
        moved[c.id] = item->pos();
  if (moved.empty()) return;
  document()->edit(moved.size() == 1 ? tr("Move %1").arg(QString::fromStdString(moved.begin()->first)) : tr("Move %1 components").arg(moved.size()),
                   [&](Project& q) {
                     std::map<std::string, QPointF> delta;
                     for (Component& c : q.components)
                       if (auto it = moved.find(c.id); it != moved.end()) {
                         delta[c.id] = it->second - QPointF(c.placement.x, c.placement.y);
                         c.placement.x = it->second.x();
                         c.placement.y = it->second.y();
                       }
                     // Lines inside the moved group move with it.
                     for (Connection& k : q.connections) {
                       auto a = delta.find(k.from.component), b = delta.find(k.to.component);
                       if (a == delta.end() || b == delta.end() || a->second != b->second) continue;
                       for (Point& w : k.waypoints) w.x += a->second.x(), w.y += a->second.y();
                     }
                   });
}

// ---------------------------------------------------------------- zoom and pan

void SchematicView::zoomBy(double factor, const QPoint& anchor) {
  const double z = zoom();
  factor = std::clamp(z * factor, 0.05, 40.0) / z;
  const QPointF before = mapToScene(anchor);
  const auto oldAnchor = transformationAnchor();
  setTransformationAnchor(QGraphicsView::NoAnchor);
  scale(factor, factor);
  const QPointF after = mapToScene(anchor);
  const QPointF d = after - before;
  translate(d.x(), d.y());
  // Keep the point under the cursor in place also where scroll bars clamp.
  const QPoint err = mapFromScene(before) - anchor;
  horizontalScrollBar()->setValue(horizontalScrollBar()->value() + err.x());
  verticalScrollBar()->setValue(verticalScrollBar()->value() + err.y());
  setTransformationAnchor(oldAnchor);
}

void SchematicView::zoomIn() { zoomBy(1.25, viewport()->rect().center()); }
void SchematicView::zoomOut() { zoomBy(0.8, viewport()->rect().center()); }

void SchematicView::zoomToFit() {
  QRectF r = scene_->drawingBounds();
  // An empty sheet: room for a first circuit (supply, valve, flow control
  // and cylinder one above the other, ISO 1219-2) without zooming out.
  if (r.isEmpty()) r = QRectF(-150, -150, 300, 300);
  r.adjust(-15, -15, 15, 15);
  scene_->setSceneRect(scene_->sceneRect() | r.adjusted(-2000, -2000, 2000, 2000));
  fitInView(r, Qt::KeepAspectRatio);
  if (zoom() > 6) {
    const QPointF c = r.center();
    setTransform(QTransform::fromScale(6, 6));
    centerOn(c);
  }
}

void SchematicView::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  zoomBy(std::pow(1.2, steps), e->position().toPoint());
  e->accept();
}

// ---------------------------------------------------------------- mouse

void SchematicView::mouseDoubleClickEvent(QMouseEvent* e) {
  if (e->button() == Qt::LeftButton) {
    QGraphicsItem* item = itemAt(e->pos());
    while (item && !qgraphicsitem_cast<ComponentItem*>(item)) item = item->parentItem();
    if (auto* c = qgraphicsitem_cast<ComponentItem*>(item)) {
      const Component* comp = scene_->project().find(c->id());
      if (comp && engine::isSubcircuitType(comp->type)) {
        emit subcircuitOpenRequested(QString::fromStdString(c->id()));
        e->accept();
        return;
      }
    }
  }
  QGraphicsView::mouseDoubleClickEvent(e);
}

void SchematicView::mousePressEvent(QMouseEvent* e) {
  const QPointF sp = mapToScene(e->pos());
  if (e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && spaceHeld_)) {
    mode_ = Mode::Pan;
    panLast_ = e->pos();
    viewport()->setCursor(Qt::ClosedHandCursor);
    e->accept();
    return;
  }
  if (e->button() == Qt::LeftButton) {
    if (auto port = scene_->portNear(sp, portRadius())) {
      mode_ = Mode::Connect;
      connectFrom_ = port;
      preview_ = new QGraphicsPathItem;
      QPen pen(QColor(0, 120, 215), 0.6, Qt::DashLine);
      preview_->setPen(pen);
      preview_->setZValue(10);
      scene_->addItem(preview_);
      e->accept();
      return;
    }
    QGraphicsItem* top = itemAt(e->pos());
    // A signal line under the cursor (and no symbol above it) is picked.
    SignalItem* signalLines = scene_->signalLines();
    const int line = qgraphicsitem_cast<ComponentItem*>(top) ? -1 : signalLines->lineAt(sp, portRadius() * 0.5);
    // (A sequence's transition conditions are edited in its steps, not here.)
    if (line >= 0 && !qgraphicsitem_cast<WireItem*>(top) && !signalLines->refs()[size_t(line)].input.empty()) {
      scene_->clearSelection();
      signalLines->setPicked(signalLines->refs()[size_t(line)]);
      const auto& r = signalLines->refs()[size_t(line)];
      emit statusMessage(tr("Signal into %1.%2 (Delete removes it)").arg(QString::fromStdString(r.reader),
                                                                         QString::fromStdString(r.input)));
      e->accept();
      return;
    }
    signalLines->setPicked(std::nullopt);
    if (auto* w = qgraphicsitem_cast<WireItem*>(top)) {
      if (!(e->modifiers() & Qt::ControlModifier)) scene_->clearSelection();
      w->setSelected(true);
      segWire_ = w->id();
      segIndex_ = w->segmentAt(sp, portRadius());
      segRoute_ = w->route();
      segStart_ = sp;
      mode_ = Mode::Segment;
      e->accept();
      return;
    }
  }
  QGraphicsView::mousePressEvent(e);
}

void SchematicView::mouseMoveEvent(QMouseEvent* e) {
  const QPointF sp = mapToScene(e->pos());
  switch (mode_) {
    case Mode::Pan: {
      const QPoint d = e->pos() - panLast_;
      panLast_ = e->pos();
      horizontalScrollBar()->setValue(horizontalScrollBar()->value() - d.x());
      verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
      e->accept();
      return;
    }
    case Mode::Connect: {
      const auto a = scene_->portPos(*connectFrom_);
      hoverPort_ = scene_->portNear(sp, portRadius());
      QPointF b(snapToGrid(sp.x()), snapToGrid(sp.y()));
      QPointF db = -scene_->portDir(*connectFrom_);
      if (hoverPort_ && !(*hoverPort_ == *connectFrom_)) {
        b = *scene_->portPos(*hoverPort_);
        db = scene_->portDir(*hoverPort_);
      }
      QPainterPath path;
      if (a && hoverPort_) path.addPolygon(scene_->autoRoute(*a, scene_->portDir(*connectFrom_), b, db, {connectFrom_->str(), hoverPort_->str()}));
      else if (a) path.addPolygon(SchematicScene::orthogonalRoute(*a, scene_->portDir(*connectFrom_), {}, b, db));
      if (hoverPort_) path.addEllipse(b, 2, 2);
      preview_->setPath(path);
      e->accept();
      return;
    }
    case Mode::Segment: {
      if (WireItem* w = scene_->wireItem(segWire_)) {
        w->setRoute(moveSegment(segRoute_, segIndex_, sp - segStart_), w->pilot());
      }
      e->accept();
      return;
    }
    case Mode::None: break;
  }
  // Port hint under the cursor.
  const bool overPort = scene_->portNear(sp, portRadius()).has_value();
  if (!spaceHeld_) viewport()->setCursor(overPort ? Qt::CrossCursor : Qt::ArrowCursor);
  QGraphicsView::mouseMoveEvent(e);
}

void SchematicView::mouseReleaseEvent(QMouseEvent* e) {
  const QPointF sp = mapToScene(e->pos());
  switch (mode_) {
    case Mode::Pan:
      mode_ = Mode::None;
      viewport()->setCursor(spaceHeld_ ? Qt::OpenHandCursor : Qt::ArrowCursor);
      e->accept();
      return;
    case Mode::Connect:
      endConnect(sp);
      e->accept();
      return;
    case Mode::Segment: {
      mode_ = Mode::None;
      const QPolygonF moved = moveSegment(segRoute_, segIndex_, sp - segStart_);
      if (moved != segRoute_ && moved.size() >= 2) {
        std::vector<Point> way;
        for (int i = 1; i + 1 < moved.size(); ++i) way.push_back({moved[i].x(), moved[i].y()});
        const std::string id = segWire_;
        document()->edit(tr("Move line segment"), [&](Project& p) {
          for (Connection& k : p.connections)
            if (k.id == id) k.waypoints = way;
        });
      }
      e->accept();
      return;
    }
    case Mode::None: break;
  }
  QGraphicsView::mouseReleaseEvent(e);
  if (e->button() == Qt::LeftButton) commitMoves();
}

void SchematicView::endConnect(const QPointF& scenePos) {
  mode_ = Mode::None;
  delete preview_;
  preview_ = nullptr;
  const auto target = scene_->portNear(scenePos, portRadius());
  const auto from = connectFrom_;
  connectFrom_.reset();
  hoverPort_.reset();
  if (from && target && !(*target == *from)) {
    connectPorts(*from, *target);
    return;
  }
  // Released on a line: branch into it there (a T with a junction dot).
  if (from && !target) {
    const double tol = portRadius();
    for (QGraphicsItem* gi : scene_->items(QRectF(scenePos - QPointF(tol, tol), QSizeF(2 * tol, 2 * tol))))
      if (auto* w = qgraphicsitem_cast<WireItem*>(gi)) {
        branchInto(*from, w->id(), scenePos);
        return;
      }
  }
}

bool SchematicView::branchInto(const PortRef& from, const std::string& wire, const QPointF& at) {
  const Project& p = document()->project();
  const auto it = std::find_if(p.connections.begin(), p.connections.end(), [&](const Connection& k) { return k.id == wire; });
  WireItem* w = scene_->wireItem(wire);
  if (it == p.connections.end() || !w) return false;
  const QPolygonF r = w->route();
  const int i = w->segmentAt(at, portRadius());
  if (i < 0) return false;
  // The branch point on the segment, on the grid where the segment allows.
  const QPointF a = r[i], b = r[i + 1];
  QPointF q = at;
  if (std::abs(a.y() - b.y()) < 1e-6) q = QPointF(std::clamp(snapToGrid(at.x()), std::min(a.x(), b.x()), std::max(a.x(), b.x())), a.y());
  else q = QPointF(a.x(), std::clamp(snapToGrid(at.y()), std::min(a.y(), b.y()), std::max(a.y(), b.y())));
  // Along the existing line to one of its ports (not back to where we start).
  const bool toStart = !(it->from == from);
  Connection k;
  k.id = freshConnectionId(p);
  k.from = from;
  k.to = toStart ? it->from : it->to;
  // Out of the port one cell, then across to meet the segment square on.
  const auto start = scene_->portPos(from);
  if (!start) return false;
  const QPointF stub = *start + scene_->portDir(from) * kGrid;
  const bool horizontalSegment = std::abs(a.y() - b.y()) < 1e-6;
  const QPointF corner = horizontalSegment ? QPointF(q.x(), stub.y()) : QPointF(stub.x(), q.y());
  k.waypoints.push_back({stub.x(), stub.y()});
  k.waypoints.push_back({corner.x(), corner.y()});
  k.waypoints.push_back({q.x(), q.y()});
  if (toStart)
    for (int j = i; j >= 1; --j) k.waypoints.push_back({r[j].x(), r[j].y()});
  else
    for (int j = i + 1; j + 1 < r.size(); ++j) k.waypoints.push_back({r[j].x(), r[j].y()});
  if (k.to.component == from.component && k.to.port == from.port) return false;
  return document()->edit(tr("Branch %1 into %2").arg(QString::fromStdString(from.str()), QString::fromStdString(wire)),
                          [&](Project& q2) { q2.connections.push_back(k); });
}

void SchematicView::keyPressEvent(QKeyEvent* e) {
  if (e->key() == Qt::Key_Space && !e->isAutoRepeat()) {
    spaceHeld_ = true;
    viewport()->setCursor(Qt::OpenHandCursor);
    e->accept();
    return;
  }
  if (e->key() == Qt::Key_Escape && mode_ == Mode::Connect) {
    endConnect(QPointF(1e12, 1e12));
    return;
  }
  QGraphicsView::keyPressEvent(e);
}

void SchematicView::keyReleaseEvent(QKeyEvent* e) {
  if (e->key() == Qt::Key_Space && !e->isAutoRepeat()) {
    spaceHeld_ = false;
    viewport()->setCursor(Qt::ArrowCursor);
    e->accept();
    return;
  }
  QGraphicsView::keyReleaseEvent(e);
}

// ---------------------------------------------------------------- drop

void SchematicView::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasFormat(kComponentMime)) e->acceptProposedAction();
  else QGraphicsView::dragEnterEvent(e);
}

void SchematicView::dragMoveEvent(QDragMoveEvent* e) {
  if (e->mimeData()->hasFormat(kComponentMime)) e->acceptProposedAction();
  else QGraphicsView::dragMoveEvent(e);
}

void SchematicView::dropEvent(QDropEvent* e) {
  if (!e->mimeData()->hasFormat(kComponentMime)) {
    QGraphicsView::dropEvent(e);
    return;
  }
  const std::string type = e->mimeData()->data(kComponentMime).toStdString();
  const QPointF at = mapToScene(e->position().toPoint());
  // Dropped on a line, a component with two pneumatic ports (a flow
  // control, a check valve) goes into it; elsewhere it is placed alone.
  const std::string line = lineAt(at);
  std::string id = line.empty() ? std::string() : insertIntoLine(type, at, line);
  if (id.empty()) id = addComponent(type, at);
  if (!id.empty()) e->acceptProposedAction();
  setFocus();
}

// ---------------------------------------------------------------- legend

void SchematicView::setLegendVisible(bool on, double pLow, double pHigh) {
  legend_ = on;
  if (pHigh > pLow) legendLow_ = pLow, legendHigh_ = pHigh;
  viewport()->update();
}

// A run or a mode colours the lines of the circuit: a sheet without lines
// (a mechanism alone, symbols not yet connected) has nothing a scale explains.
bool SchematicView::legendVisible() const { return legend_ && !document()->project().connections.empty(); }

QString SchematicView::legendHint() const {
  if (!legend_ || legendVisible()) return {};
  return document()->project().components.empty() ? tr("No circuit: pressures are shown on the lines of a circuit")
                                                  : tr("No lines to colour: connect the ports");
}

QString SchematicView::legendUnit() const { return units::pressureUnit().unit; }

QStringList SchematicView::legendTicks() const {
  const units::DisplayUnit du = units::pressureUnit();
  QStringList ticks;
  for (int i = 0; i <= 4; ++i)
    ticks << QString::number(du.toDisplay(legendLow_ + (legendHigh_ - legendLow_) * i / 4), 'g', 3);
  return ticks;
}

void SchematicView::drawForeground(QPainter* p, const QRectF&) {
  const QString hint = legendHint();
  if (!hint.isEmpty()) drawLegendHint(p, hint);
  if (!legendVisible()) return;
  p->save();
  p->resetTransform();
  const QRect vr = viewport()->rect();
  const int w = 18, h = std::min(220, vr.height() - 80);
  const QRect bar(vr.right() - 70, vr.bottom() - h - 30, w, h);
  QLinearGradient g(bar.bottomLeft(), bar.topLeft());
  for (int i = 0; i <= 10; ++i) g.setColorAt(i / 10.0, pressureColor(i / 10.0));
  p->setRenderHint(QPainter::Antialiasing, false);
  p->fillRect(bar.adjusted(-8, -26, 52, 10), QColor(255, 255, 255, 225));
  p->fillRect(bar, g);
  p->setPen(QColor(60, 60, 60));
  p->drawRect(bar);
  QFont f = font();
  f.setPointSizeF(8);
  p->setFont(f);
  p->drawText(QPoint(bar.left() - 4, bar.top() - 12), legendUnit());
  const QStringList ticks = legendTicks();
  for (int i = 0; i < ticks.size(); ++i) {
    const int y = bar.bottom() - i * bar.height() / (int(ticks.size()) - 1);
    p->drawLine(bar.right(), y, bar.right() + 4, y);
    p->drawText(QPoint(bar.right() + 7, y + 4), ticks[i]);
  }
  p->restore();
}

// In the scale's corner, in its panel and font: grey text that reads as a note.
void SchematicView::drawLegendHint(QPainter* p, const QString& text) {
  p->save();
  p->resetTransform();
  QFont f = font();
  f.setPointSizeF(8);
  p->setFont(f);
  const QFontMetrics fm(f);
  const QRect vr = viewport()->rect();
  const int w = std::max(40, std::min(fm.horizontalAdvance(text) + 2, vr.width() - 40));  // +2: no wrap by rounding
  const QRect r = fm.boundingRect(QRect(0, 0, w, 10 * fm.height()), Qt::TextWordWrap, text);
  const QRect box(vr.right() - r.width() - 22, vr.bottom() - 30 - r.height(), r.width() + 12, r.height() + 8);
  p->fillRect(box, QColor(255, 255, 255, 225));
  p->setPen(QColor(110, 110, 110));
  p->drawText(box.adjusted(6, 4, -6, -4), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, text);
  p->restore();
}

}  // namespace pm::gui
