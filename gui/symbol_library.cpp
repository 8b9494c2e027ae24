#include "symbol_library.h"

#include "model/component_type.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QSvgRenderer>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

namespace pm::gui {

namespace {

QString findSymbolDir() {
  const QString app = QCoreApplication::applicationDirPath();
  const QStringList candidates = {
      qEnvironmentVariable("PM_SYMBOLS_DIR"),
      app + "/../share/pneumech/symbols",
      app + "/../../share/pneumech/symbols",
#ifdef PM_SYMBOLS_SOURCE_DIR
      QStringLiteral(PM_SYMBOLS_SOURCE_DIR),
#endif
  };
  for (const QString& c : candidates)
    if (!c.isEmpty() && QFileInfo(c).isDir()) return QDir(c).absolutePath();
#ifdef PM_SYMBOLS_SOURCE_DIR
  return QStringLiteral(PM_SYMBOLS_SOURCE_DIR);
#else
  return app + "/../share/pneumech/symbols";
#endif
}

QPointF dirVector(const QString& d) {
  if (d == "up") return {0, -1};
  if (d == "down") return {0, 1};
  if (d == "left") return {-1, 0};
  return {1, 0};
}

PortKind kindOf(const QString& k) {
  if (k == "pilot") return PortKind::Pilot;
  if (k == "signal") return PortKind::Signal;
  if (k == "mechanical") return PortKind::Mechanical;
  return PortKind::Pneumatic;
}

// The SVG without the elements whose ids are in `drop` (the moving groups),
// so the fixed part and the moving parts can be drawn separately.
QByteArray withoutElements(const QByteArray& svg, const QStringList& drop) {
  QByteArray out;
  QXmlStreamReader r(svg);
  QXmlStreamWriter w(&out);
  int skipDepth = 0;
  while (!r.atEnd()) {
    r.readNext();
    if (skipDepth > 0) {
      if (r.isStartElement()) ++skipDepth;
      if (r.isEndElement()) --skipDepth;
      continue;
    }
    if (r.isStartElement() && drop.contains(r.attributes().value("id").toString())) {
      skipDepth = 1;
      continue;
    }
    if (!r.isDTD()) w.writeCurrentToken(r);
  }
  return r.hasError() ? svg : out;
}

}  // namespace

QPointF Symbol::pivot() const {
  if (fixedPivot) return *fixedPivot;
  return {std::round(size.width() / 2 / kGrid) * kGrid, std::round(size.height() / 2 / kGrid) * kGrid};
}

const SymbolPort* Symbol::port(const QString& name) const {
  for (const SymbolPort& p : ports)
    if (p.name == name) return &p;
  return nullptr;
}

void Symbol::paint(QPainter* p, double spoolSquares, double rodFraction) const {
  if (!svg) {
    // Fallback: a plain rectangle with the type name.
    p->setPen(QPen(Qt::black, 0.6));
    p->setBrush(Qt::white);
    p->drawRect(bounds());
    QFont f = p->font();
    f.setPointSizeF(3.5);
    p->setFont(f);
    p->drawText(bounds().adjusted(1, 1, -1, -1), Qt::AlignCenter | Qt::TextWordWrap,
                QString(type).replace('_', ' '));
    return;
  }
  paintWith(p, {svg, fixedSvg}, spoolSquares, rodFraction);
}

void Symbol::paint(QPainter* p, double spoolSquares, double rodFraction, const QStringList& shown) const {
  if (!svg || switchable.isEmpty()) return paint(p, spoolSquares, rodFraction);
  QStringList hidden;
  for (const QString& id : switchable)
    if (!shown.contains(id)) hidden << id;
  const QString key = hidden.join(',');
  auto it = variants_.find(key);
  if (it == variants_.end()) {
    QStringList moving;
    if (hasBody) moving << "body";
    if (hasRod) moving << "rod";
    Renderers r;
    r.svg = std::make_shared<QSvgRenderer>(withoutElements(svgText, hidden));
    if (!moving.isEmpty()) r.fixedSvg = std::make_shared<QSvgRenderer>(withoutElements(svgText, hidden + moving));
    if (!r.svg->isValid()) r = {svg, fixedSvg};
    if (r.fixedSvg && !r.fixedSvg->isValid()) r.fixedSvg.reset();
    it = variants_.emplace(key, r).first;
  }
  paintWith(p, it->second, spoolSquares, rodFraction);
}

void Symbol::paintWith(QPainter* p, const Renderers& r, double spoolSquares, double rodFraction) const {
  if (!r.fixedSvg) {
    r.svg->render(p, bounds());
    return;
  }
  const QRectF vb = r.svg->viewBoxF();
  const double sx = vb.width() > 0 ? size.width() / vb.width() : 1.0;
  const double sy = vb.height() > 0 ? size.height() / vb.height() : 1.0;
  auto toSymbol = [&](const QRectF& b) {
    return QRectF((b.x() - vb.x()) * sx, (b.y() - vb.y()) * sy, b.width() * sx, b.height() * sy);
  };
  r.fixedSvg->render(p, bounds());  // everything but the moving groups
  auto moving = [&](const char* id, double dx) {
    p->save();
    p->translate(dx, 0);
    r.svg->render(p, id, toSymbol(r.svg->boundsOnElement(id)));
    p->restore();
  };
  if (hasBody) moving("body", spoolSquares * square);
  if (hasRod) moving("rod", rodFraction * travel);
}

// A user component's own SVG (core/user read it, from its file or the
// project, and checked that it marks each port with an element
// id="port-<name>"): a port sits at its element's centre, facing out
// through the nearest edge of the drawing.
static std::optional<Symbol> userSymbol(const std::string& type) {
  const ComponentType* t = Registry::instance().find(type);
  if (!t || t->origin.empty() || t->symbol_svg.empty()) return std::nullopt;
  const QByteArray text = QByteArray::fromStdString(t->symbol_svg);
  auto r = std::make_shared<QSvgRenderer>(text);
  if (!r->isValid()) return std::nullopt;
  Symbol s;
  s.type = QString::fromStdString(type);
  const QRectF vb = r->viewBoxF();
  s.size = vb.size();
  s.label = QPointF(s.size.width() + 4, 0);
  s.svgText = text;
  s.svg = r;
  s.hasText = text.contains("<text");
  if (const qsizetype a = text.indexOf("<title>"), b = text.indexOf("</title>"); a >= 0 && b > a)
    s.title = QString::fromUtf8(text.mid(a + 7, b - a - 7)).trimmed();
  const auto add = [&](const std::string& name, PortKind kind) {
    const QString id = "port-" + QString::fromStdString(name);
    if (!r->elementExists(id)) return;
    const QPointF c = r->boundsOnElement(id).center() - vb.topLeft();
    const double w = s.size.width(), h = s.size.height();
    const double d[4] = {c.x(), w - c.x(), c.y(), h - c.y()};  // left, right, top, bottom
    const QPointF dirs[4] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    const int k = static_cast<int>(std::min_element(d, d + 4) - d);
    s.ports.push_back({QString::fromStdString(name), c, dirs[k], kind});
  };
  for (const PortDecl& p : t->ports) add(p.name, p.domain == Domain::Signal ? PortKind::Signal : PortKind::Pneumatic);
  for (const InputDecl& in : t->inputs) add(in.name, PortKind::Signal);
  return s;
}

SymbolLibrary& SymbolLibrary::instance() {
  static SymbolLibrary lib;
  return lib;
}

SymbolLibrary::SymbolLibrary() : dir_(findSymbolDir()) {}

void SymbolLibrary::reload() {
  cache_.clear();
  dir_ = findSymbolDir();
}

// What a user type's symbol is drawn from: its own SVG, else the generated
// box of its ports and inputs; "" for a built-in type (its files) or none.
static std::string userKey(const std::string& type) {
  const ComponentType* t = Registry::instance().find(type);
  if (!t || t->origin.empty()) return {};
  std::string key = t->origin + '\n' + t->category + '\n' + std::to_string(std::hash<std::string>{}(t->symbol_svg));
  for (const PortDecl& p : t->ports) key += '\n' + p.name + ':' + std::to_string(int(p.domain));
  for (const InputDecl& in : t->inputs) key += '\n' + in.name;
  return key;
}

const Symbol& SymbolLibrary::symbol(const std::string& type) {
  auto it = cache_.find(type);
  if (it != cache_.end()) {
    const auto k = userKeys_.find(type);
    if (userKey(type) != (k == userKeys_.end() ? std::string() : k->second)) {
      retired_.push_back(std::move(it->second));
      cache_.erase(it);
      it = cache_.end();
    }
  }
  if (it == cache_.end()) {
    it = cache_.emplace(type, std::make_unique<Symbol>(load(type))).first;
    if (std::string key = userKey(type); key.empty())
      userKeys_.erase(type);
    else
      userKeys_[type] = std::move(key);
  }
  return *it->second;
}

Symbol SymbolLibrary::load(const std::string& type) const {
  if (std::optional<Symbol> own = userSymbol(type)) return *own;
  const QString base = dir_ + "/" + QString::fromStdString(type);
  QFile jf(base + ".json");
  QFile sf(base + ".svg");
  if (!jf.open(QIODevice::ReadOnly) || !sf.open(QIODevice::ReadOnly)) return fallback(type);
  QJsonParseError err;
  const QJsonDocument doc = QJsonDocument::fromJson(jf.readAll(), &err);
  if (err.error != QJsonParseError::NoError || !doc.isObject()) {
    qWarning("symbol %s.json: %s", type.c_str(), qPrintable(err.errorString()));
    return fallback(type);
  }
  const QJsonObject o = doc.object();
  Symbol s;
  s.type = QString::fromStdString(type);
  const QJsonArray size = o.value("size").toArray();
  if (size.size() == 2) s.size = QSizeF(size[0].toDouble(), size[1].toDouble());
  for (const QJsonValue& v : o.value("ports").toArray()) {
    const QJsonObject po = v.toObject();
    s.ports.push_back({po.value("name").toString(), QPointF(po.value("x").toDouble(), po.value("y").toDouble()),
                       dirVector(po.value("dir").toString()), kindOf(po.value("kind").toString())});
  }
  for (const QJsonValue& v : o.value("keywords").toArray()) s.keywords << v.toString();
  const QJsonArray label = o.value("label").toArray();
  if (label.size() == 2) s.label = QPointF(label[0].toDouble(), label[1].toDouble());
  else s.label = QPointF(s.size.width() + 4, 0);
  const QJsonObject valve = o.value("valve").toObject();
  if (!valve.isEmpty()) {
    s.square = valve.value("square").toDouble();
    for (const QJsonValue& v : valve.value("positions").toArray()) s.positions << v.toString();
    s.rest = valve.value("rest").toInt();
  }
  const QJsonObject rod = o.value("rod").toObject();
  if (!rod.isEmpty()) s.travel = rod.value("travel").toDouble();

  const QByteArray original = sf.readAll();
  s.svgText = original;
  if (const qsizetype a = original.indexOf("<title>"), b = original.indexOf("</title>"); a >= 0 && b > a)
    s.title = QString::fromUtf8(original.mid(a + 7, b - a - 7)).trimmed();
  for (const char* id : {"solenoid14", "stub14", "button14", "lever14", "pilot14", "spring14", "solenoid12", "stub12",
                         "pilot12", "spring12", "exhaust3", "exhaust5"})
    if (original.contains(QByteArray("id=\"") + id + '"')) s.switchable << id;
  QStringList alternates;  // hidden unless a component asks for them
  for (const QString& id : s.switchable)
    if (id == "button14" || id == "lever14") alternates << id;
  const QByteArray svgText = alternates.isEmpty() ? original : withoutElements(original, alternates);
  auto full = std::make_shared<QSvgRenderer>(svgText);
  if (!full->isValid()) {
    qWarning("symbol %s.svg is not a valid SVG", type.c_str());
    return fallback(type);
  }
  s.hasText = original.contains("<text");
  s.hasBody = s.isValve() && full->elementExists("body");
  s.hasPorts = full->elementExists("ports");
  s.hasRod = s.travel > 0 && full->elementExists("rod");
  QStringList moving;
  if (s.hasBody) moving << "body";
  if (s.hasRod) moving << "rod";
  s.svg = full;
  if (s.hasBody) {
    const QRectF vb = full->viewBoxF();
    const double sx = vb.width() > 0 ? s.size.width() / vb.width() : 1.0;
    const double sy = vb.height() > 0 ? s.size.height() / vb.height() : 1.0;
    const QRectF r = full->boundsOnElement("body");
    s.bodyRect = QRectF((r.x() - vb.x()) * sx, (r.y() - vb.y()) * sy, r.width() * sx, r.height() * sy);
  }
  if (s.isValve()) {
    // The working ports sit on the rest square, centred: its centre is their mean.
    double sum = 0.0;
    int n = 0;
    for (const SymbolPort& p : s.ports)
      if (p.kind == PortKind::Pneumatic) sum += p.pos.x(), ++n;
    const double centre = n ? sum / n : s.size.width() / 2;
    s.squaresLeft = centre - s.square / 2 - s.rest * s.square;
  }
  if (!moving.isEmpty()) {
    s.fixedSvg = std::make_shared<QSvgRenderer>(withoutElements(svgText, moving));
    if (!s.fixedSvg->isValid()) s.fixedSvg.reset();
  }
  return s;
}

Symbol SymbolLibrary::fallback(const std::string& type) const {
  Symbol s;
  s.type = QString::fromStdString(type);
  const ComponentType* t = Registry::instance().find(type);
  std::vector<const PortDecl*> bottom, top, left, right;
  if (t) {
    const bool cylinder = t->category == "Actuators";
    for (const PortDecl& p : t->ports) {
      if (p.domain == Domain::Mechanical) continue;
      if (p.domain == Domain::Signal) right.push_back(&p);
      else if (p.name == "12") right.push_back(&p);
      else if (p.name == "14") left.push_back(&p);
      else if (cylinder || p.name == "1" || p.name == "3" || p.name == "5") bottom.push_back(&p);
      else if (p.name == "2" || p.name == "4") top.push_back(&p);
      else (bottom.size() <= top.size() ? bottom : top).push_back(&p);
    }
  }
  const size_t across = std::max<size_t>(std::max(bottom.size(), top.size()), 1);
  const size_t along = std::max<size_t>(std::max(left.size(), right.size()), 1);
  s.size = QSizeF(std::max(40.0, kGrid * 2 * double(across)), std::max(20.0, kGrid * 2 * double(along)));
  auto spread = [&](const std::vector<const PortDecl*>& ports, bool horizontal, double fixed, QPointF dir) {
    const double len = horizontal ? s.size.width() : s.size.height();
    const double step = std::floor(len / kGrid / double(ports.size() + 1)) * kGrid;
    for (size_t i = 0; i < ports.size(); ++i) {
      const double a = step * double(i + 1);
      const QPointF pos = horizontal ? QPointF(a, fixed) : QPointF(fixed, a);
      const PortKind kind = ports[i]->domain == Domain::Signal ? PortKind::Signal
                            : (ports[i]->name == "12" || ports[i]->name == "14") ? PortKind::Pilot
                                                                                 : PortKind::Pneumatic;
      s.ports.push_back({QString::fromStdString(ports[i]->name), pos, dir, kind});
    }
  };
  spread(bottom, true, s.size.height(), {0, 1});
  spread(top, true, 0, {0, -1});
  spread(left, false, 0, {-1, 0});
  spread(right, false, s.size.width(), {1, 0});
  s.label = QPointF(s.size.width() + 4, 0);
  return s;
}

}  // namespace pm::gui
