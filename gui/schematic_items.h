// Graphics items of the schematic. They are views: each holds the id of the
// model object it shows and reads everything else from the Project through
// the scene; connectivity lives only in the model.
#pragma once

#include "model/project.h"

#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pm::gui {

class SchematicScene;
struct Symbol;

// Outputs a component declares in its data (a step sequence's or a script
// controller's `data.outputs`, a list or a script's {name: initial value}:
// "Y1", "Y2"); other components read them as "<id>.<name>" like channels.
std::vector<std::string> dataOutputs(const Component& c);

class ComponentItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 1 };
  ComponentItem(SchematicScene* scene, const Component& c);

  const std::string& id() const { return id_; }
  // Re-reads the component (placement, parameters, label); redraws only
  // when something it shows changed.
  void setComponent(const Component& c);
  // Symbol coordinates -> item coordinates (rotation and mirror, pivot at 0).
  const QTransform& symbolTransform() const { return xf_; }
  const Symbol& symbol() const { return *symbol_; }
  // Port position in scene coordinates and its outward direction.
  QPointF portScenePos(const QString& port) const;
  QPointF portSceneDir(const QString& port) const;
  bool hasPort(const QString& port) const;
  // The symbol's rectangle in scene coordinates (what lines route around).
  QRectF bodySceneRect() const;
  // Where a run frame may draw it (scene): the rod out to its full travel
  // and the valve body shifted to any square, beyond the item's bounds.
  QRectF frameSceneRect() const;
  // How a directional valve is drawn as actuated on side 14 (ISO 1219-1):
  // by its solenoid, or by hand (manual = 1) with a push-button (spring
  // return or spring-centred) or a lever with detent. None: not a valve.
  enum class Actuator { None, Solenoid, PushButton, LeverDetent };
  Actuator actuator() const { return actuator_; }
  // The key technical data written beside the code ("Ø32×200", "6 bar (g)").
  const QString& keyDataText() const { return data_; }
  // Signal output ports added for the data outputs that have no port in the
  // symbol: on the right side, one grid cell apart; the block grows to fit.
  const QStringList& dataPorts() const { return dataPorts_; }

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) override;

 protected:
  QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;

 private:
  void layoutText();
  void paintSymbol(QPainter* p, double spool, double rod) const;

  SchematicScene* scene_;
  std::string id_;
  std::string typeName_;
  const Symbol* symbol_;               // librarySymbol_ or grown_
  const Symbol* librarySymbol_ = nullptr;
  std::shared_ptr<Symbol> grown_;      // with the data output ports
  QStringList dataPorts_;
  Placement placement_;
  QTransform xf_;
  QString code_, data_;          // "1A1", "Ø32×200"
  QPointF codePos_;              // item coordinates, top-left of the code text
  QPointF dataPos_;              // top-left of the key data, right of the code
  bool showPortNumbers_ = false;
  Actuator actuator_ = Actuator::None;
  QStringList shownParts_;       // the symbol's switchable parts drawn
  QRectF bounds_;
};

class WireItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 2 };
  WireItem(SchematicScene* scene, const std::string& id);

  const std::string& id() const { return id_; }
  void setRoute(const QPolygonF& points, bool pilot);  // scene coordinates
  const QPolygonF& route() const { return route_; }
  const QRectF& routeBounds() const { return routeBounds_; }  // scene coordinates
  bool pilot() const { return pilot_; }
  // The ports the line joins ("comp.port"), for the router.
  void setEnds(std::string a, std::string b) { ends_[0] = std::move(a), ends_[1] = std::move(b); }
  bool touches(const std::string& port) const { return ends_[0] == port || ends_[1] == port; }
  // Index of the segment within `tol` of `p`, -1 when none.
  int segmentAt(const QPointF& p, double tol) const;

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) override;

 private:
  SchematicScene* scene_;
  std::string id_;
  QPolygonF route_;
  QRectF routeBounds_;
  bool pilot_ = false;
  std::string ends_[2];
};

// Dashed signal lines from a signal output (switch, sensor, controller) to
// the input that reads it (a valve's solenoid, a controller's input), with
// an arrowhead at the input. Drawn from the components' `inputs`.
class SignalItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 3 };
  SignalItem() { setZValue(-1); }
  // A reference written at an input whose source is far away ("<- seq.Y1").
  struct Tag {
    QPointF at;      // the input's point on the symbol
    bool leftSide;   // text to the left of `at`
    QString text;
  };
  // The reference a line draws: component `reader` reads it at `input`
  // from component `source` (lit during a run while the source is on).
  struct Ref {
    std::string reader, input, source;
    bool operator==(const Ref&) const = default;
  };
  void setLines(std::vector<QPolygonF> lines, std::vector<Ref> refs, std::vector<Tag> tags);
  const std::vector<QPolygonF>& lines() const { return lines_; }
  const std::vector<Ref>& refs() const { return refs_; }
  const std::vector<Tag>& tags() const { return tags_; }
  // Index of the line within `tol` of `p`, -1 when none.
  int lineAt(const QPointF& p, double tol) const;
  // The line picked on the canvas (drawn highlighted; Delete removes it).
  void setPicked(std::optional<Ref> r);
  const std::optional<Ref>& picked() const { return picked_; }
  int type() const override { return Type; }
  QRectF boundingRect() const override { return bounds_; }
  // Only the lines and tags take the mouse, not the whole bounding box.
  QPainterPath shape() const override { return QPainterPath(); }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) override;

 private:
  std::vector<QPolygonF> lines_;
  std::vector<Ref> refs_;
  std::vector<Tag> tags_;
  std::optional<Ref> picked_;
  QRectF bounds_;
};

// Filled dots where lines of one net branch.
class JunctionItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 4 };
  JunctionItem() { setZValue(2); }
  void setDots(std::vector<QPointF> dots);
  const std::vector<QPointF>& dots() const { return dots_; }
  int type() const override { return Type; }
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* o, QWidget* w) override;

 private:
  std::vector<QPointF> dots_;
  QRectF bounds_;
};

}  // namespace pm::gui
