// Symbols and components agree: every registered component type has an
// ISO 1219-1 symbol in icons/symbols/ (<type>.svg + <type>.json, format in
// icons/symbols/README.md), its port table names exactly the type's
// pneumatic ports plus signal ports for every signal input (and the main
// output "out") that are declared inputs or channels of the type, every port
// sits on the symbol outline and on the 10-unit grid, and the SVG renders
// with QSvgRenderer (the canvas' renderer).
//
// With PM_SYMBOLS_SHEET=<file.png> set, also writes a contact sheet of all
// symbols with their ports marked, for looking at them.
#include "model/component_type.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <fstream>
#include <set>
#include <string>

using nlohmann::json;

namespace {

QString symbolDir() {
  const QByteArray s = qgetenv("PM_SOURCE_DIR");
  return (s.isEmpty() ? QStringLiteral(PM_SOURCE_DIR) : QString::fromLocal8Bit(s)) + "/icons/symbols";
}

json readJson(const QString& path) {
  std::ifstream in(path.toStdString());
  return json::parse(in, nullptr, /*allow_exceptions=*/false);
}

bool onGrid(double v) { return std::abs(v / 10.0 - std::round(v / 10.0)) < 1e-9; }

bool isCylinder(const pm::ComponentType& t) { return t.name.rfind("cylinder_", 0) == 0; }
bool isDirectionalValve(const pm::ComponentType& t) { return t.category == "Directional valves"; }

std::set<std::string> pneumaticPorts(const pm::ComponentType& t) {
  std::set<std::string> names;
  for (const pm::PortDecl& p : t.ports)
    if (p.domain == pm::Domain::Pneumatic) names.insert(p.name);
  return names;
}

std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (const auto& n : s) out += (out.empty() ? "" : ",") + n;
  return out;
}

// The SVG text without the group `id` (nested groups included).
QString withoutGroup(QString text, const QString& id) {
  const qsizetype start = text.indexOf("<g id=\"" + id + "\"");
  if (start < 0) return text;
  qsizetype at = start + 1, depth = 1;
  while (depth > 0) {
    const qsizetype open = text.indexOf("<g", at), close = text.indexOf("</g>", at);
    if (close < 0) return text;
    if (open >= 0 && open < close) ++depth, at = open + 2;
    else --depth, at = close + 4;
  }
  return text.remove(start, at - start);
}

// The drawing as the canvas shows a component with default parameters: the
// hand actuators of a valve (alternates of its solenoid) left out.
QByteArray defaultDrawing(const QString& svgPath) {
  QFile f(svgPath);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return withoutGroup(withoutGroup(QString::fromUtf8(f.readAll()), "button14"), "lever14").toUtf8();
}

// The symbol rendered at `scale` pixels per unit on white.
QImage render(QSvgRenderer& svg, double w, double h, double scale) {
  QImage img(int(std::ceil(w * scale)), int(std::ceil(h * scale)), QImage::Format_ARGB32);
  img.fill(Qt::white);
  QPainter p(&img);
  p.setRenderHint(QPainter::Antialiasing);
  svg.render(&p, QRectF(0, 0, w * scale, h * scale));
  return img;
}

bool dark(QRgb c) { return qGray(c) < 160; }

// Some ink within `r` pixels of (x, y).
bool inkNear(const QImage& img, int x, int y, int r) {
  for (int j = std::max(0, y - r); j <= std::min(img.height() - 1, y + r); ++j)
    for (int i = std::max(0, x - r); i <= std::min(img.width() - 1, x + r); ++i)
      if (dark(img.pixel(i, j))) return true;
  return false;
}

// ---------------------------------------------------------------- contact sheet

constexpr double kSheetScale = 4.0, kCellW = 220 * kSheetScale, kCellH = 110 * kSheetScale;

QImage symbolPage(const std::vector<const pm::ComponentType*>& types) {
  const int cols = 3;
  QImage sheet(int(cols * kCellW), int(2 * kCellH), QImage::Format_ARGB32);
  sheet.fill(Qt::white);
  QPainter p(&sheet);
  p.setRenderHint(QPainter::Antialiasing);
  QFont font = p.font();
  font.setPixelSize(28);
  p.setFont(font);
  for (size_t k = 0; k < types.size(); ++k) {
    const QString type = QString::fromStdString(types[k]->name);
    const json j = readJson(symbolDir() + "/" + type + ".json");
    QSvgRenderer svg(defaultDrawing(symbolDir() + "/" + type + ".svg"));
    const QPointF o(double(k % cols) * kCellW + 40 * kSheetScale, double(k / cols) * kCellH + 25 * kSheetScale);
    p.setPen(Qt::darkGray);
    p.drawText(o - QPointF(35, 17) * kSheetScale, type);
    if (!j.is_object() || !svg.isValid()) continue;
    const QRectF frame(o, QSizeF(j["size"][0].get<double>(), j["size"][1].get<double>()) * kSheetScale);
    p.setPen(QPen(QColor(220, 220, 255), 0));
    p.drawRect(frame);
    svg.render(&p, frame);
    p.setPen(QPen(Qt::red, 2));
    for (const json& port : j["ports"])
      p.drawEllipse(o + QPointF(port["x"].get<double>(), port["y"].get<double>()) * kSheetScale, 6, 6);
    p.setPen(Qt::blue);
    const QPointF label = o + QPointF(j["label"][0].get<double>(), j["label"][1].get<double>()) * kSheetScale;
    p.drawText(QRectF(label, QSizeF(200, 40)), Qt::AlignLeft | Qt::AlignTop, "1V1");
  }
  return sheet;
}

// Valves: the fixed ports, then the body shifted by (rest - active) squares.
// Cylinders: the SVG without the rod group, then the rod at 0 and full travel.
QImage movingPage(const std::vector<const pm::ComponentType*>& types) {
  struct Row {
    std::string type;
    json j;
  };
  std::vector<Row> rows;
  for (const pm::ComponentType* t : types)
    if (isDirectionalValve(*t) || isCylinder(*t))
      rows.push_back({t->name, readJson(symbolDir() + "/" + QString::fromStdString(t->name) + ".json")});
  const double rowH = 75 * kSheetScale;
  QImage sheet(int(3 * kCellW), int(double(rows.size()) * rowH), QImage::Format_ARGB32);
  sheet.fill(Qt::white);
  QPainter p(&sheet);
  p.setRenderHint(QPainter::Antialiasing);
  for (size_t r = 0; r < rows.size(); ++r) {
    const json& j = rows[r].j;
    const QByteArray text = defaultDrawing(symbolDir() + "/" + QString::fromStdString(rows[r].type) + ".svg");
    if (!j.is_object() || text.isEmpty()) continue;
    QSvgRenderer full(text);
    const bool valve = j.contains("valve");
    const QString moving = valve ? "body" : "rod";
    QSvgRenderer fixed(withoutGroup(QString::fromUtf8(text), moving).toUtf8());
    const int states = valve ? int(j["valve"]["positions"].size()) : 2;
    for (int k = 0; k < states; ++k) {
      const double dx = valve ? (j["valve"]["rest"].get<int>() - k) * j["valve"]["square"].get<double>()
                              : k * j["rod"]["travel"].get<double>();
      p.save();
      p.translate(double(k) * kCellW + 50 * kSheetScale, double(r) * rowH + 10 * kSheetScale);
      p.scale(kSheetScale, kSheetScale);
      fixed.render(&p, fixed.viewBoxF());
      p.translate(dx, 0);
      full.render(&p, moving, full.boundsOnElement(moving));
      p.restore();
    }
  }
  return sheet;
}

}  // namespace

class TestSymbols : public QObject {
  Q_OBJECT
 private slots:
  void symbol_data() {
    QTest::addColumn<QString>("type");
    for (const pm::ComponentType* t : pm::Registry::instance().all())
      QTest::newRow(t->name.c_str()) << QString::fromStdString(t->name);
  }

  void symbol() {
    QFETCH(QString, type);
    const pm::ComponentType& t = *pm::Registry::instance().find(type.toStdString());
    const QString base = symbolDir() + "/" + type;
    QVERIFY2(QFileInfo::exists(base + ".json"), qPrintable(base + ".json missing"));
    QVERIFY2(QFileInfo::exists(base + ".svg"), qPrintable(base + ".svg missing"));

    // Port table.
    const json j = readJson(base + ".json");
    QVERIFY2(j.is_object(), "the .json does not parse as an object");
    QCOMPARE(j.value("type", std::string()), t.name);
    QVERIFY(j.contains("size") && j["size"].is_array() && j["size"].size() == 2);
    const double w = j["size"][0].get<double>(), h = j["size"][1].get<double>();
    QVERIFY2(w > 0 && h > 0 && onGrid(w) && onGrid(h), "size must be positive multiples of 10");
    QVERIFY(j.contains("label") && j["label"].is_array() && j["label"].size() == 2);
    QVERIFY(j.contains("ports") && j["ports"].is_array());

    std::set<std::string> names, signalPorts;
    for (const json& p : j["ports"]) {
      const std::string name = p.value("name", std::string());
      const std::string where = t.name + " port " + name + ": ";
      QVERIFY2(names.insert(name).second, (where + "listed twice").c_str());
      const double x = p.value("x", -1.0), y = p.value("y", -1.0);
      QVERIFY2(onGrid(x) && onGrid(y), (where + "not on the 10-unit grid").c_str());
      const std::string dir = p.value("dir", std::string());
      const bool ok = (dir == "left" && x == 0 && y >= 0 && y <= h) || (dir == "right" && x == w && y >= 0 && y <= h) ||
                      (dir == "up" && y == 0 && x >= 0 && x <= w) || (dir == "down" && y == h && x >= 0 && x <= w);
      QVERIFY2(ok, (where + "not on the outline edge its dir '" + dir + "' points out of").c_str());
      const std::string kind = p.value("kind", std::string());
      QVERIFY2(kind == "pneumatic" || kind == "pilot" || kind == "signal", (where + "unknown kind").c_str());
      if (kind == "signal") {
        signalPorts.insert(name);
        // A signal port is an input the type reads (the canvas takes it as
        // the input where a name is both, like the proportional valve's u)
        // or a channel it writes.
        const bool input = t.input(name) != nullptr;
        const bool channel = std::any_of(t.channels.begin(), t.channels.end(),
                                         [&](const pm::ChannelDecl& c) { return c.quantity == name; });
        QVERIFY2(input || channel, (where + "is neither a declared input nor a channel of the type").c_str());
      }
    }
    std::set<std::string> lineNames;
    std::set_difference(names.begin(), names.end(), signalPorts.begin(), signalPorts.end(),
                        std::inserter(lineNames, lineNames.end()));
    const std::set<std::string> expected = pneumaticPorts(t);
    QVERIFY2(lineNames == expected,
             (t.name + ": symbol ports {" + joined(lineNames) + "}, type ports {" + joined(expected) + "}").c_str());
    // Every signal input has its point on the symbol (where a signal line
    // ends), and so has the main output "out" where the type has one.
    std::set<std::string> inputs;
    for (const pm::InputDecl& in : t.inputs) inputs.insert(in.name);
    for (const std::string& in : inputs)
      QVERIFY2(signalPorts.count(in), (t.name + ": signal input " + in + " has no port").c_str());
    for (const pm::ChannelDecl& c : t.channels)
      if (c.quantity == "out") QVERIFY2(signalPorts.count("out"), (t.name + ": output out has no port").c_str());

    // Drawing.
    QSvgRenderer svg(base + ".svg");
    QVERIFY2(svg.isValid(), "QSvgRenderer cannot load the .svg");
    QCOMPARE(svg.viewBoxF(), QRectF(0, 0, w, h));
    QCOMPARE(svg.defaultSize(), QSize(int(w), int(h)));
    const double scale = 4.0;
    const QImage img = render(svg, w, h, scale);
    qsizetype ink = 0;
    for (int y = 0; y < img.height(); ++y)
      for (int x = 0; x < img.width(); ++x) ink += dark(img.pixel(x, y));
    QVERIFY2(ink > 50, "the symbol renders blank");
    for (const json& p : j["ports"]) {
      const int px = std::min(img.width() - 1, int(p["x"].get<double>() * scale));
      const int py = std::min(img.height() - 1, int(p["y"].get<double>() * scale));
      const std::string where = t.name + " port " + p["name"].get<std::string>();
      QVERIFY2(inkNear(img, px, py, 3), (where + ": nothing drawn there").c_str());
    }

    if (isDirectionalValve(t)) {
      QVERIFY2(j.contains("valve"), "directional valve without a \"valve\" table");
      const json& v = j["valve"];
      const double square = v.value("square", 0.0);
      QVERIFY(square > 0 && onGrid(square));
      QVERIFY(v.contains("positions") && v["positions"].is_array());
      const int n = int(v["positions"].size()), rest = v.value("rest", -1);
      QVERIFY(n >= 2 && rest >= 0 && rest < n);
      for (const json& name : v["positions"])
        QVERIFY2(name == "14" || name == "12" || name == "rest" || name == "centre", "unknown position name");
      QVERIFY2(v["positions"][rest] == "rest" || v["positions"][rest] == "centre", "rest index names no rest square");
      for (const json& p : j["ports"])
        if (p["name"] == "12" || p["name"] == "14") QCOMPARE(p.value("kind", std::string()), std::string("pilot"));
      QVERIFY(square * n < w);
      QVERIFY2(svg.elementExists("body"), "valve without <g id=\"body\">");
      QVERIFY2(svg.elementExists("ports"), "valve without <g id=\"ports\">");
      // Hand operation (manual = 1) draws a push-button or, on a detent
      // two-position valve, a lever with detent instead of the solenoid 14;
      // a two-position valve without spring return drops its spring.
      if (t.param("manual")) {
        const QString text = QString::fromUtf8(defaultDrawing(base + ".svg"));
        for (const char* id : {"solenoid14", "button14", "stub14"})
          QVERIFY2(svg.elementExists(id), (t.name + ": no <g id=\"" + id + "\">").c_str());
        if (n == 2)
          for (const char* id : {"lever14", "spring12"})
            QVERIFY2(svg.elementExists(id), (t.name + ": no <g id=\"" + id + "\">").c_str());
        // They are parts of the body (they move with the spool).
        const qsizetype b = text.indexOf("<g id=\"body\""), portsAt = text.indexOf("<g id=\"ports\"");
        const qsizetype sol = text.indexOf("<g id=\"solenoid14\"");
        QVERIFY2(b >= 0 && sol > b && (portsAt < b || sol < portsAt), "solenoid14 outside the body group");
      }
    }
    if (isCylinder(t)) {
      QVERIFY2(j.contains("rod"), "cylinder without a \"rod\" table");
      QCOMPARE(j["rod"].value("axis", std::string()), std::string("x"));
      QVERIFY(j["rod"].value("travel", 0.0) > 0);
      QVERIFY2(svg.elementExists("rod"), "cylinder without <g id=\"rod\">");
    }
  }

  void noStraySymbols() {
    const QDir dir(symbolDir());
    QVERIFY(dir.exists());
    for (const QFileInfo& f : dir.entryInfoList(QDir::Files)) {
      if (f.fileName() == "README.md") continue;
      const QString suffix = f.suffix();
      QVERIFY2(suffix == "svg" || suffix == "json", qPrintable(f.fileName() + ": unexpected file"));
      QVERIFY2(pm::Registry::instance().find(f.completeBaseName().toStdString()),
               qPrintable(f.fileName() + ": no component type of that name"));
    }
  }

  // With PM_SYMBOLS_SHEET=<dir>/<name>.png: <name>-1.png, -2.png, ... show
  // all symbols (ports as red circles, the label anchor as a blue "1V1", the
  // size as a faint frame); <name>-moving.png shows every valve in every
  // position and every cylinder retracted and extended, drawn as the canvas
  // draws them.
  void contactSheet() {
    const QString out = qEnvironmentVariable("PM_SYMBOLS_SHEET");
    if (out.isEmpty()) QSKIP("set PM_SYMBOLS_SHEET=<file.png> to write a contact sheet");
    const auto types = pm::Registry::instance().all();
    const size_t perPage = 6;
    for (size_t first = 0; first < types.size(); first += perPage) {
      const std::vector<const pm::ComponentType*> page(types.begin() + long(first),
                                                       types.begin() + long(std::min(types.size(), first + perPage)));
      QVERIFY(symbolPage(page).save(QString(out).replace(".png", QString("-%1.png").arg(first / perPage + 1))));
    }
    QVERIFY(movingPage(types).save(QString(out).replace(".png", "-moving.png")));
  }
};

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);
  TestSymbols test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_symbols.moc"
