// The schematic canvas: zoom with the wheel around the cursor, pan with the
// middle button or space + drag, zoom-to-fit; drag from port to port to
// connect, drag a line segment to move it, drop a library type to place it,
// and the editing commands (rotate, mirror, delete, copy/paste, duplicate).
// Every change goes through Document::edit (undoable); items only follow.
#pragma once

#include "model/project.h"

#include <QGraphicsView>

#include <optional>
#include <set>
#include <string>

class QGraphicsPathItem;

namespace pm::gui {

class Document;
class SchematicScene;
class WireItem;

inline constexpr const char* kComponentMime = "application/x-pneumech-component-type";
inline constexpr const char* kFragmentMime = "application/x-pneumech-fragment";

class SchematicView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit SchematicView(SchematicScene* scene, QWidget* parent = nullptr);

  SchematicScene* schematic() const { return scene_; }
  Document* document() const;

  // The operations behind the toolbar, menus and drop; each one undo step.
  std::string addComponent(const std::string& type, const QPointF& scenePos);  // "" when unknown type
  bool connectPorts(const PortRef& a, const PortRef& b);
  // A component of `type` with two pneumatic ports put into line `wire` at
  // `scenePos`: the line splits and each half ends at the port nearer its
  // end (one undo step). "" when the type has not exactly two such ports.
  std::string insertIntoLine(const std::string& type, const QPointF& scenePos, const std::string& wire);
  // The line drawn within reach of `scenePos` ("" when none).
  std::string lineAt(const QPointF& scenePos) const;
  // A line from port `from` that joins line `wire` at `at` (a T junction).
  bool branchInto(const PortRef& from, const std::string& wire, const QPointF& at);
  bool deleteSelection();
  bool rotateSelection();
  bool mirrorSelection();
  bool copySelection();
  bool paste();
  bool duplicateSelection();

  double zoom() const;
  // The colour scale of the line pressures, from pLow (blue) to pHigh (red),
  // both absolute [Pa]; labelled in the studio's pressure units. Drawn only
  // while the sheet has lines to colour; without, a short hint says so
  // (legendHint) where the scale would be.
  void setLegendVisible(bool on, double pLow = 0.0, double pHigh = 0.0);
  bool legendVisible() const;
  // The text shown instead of the scale ("" when the scale or nothing is shown).
  QString legendHint() const;
  // The scale's unit ("bar (g)") and tick texts, bottom to top, as drawn.
  QString legendUnit() const;
  QStringList legendTicks() const;

 public slots:
  void zoomToFit();
  void zoomIn();
  void zoomOut();

 signals:
  void statusMessage(const QString& text);
  // A sub-circuit instance was double-clicked: its inside is to be opened.
  void subcircuitOpenRequested(const QString& id);

 protected:
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void keyReleaseEvent(QKeyEvent* e) override;
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dragMoveEvent(QDragMoveEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void drawForeground(QPainter* p, const QRectF& rect) override;

 private:
  enum class Mode { None, Pan, Connect, Segment };
  double portRadius() const;  // scene units: ~7 px, at least 3 mm
  void commitMoves();
  void zoomBy(double factor, const QPoint& anchor);
  void endConnect(const QPointF& scenePos);
  void drawLegendHint(QPainter* p, const QString& text);

  SchematicScene* scene_;
  Mode mode_ = Mode::None;
  bool spaceHeld_ = false;
  QPoint panLast_;
  // Connect
  std::optional<PortRef> connectFrom_;
  QGraphicsPathItem* preview_ = nullptr;
  std::optional<PortRef> hoverPort_;
  // Segment drag
  std::string segWire_;
  int segIndex_ = -1;
  QPolygonF segRoute_;
  QPointF segStart_;
  bool legend_ = false;
  double legendLow_ = 101325.0, legendHigh_ = 701325.0;  // Pa absolute
};

}  // namespace pm::gui
