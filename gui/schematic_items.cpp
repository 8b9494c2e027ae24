#include "schematic_items.h"

#include "edit_operations.h"
#include "model/component_type.h"
#include "schematic_scene.h"
#include "symbol_library.h"
#include "units.h"
#include "valve_actuation.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace pm::gui {

namespace {

const QColor kInk(20, 24, 28);
const QColor kSelect(0, 120, 215);
const QColor kLit(255, 176, 0);
constexpr double kCodeHeight = 6.0;   // sheet mm
constexpr double kDataHeight = 5.0;
constexpr double kPortHeight = 2.8;
constexpr double kDataPortHeight = 4.0;  // names of a block's data outputs

// Text at sheet sizes, independent of the screen's DPI: a 10x font scaled down.
QFont sheetFont(double height, bool bold) {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPixelSize(std::max(1, int(std::lround(height * 10))));
  f.setBold(bold);
  return f;
}

QRectF textRect(const QString& text, double height, bool bold, const QPointF& topLeft) {
  const QFontMetricsF fm(sheetFont(height, bold));
  return QRectF(topLeft, QSizeF(fm.horizontalAdvance(text) * 0.1, fm.height() * 0.1));
}

void drawSheetText(QPainter* p, const QPointF& topLeft, const QString& text, double height, bool bold,
                   const QColor& color) {
  p->save();
  p->translate(topLeft);
  p->scale(0.1, 0.1);
  p->setFont(sheetFont(height, bold));
  p->setPen(color);
  const QFontMetricsF fm(p->font());
  p->drawText(QPointF(0, fm.ascent()), text);
  p->restore();
}

QString mm(double si) { return units::formatNumber(std::round(si * 1e4) / 10.0); }

// Key technical data written beside the code (ISO 1219-2), e.g. "Ø32×200".
QString keyData(const Component& c) {
  const ComponentType* t = Registry::instance().find(c.type);
  if (!t) return {};
  auto v = [&](const char* n) { return paramValue(c, *t, n); };
  if (t->param("bore") && t->param("stroke")) return QString("Ø%1×%2").arg(mm(v("bore")), mm(v("stroke")));
  // Pressures in the studio's units, to 0.01 bar: "6 bar (g)".
  auto pressure = [&](const char* n) {
    const units::DisplayUnit du = units::forParam(*t->param(n), v(n));
    return QString("%1 %2").arg(units::formatNumber(std::round(du.toDisplay(v(n)) * 100) / 100), du.unit);
  };
  if (c.type == "supply") return pressure("p");
  if (c.type == "pressure_regulator") return pressure("p_set");
  if (c.type == "reservoir") {
    const auto du = units::forUnit("m3", v("V"));
    return QString("%1 %2").arg(units::formatNumber(du.toDisplay(v("V"))), du.unit);
  }
  if (c.type == "tube") return QString("Ø%1 mm, %2 m").arg(mm(v("d")), units::formatNumber(v("L")));
  if (t->param("C_max") && t->param("opening"))
    return QString("C %1").arg(units::formatNumber(std::round(v("C_max") * v("opening") * 1e10) / 100));
  if (c.type == "time_switch") return QString("%1 s").arg(units::formatNumber(v("t_on")));
  if (c.type == "pressure_switch") return pressure("p_on");
  if (c.type == "orifice") return QString("Ø%1").arg(mm(v("d")));
  return {};
}

// How side 14 of a valve is drawn, from the glyphs shown (valve_actuation.h).
ComponentItem::Actuator actuatorOf(const QStringList& shown) {
  if (shown.contains("button14")) return ComponentItem::Actuator::PushButton;
  if (shown.contains("lever14")) return ComponentItem::Actuator::LeverDetent;
  if (shown.contains("solenoid14")) return ComponentItem::Actuator::Solenoid;
  return ComponentItem::Actuator::None;
}

}  // namespace

std::vector<std::string> dataOutputs(const Component& c) {
  std::vector<std::string> out;
  if (!c.data.is_object() || !c.data.contains("outputs")) return out;
  const auto& outputs = c.data["outputs"];
  auto add = [&](const std::string& n) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  if (outputs.is_array()) {
    for (const auto& o : outputs)
      if (o.is_string()) add(o.get<std::string>());
  } else if (outputs.is_object()) {  // a script's {name: initial value}
    for (auto it = outputs.begin(); it != outputs.end(); ++it) add(it.key());
  }
  return out;
}

// ---------------------------------------------------------------- ComponentItem

ComponentItem::ComponentItem(SchematicScene* scene, const Component& c)
    : scene_(scene), id_(c.id), typeName_(c.type), symbol_(&SymbolLibrary::instance().symbol(c.type)) {
  setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
  setZValue(1);
  setComponent(c);
}

void ComponentItem::setComponent(const Component& c) {
  const Symbol* lib = &SymbolLibrary::instance().symbol(c.type);
  QStringList dataPorts;
  for (const std::string& o : dataOutputs(c))
    if (!lib->port(QString::fromStdString(o))) dataPorts << QString::fromStdString(o);
  const Symbol* sym = lib;
  if (lib == librarySymbol_ && dataPorts == dataPorts_ && grown_) sym = grown_.get();
  else if (!dataPorts.isEmpty()) {
    auto g = std::make_shared<Symbol>(*lib);
    g->fixedPivot = lib->pivot();
    const double h = std::max(lib->size.height(), kGrid * double(dataPorts.size() + 1));
    g->size.setHeight(std::ceil(h / kGrid) * kGrid);
    // A column for the names right of the drawing, unless the drawing has
    // ports of its own on the right edge.
    const bool rightFree = std::none_of(lib->ports.begin(), lib->ports.end(),
                                        [&](const SymbolPort& sp) { return sp.pos.x() >= lib->size.width(); });
    if (rightFree) {
      double names = 0.0;
      for (const QString& n : dataPorts) names = std::max(names, textRect(n, kDataPortHeight, false, {}).width());
      g->size.setWidth(lib->size.width() + std::ceil((names + 3.0) / kGrid) * kGrid);
    }
    for (int i = 0; i < dataPorts.size(); ++i)
      g->ports.push_back({dataPorts[i], QPointF(g->size.width(), kGrid * (i + 1)), {1, 0}, PortKind::Signal});
    grown_ = g;
    sym = g.get();
  }
  if (dataPorts.isEmpty()) grown_.reset();
  librarySymbol_ = lib;
  dataPorts_ = dataPorts;
  const QString code = QString::fromStdString(c.label.empty() ? c.id : c.label);
  const QString data = keyData(c);
  const QStringList shown = valveGlyphs(c, *sym, &scene_->project());
  const Actuator actuator = actuatorOf(shown);
  if (sym == symbol_ && c.type == typeName_ && c.placement == placement_ && code == code_ && data == data_ &&
      actuator == actuator_ && shown == shownParts_ && !bounds_.isNull())
    return;
  prepareGeometryChange();
  symbol_ = sym;
  typeName_ = c.type;
  placement_ = c.placement;
  code_ = code;
  data_ = data;
  actuator_ = actuator;
  shownParts_ = shown;
  const QPointF piv = symbol_->pivot();
  xf_ = QTransform()
            .rotate(placement_.rotation)
            .scale(placement_.mirror ? -1 : 1, 1)
            .translate(-piv.x(), -piv.y());
  showPortNumbers_ = (symbol_->isValve() || c.type.rfind("valve_", 0) == 0) && !symbol_->hasText;
  setFlag(ItemSendsGeometryChanges, false);
  setPos(placement_.x, placement_.y);
  setFlag(ItemSendsGeometryChanges, true);
  layoutText();
  QGraphicsItem::update();
}

void ComponentItem::layoutText() {
  const QRectF body = xf_.mapRect(symbol_->bounds());
  if (placement_.rotation == 0 && !placement_.mirror) codePos_ = xf_.map(symbol_->label);
  else codePos_ = QPointF(body.right() + 3, body.top());
  bounds_ = body.adjusted(-3, -3, 3, 3);
  bounds_ |= textRect(code_, kCodeHeight, true, codePos_);
  dataPos_ = codePos_ + QPointF(textRect(code_, kCodeHeight, true, {}).width() + 2.0, (kCodeHeight - kDataHeight) * 0.8);
  if (!data_.isEmpty()) bounds_ |= textRect(data_, kDataHeight, false, dataPos_);
  if (showPortNumbers_) bounds_.adjust(-8, -8, 8, 8);
}

QRectF ComponentItem::boundingRect() const { return bounds_; }

QPainterPath ComponentItem::shape() const {
  QPainterPath path;
  path.addRect(xf_.mapRect(symbol_->bounds()).adjusted(-1, -1, 1, 1));
  path.addRect(textRect(code_, kCodeHeight, true, codePos_));
  return path;
}

bool ComponentItem::hasPort(const QString& port) const { return symbol_->port(port) != nullptr; }

QRectF ComponentItem::bodySceneRect() const { return xf_.mapRect(symbol_->bounds()).translated(pos()); }

QRectF ComponentItem::frameSceneRect() const {
  QRectF r = symbol_->bounds();
  if (symbol_->hasRod) r.setRight(r.right() + symbol_->travel);
  if (symbol_->hasBody) {
    const double shift = symbol_->square * double(std::max<qsizetype>(1, symbol_->positions.size() - 1));
    r.adjust(-shift - 12, 0, shift + 12, 0);  // with the lit solenoid beside the squares
  }
  return mapRectToScene(xf_.mapRect(r).adjusted(-3, -3, 3, 3)) | sceneBoundingRect();
}

QPointF ComponentItem::portScenePos(const QString& port) const {
  const SymbolPort* sp = symbol_->port(port);
  if (!sp) return pos();
  return pos() + xf_.map(sp->pos);
}

QPointF ComponentItem::portSceneDir(const QString& port) const {
  const SymbolPort* sp = symbol_->port(port);
  if (!sp) return {0, 1};
  const QPointF d = xf_.map(sp->dir) - xf_.map(QPointF(0, 0));
  return {std::round(d.x()), std::round(d.y())};
}

void ComponentItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  const RunFrame& f = scene_->frame();
  const QRectF body = xf_.mapRect(symbol_->bounds());
  if (isSelected()) {
    p->setPen(QPen(kSelect, 0.5, Qt::DashLine));
    p->setBrush(QColor(0, 120, 215, 28));
    p->drawRoundedRect(body.adjusted(-2, -2, 2, 2), 1.5, 1.5);
  }
  if (f.active && f.lit.count(id_)) {
    p->setPen(Qt::NoPen);
    p->setBrush(QColor(kLit.red(), kLit.green(), kLit.blue(), 90));
    p->drawRoundedRect(body.adjusted(-1.5, -1.5, 1.5, 1.5), 2, 2);
  }
  p->save();
  p->setTransform(xf_, true);
  double spool = 0.0, rod = 0.0;
  if (f.active) {
    if (auto it = f.spool.find(id_); it != f.spool.end()) spool = it->second;
    if (auto it = f.rod.find(id_); it != f.rod.end()) rod = it->second;
  }
  paintSymbol(p, spool, rod);
  // Energised solenoids: the actuator at that end of the valve body lights
  // up (it moves with the body).
  if (f.active) {
    if (auto it = f.litInputs.find(id_); it != f.litInputs.end())
      for (const std::string& in : it->second) {
        const bool left = in.find("12") == std::string::npos;
        const QRectF body = symbol_->bodyRect.isValid() ? symbol_->bodyRect : symbol_->bounds();
        const double l = symbol_->squaresLeft, rgt = l + symbol_->positions.size() * symbol_->square;
        QRectF r = !symbol_->isValve() ? (left ? QRectF(0, 0, 8, body.height()) : QRectF(body.right() - 8, 0, 8, body.height()))
                   : left             ? QRectF(l - 12, body.top(), 12, body.height())
                                      : QRectF(rgt, body.top(), 12, body.height());
        r.translate(spool * symbol_->square, 0);
        p->setPen(Qt::NoPen);
        p->setBrush(QColor(kLit.red(), kLit.green(), kLit.blue(), 150));
        p->drawRoundedRect(r, 1.5, 1.5);
      }
  }
  p->restore();
  // Port numbers (ISO 5599-3) beside the valve's ports.
  if (showPortNumbers_) {
    for (const SymbolPort& sp : symbol_->ports) {
      if (sp.kind == PortKind::Signal || sp.kind == PortKind::Mechanical) continue;
      const QPointF at = xf_.map(sp.pos);
      const QPointF d = xf_.map(sp.dir) - xf_.map(QPointF(0, 0));
      const QRectF tr = textRect(sp.name, kPortHeight, false, QPointF());
      QPointF tl;
      if (std::abs(d.y()) > 0.5)  // vertical stub: number to its right, just inside
        tl = QPointF(at.x() + 1.0, at.y() - d.y() * 1.0 - (d.y() > 0 ? tr.height() : 0));
      else  // horizontal stub: number above it
        tl = QPointF(at.x() - d.x() * 1.0 - (d.x() > 0 ? tr.width() : 0), at.y() - tr.height() - 0.3);
      drawSheetText(p, tl, sp.name, kPortHeight, false, QColor(70, 70, 70));
    }
  }
  const QColor textColor = isSelected() ? kSelect : kInk;
  drawSheetText(p, codePos_, code_, kCodeHeight, true, textColor);
  if (!data_.isEmpty())
    drawSheetText(p, dataPos_, data_, kDataHeight, false, QColor(70, 70, 70));
  // Port hints on a selected symbol.
  if (isSelected()) {
    p->setPen(QPen(kSelect, 0.4));
    p->setBrush(Qt::white);
    for (const SymbolPort& sp : symbol_->ports) p->drawEllipse(xf_.map(sp.pos), 1.2, 1.2);
  }
}

void ComponentItem::paintSymbol(QPainter* p, double spool, double rod) const {
  if (!grown_) {
    if (symbol_->switchable.isEmpty()) symbol_->paint(p, spool, rod);
    else symbol_->paint(p, spool, rod, shownParts_);
    return;
  }
  // A block grown for its data outputs: the outline at the new size, the
  // library drawing at its own size on top without its bottom edge, and each
  // output's name beside its port.
  const QRectF all = grown_->bounds(), own = librarySymbol_->bounds();
  p->setPen(QPen(Qt::black, 1.5));
  p->setBrush(Qt::white);
  p->drawRoundedRect(all.adjusted(0.75, 0.75, -0.75, -0.75), 2, 2);
  p->save();
  p->setClipRect(QRectF(0, 0, own.width() - (all.width() > own.width() ? 2.0 : -1.0),
                        own.height() - (all.height() > own.height() ? 2.0 : -1.0)));
  librarySymbol_->paint(p, spool, rod);
  p->restore();
  for (const QString& name : dataPorts_) {
    const SymbolPort* sp = grown_->port(name);
    const QRectF tr = textRect(name, kDataPortHeight, false, QPointF());
    const QPointF tl(sp->pos.x() - tr.width() - 2.0, sp->pos.y() - tr.height() / 2);
    drawSheetText(p, tl, name, kDataPortHeight, false, kInk);
  }
}

QVariant ComponentItem::itemChange(GraphicsItemChange change, const QVariant& value) {
  if (change == ItemPositionChange) {
    const QPointF p = value.toPointF();
    return QPointF(snapToGrid(p.x()), snapToGrid(p.y()));
  }
  if (change == ItemPositionHasChanged) scene_->componentMoved(id_);
  return QGraphicsItem::itemChange(change, value);
}

// ---------------------------------------------------------------- WireItem

WireItem::WireItem(SchematicScene* scene, const std::string& id) : scene_(scene), id_(id) {
  setFlags(ItemIsSelectable);
  setZValue(0);
}

void WireItem::setRoute(const QPolygonF& points, bool pilot) {
  if (points == route_ && pilot == pilot_) return;
  prepareGeometryChange();
  route_ = points;
  routeBounds_ = route_.boundingRect();
  pilot_ = pilot;
}

QRectF WireItem::boundingRect() const { return routeBounds_.adjusted(-2, -2, 2, 2); }

QPainterPath WireItem::shape() const {
  QPainterPath path;
  path.addPolygon(route_);
  QPainterPathStroker s;
  s.setWidth(2.5);
  return s.createStroke(path);
}

int WireItem::segmentAt(const QPointF& p, double tol) const {
  for (int i = 0; i + 1 < route_.size(); ++i) {
    const QPointF a = route_[i], b = route_[i + 1];
    const QRectF box = QRectF(a, b).normalized().adjusted(-tol, -tol, tol, tol);
    if (box.contains(p)) return i;
  }
  return -1;
}

void WireItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  const RunFrame& f = scene_->frame();
  QColor c = kInk;
  double width = 0.9;
  if (f.active) {
    if (auto it = f.lineColor.find(id_); it != f.lineColor.end()) c = it->second, width = 1.8;
  }
  if (isSelected()) {
    p->setPen(QPen(QColor(0, 120, 215, 70), width + 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p->drawPolyline(route_);
  }
  QPen pen(isSelected() && !f.active ? kSelect : c, width, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin);
  if (pilot_) pen.setDashPattern({4.0, 2.5});
  p->setPen(pen);
  p->setBrush(Qt::NoBrush);
  p->drawPolyline(route_);
}

// ---------------------------------------------------------------- SignalItem

namespace {
constexpr double kTagHeight = 5.0;
QRectF tagRect(const SignalItem::Tag& t) {
  const QRectF r = textRect(t.text, kTagHeight, false, QPointF());
  return QRectF(t.leftSide ? t.at.x() - r.width() - 2 : t.at.x() + 2, t.at.y() - r.height() - 0.5, r.width(), r.height());
}
}  // namespace

void SignalItem::setLines(std::vector<QPolygonF> lines, std::vector<Ref> refs, std::vector<Tag> tags) {
  prepareGeometryChange();
  lines_ = std::move(lines);
  refs_ = std::move(refs);
  tags_ = std::move(tags);
  if (picked_ && std::find(refs_.begin(), refs_.end(), *picked_) == refs_.end()) picked_.reset();
  bounds_ = QRectF();
  for (const QPolygonF& l : lines_) bounds_ |= l.boundingRect().adjusted(-1, -1, 1, 1);
  for (const Tag& t : tags_) bounds_ |= tagRect(t);
}

int SignalItem::lineAt(const QPointF& p, double tol) const {
  for (size_t k = 0; k < lines_.size(); ++k)
    for (int i = 0; i + 1 < lines_[k].size(); ++i)
      if (QRectF(lines_[k][i], lines_[k][i + 1]).normalized().adjusted(-tol, -tol, tol, tol).contains(p)) return int(k);
  return -1;
}

void SignalItem::setPicked(std::optional<Ref> r) {
  if (r == picked_) return;
  picked_ = std::move(r);
  update();
}

void SignalItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  if (picked_)
    for (size_t k = 0; k < lines_.size() && k < refs_.size(); ++k)
      if (refs_[k] == *picked_) {
        p->setPen(QPen(QColor(0, 120, 215, 90), 2.6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p->drawPolyline(lines_[k]);
      }
  QPen pen(QColor(90, 90, 90), 0.6);
  pen.setDashPattern({6.0, 4.0});
  p->setPen(pen);
  for (const QPolygonF& l : lines_) p->drawPolyline(l);
  // During a run, the lines of a source that is on (switch closed, timer out).
  const RunFrame& f = static_cast<const SchematicScene*>(scene())->frame();
  if (f.active) {
    QPen on(kLit, 0.9);
    on.setDashPattern({4.0, 2.7});
    p->setPen(on);
    for (size_t k = 0; k < lines_.size() && k < refs_.size(); ++k)
      if (f.lit.count(refs_[k].source)) p->drawPolyline(lines_[k]);
  }
  // Arrowheads where the signal enters its input.
  p->setPen(Qt::NoPen);
  p->setBrush(QColor(90, 90, 90));
  for (const QPolygonF& l : lines_) {
    if (l.size() < 2) continue;
    const QPointF tip = l.back();
    QPointF d = tip - l[l.size() - 2];
    const double len = std::hypot(d.x(), d.y());
    if (len < 1e-9) continue;
    d /= len;
    const QPointF n(-d.y(), d.x());
    p->drawPolygon(QPolygonF{tip, tip - d * 3.0 + n * 1.2, tip - d * 3.0 - n * 1.2});
  }
  // Tags on a paper-coloured ground, readable where a line passes behind.
  p->setPen(Qt::NoPen);
  p->setBrush(QColor(252, 252, 250, 230));
  for (const Tag& t : tags_) p->drawRect(tagRect(t).adjusted(-0.4, 0.3, 0.4, -0.3));
  for (const Tag& t : tags_) drawSheetText(p, tagRect(t).topLeft(), t.text, kTagHeight, false, QColor(0, 90, 160));
}

// ---------------------------------------------------------------- JunctionItem

void JunctionItem::setDots(std::vector<QPointF> dots) {
  prepareGeometryChange();
  dots_ = std::move(dots);
  bounds_ = QRectF();
  for (const QPointF& d : dots_) bounds_ |= QRectF(d - QPointF(2, 2), QSizeF(4, 4));
}

void JunctionItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  p->setPen(Qt::NoPen);
  p->setBrush(kInk);
  for (const QPointF& d : dots_) p->drawEllipse(d, 2.0, 2.0);
}

}  // namespace pm::gui
