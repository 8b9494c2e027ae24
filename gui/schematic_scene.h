// The circuit diagram as a QGraphicsScene over the Document's Project:
// symbols at their placements, orthogonal lines along the connections'
// waypoints, junction dots, signal lines. sync() re-reads the model after
// every change (items are kept by id, so selection survives); the run
// animation is a RunFrame the items draw on top of the model.
#pragma once

#include "model/project.h"

#include <QColor>
#include <QGraphicsScene>
#include <QPolygonF>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace pm::gui {

class ComponentItem;
class Document;
class JunctionItem;
class SignalItem;
class WireItem;

// What a run shows at one instant.
struct RunFrame {
  bool active = false;
  std::map<std::string, QColor> lineColor;  // connection id -> pressure colour
  std::map<std::string, double> spool;      // valve id -> body shift in squares (rest - active)
  std::map<std::string, double> rod;        // cylinder id -> stroke fraction 0..1
  std::set<std::string> lit;                // components lit (switch on, solenoid energised)
  std::map<std::string, std::set<std::string>> litInputs;  // component -> energised inputs ("sol14")
};

class SchematicScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit SchematicScene(Document* doc, QObject* parent = nullptr);

  Document* document() const { return doc_; }
  const Project& project() const;
  void sync();

  ComponentItem* componentItem(const std::string& id) const;
  WireItem* wireItem(const std::string& id) const;
  JunctionItem* junctions() const { return junctions_; }
  SignalItem* signalLines() const { return signals_; }

  // Port geometry in scene coordinates (follows a symbol being dragged).
  std::optional<QPointF> portPos(const PortRef& r) const;
  QPointF portDir(const PortRef& r) const;
  // The port nearest to `p` within `radius` (scene units).
  std::optional<PortRef> portNear(const QPointF& p, double radius) const;
  // Orthogonal route through the connection's waypoints (ports included);
  // without waypoints it goes around the symbols and keeps off other lines.
  QPolygonF route(const Connection& k) const;
  // An automatic route between two ends (a null direction: a free point)
  // around the symbols, off the lines of other nets than `ends` ("comp.port")
  // and off `more` (e.g. the signal lines drawn so far).
  QPolygonF autoRoute(const QPointF& a, const QPointF& dirA, const QPointF& b, const QPointF& dirB,
                      const std::vector<std::string>& ends = {}, const std::string& skipWire = {},
                      const std::vector<QLineF>& more = {}) const;
  // `blocked(p, q)`: the middle segment p-q of an automatic route would run
  // along another line; the router then tries neighbouring grid lines.
  static QPolygonF orthogonalRoute(const QPointF& a, const QPointF& dirA, const std::vector<QPointF>& via,
                                   const QPointF& b, const QPointF& dirB,
                                   const std::function<bool(const QPointF&, const QPointF&)>& blocked = {});

  std::set<std::string> selectedComponents() const;
  std::set<std::string> selectedConnections() const;
  void selectObjects(const std::set<std::string>& components, const std::set<std::string>& connections = {});

  const RunFrame& frame() const { return frame_; }
  void setFrame(RunFrame f);

  // Bounds of the drawing (symbols, labels, lines).
  QRectF drawingBounds() const;

  // A symbol is being dragged: its lines follow.
  void componentMoved(const std::string& id);

 protected:
  void drawBackground(QPainter* p, const QRectF& rect) override;

 private:
  void updateBodies();
  void updateWires(const std::set<std::string>* onlyTouching);
  QPolygonF routeVia(const QPointF& a, const QPointF& dirA, const std::vector<QPointF>& via, const QPointF& b,
                     const QPointF& dirB) const;
  void updateJunctions();
  void updateSignals();

  Document* doc_;
  std::unordered_map<std::string, ComponentItem*> components_;
  std::unordered_map<std::string, WireItem*> wires_;
  JunctionItem* junctions_ = nullptr;
  SignalItem* signals_ = nullptr;
  RunFrame frame_;
  std::vector<QRectF> bodies_;  // symbol rectangles, scene coordinates (router obstacles)
};

}  // namespace pm::gui
