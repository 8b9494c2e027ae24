// ISO 1219-1 symbols as data: icons/symbols/<type>.svg plus <type>.json
// (size, ports, label anchor, valve squares, cylinder rod travel), parsed once
// and cached. A type without files gets a plain labelled rectangle with its
// registry ports spread on the edges, so the editor works with any type.
//
// Symbol coordinates are SVG user units = sheet mm; 10 units are one grid
// cell and ports sit on the grid. A component's Placement (x, y) is the scene
// position of the symbol's pivot: its centre snapped to the grid, so rotating
// by 90 degrees keeps every port on the grid.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QPainter;
class QSvgRenderer;

namespace pm::gui {

constexpr double kGrid = 10.0;  // sheet mm per grid cell

enum class PortKind { Pneumatic, Pilot, Signal, Mechanical };

struct SymbolPort {
  QString name;
  QPointF pos;           // symbol coordinates
  QPointF dir{0, 1};     // unit vector pointing away from the symbol
  PortKind kind = PortKind::Pneumatic;
};

struct Symbol {
  QString type;
  // What a user may search the library by: the drawing's <title> (its
  // ISO 1219 name, "5/2-way valve") and the json's "keywords" (common
  // names: "solenoid valve", "timer").
  QString title;
  QStringList keywords;
  QSizeF size{40, 40};
  std::vector<SymbolPort> ports;
  QPointF label{44, 0};  // top-left anchor of the identification text
  // Valve: width of one square, position names left to right, rest index.
  double square = 0.0;
  QStringList positions;
  int rest = 0;
  // Cylinder: rod travel (x axis) at full stroke, in symbol units.
  double travel = 0.0;
  std::shared_ptr<QSvgRenderer> svg;       // whole symbol; null: fallback rectangle
  std::shared_ptr<QSvgRenderer> fixedSvg;  // without the moving groups (body, rod)
  bool hasBody = false, hasPorts = false, hasRod = false;
  bool hasText = false;  // the SVG writes its own port numbers
  QRectF bodyRect;       // valve body (squares and actuators) at rest, symbol coordinates
  double squaresLeft = 0.0;  // left edge of the first square at rest

  // Switchable parts of a valve (groups `solenoid14`, `button14`,
  // `lever14`, `pilot14`, `spring14`, `solenoid12`, `pilot12`, `spring12` in
  // the body, the signal stubs `stub14`/`stub12` and the exhaust triangles
  // `exhaust3`/`exhaust5` in the ports), chosen by the component's
  // parameters and lines (valve_actuation.h). Drawn without a choice, all
  // but the alternates `button14` and `lever14` show.
  QStringList switchable;
  QByteArray svgText;
  // A per-component copy grown for extra ports keeps the pivot of the
  // drawn symbol, so the block grows downwards and its placement holds.
  std::optional<QPointF> fixedPivot;

  bool isValve() const { return square > 0 && !positions.isEmpty(); }
  QPointF pivot() const;
  QRectF bounds() const { return QRectF(QPointF(0, 0), size); }
  const SymbolPort* port(const QString& name) const;

  // Draws the symbol in symbol coordinates. `spoolSquares`: shift of the
  // valve body in squares (rest - active); `rodFraction`: cylinder stroke 0..1.
  void paint(QPainter* p, double spoolSquares = 0.0, double rodFraction = 0.0) const;
  // The same with the switchable parts `shown` drawn and the others hidden.
  void paint(QPainter* p, double spoolSquares, double rodFraction, const QStringList& shown) const;

 private:
  struct Renderers {
    std::shared_ptr<QSvgRenderer> svg, fixedSvg;
  };
  void paintWith(QPainter* p, const Renderers& r, double spoolSquares, double rodFraction) const;
  // Renderers per set of hidden parts, built on first use (GUI thread only).
  mutable std::map<QString, Renderers> variants_;
};

class SymbolLibrary {
 public:
  static SymbolLibrary& instance();

  // The symbol of a registry type (fallback when no files exist); cached.
  const Symbol& symbol(const std::string& type);
  // Directory the symbols are read from (may not exist).
  QString directory() const { return dir_; }
  // Forgets the cache (symbols re-read on next use), e.g. after new files appear.
  void reload();

 private:
  SymbolLibrary();
  Symbol load(const std::string& type) const;
  Symbol fallback(const std::string& type) const;

  QString dir_;
  std::map<std::string, std::unique_ptr<Symbol>> cache_;
  // A user type changes under its name (a sub-circuit's ports edited, a
  // type withdrawn): its symbol is made again when what it is drawn from
  // (userKey) changed. The old one lives on, since a drawn item points at
  // its symbol until it re-reads the component.
  std::map<std::string, std::string> userKeys_;
  std::vector<std::unique_ptr<Symbol>> retired_;
};

}  // namespace pm::gui
