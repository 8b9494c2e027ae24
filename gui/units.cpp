#include "units.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>
#include <vector>

namespace pm::gui::units {

bool isGaugeParam(const std::string& n) {
  return n == "p" || n == "p0" || n == "pA0" || n == "pB0" || n == "p_set";
}

DisplayUnit forUnit(const std::string& u, double siValue, bool gauge) {
  if (u == "Pa") {
    if (gauge) return {"bar(g)", 1e-5, -kGaugeReference};
    return {"bar", 1e-5, 0.0};
  }
  if (u == "m") return {"mm", 1e3, 0.0};
  if (u == "m3") {
    if (std::abs(siValue) > 1e-3) return {"l", 1e3, 0.0};
    return {"cm3", 1e6, 0.0};
  }
  if (u == "m3/(s Pa)") return {"dm3/(s bar)", 1e8, 0.0};
  if (u == "K") return {QStringLiteral("°C"), 1.0, -273.15};
  return {QString::fromStdString(u), 1.0, 0.0};
}

DisplayUnit forParam(const ParamDecl& d, double siValue) {
  return forUnit(d.unit, siValue, d.unit == "Pa" && isGaugeParam(d.name));
}

DisplayUnit forChannel(const std::string& siUnit) { return forUnit(siUnit, 0.0, false); }

std::vector<DisplayUnit> choices(const ParamDecl& d) {
  const std::string& u = d.unit;
  std::vector<DisplayUnit> a;
  if (u == "Pa") {
    if (isGaugeParam(d.name)) a.push_back({"bar(g)", 1e-5, -kGaugeReference});
    a.insert(a.end(), {{"bar", 1e-5, 0.0}, {"kPa", 1e-3, 0.0}, {"MPa", 1e-6, 0.0}, {"Pa", 1.0, 0.0}});
  } else if (u == "m") {
    a = {{"mm", 1e3, 0.0}, {"cm", 1e2, 0.0}, {"m", 1.0, 0.0}};
  } else if (u == "m3") {
    a = {{"cm3", 1e6, 0.0}, {"l", 1e3, 0.0}, {"mm3", 1e9, 0.0}, {"m3", 1.0, 0.0}};
  } else if (u == "m3/(s Pa)") {
    a = {{"dm3/(s bar)", 1e8, 0.0}, {"m3/(s Pa)", 1.0, 0.0}};
  } else if (u == "K") {
    a = {{QStringLiteral("°C"), 1.0, -273.15}, {"K", 1.0, 0.0}};
  } else {
    a = {{QString::fromStdString(u), 1.0, 0.0}};
  }
  return a;
}

QString formatNumber(double v) {
  if (v == 0.0) return QStringLiteral("0");
  return QLocale::c().toString(v, 'g', 6);
}

QString rangeText(const ParamDecl& d, const DisplayUnit& du) {
  auto bound = [&](double si, bool low) -> QString {
    if (si <= -1e299) return QStringLiteral("-inf");
    if (si >= 1e299) return QStringLiteral("inf");
    (void)low;
    return formatNumber(du.toDisplay(si));
  };
  // scale is positive for every display unit, so the order is kept
  return QString("%1%2, %3%4")
      .arg(d.min_open || d.min <= -1e299 ? "(" : "[")
      .arg(bound(d.min, true))
      .arg(bound(d.max, false))
      .arg(d.max_open || d.max >= 1e299 ? ")" : "]");
}

namespace {

// Units the user may type explicitly for a quantity with SI unit `u`.
std::vector<DisplayUnit> alternatives(const std::string& u) {
  std::vector<DisplayUnit> a;
  if (u == "Pa") {
    a = {{"bar(g)", 1e-5, -kGaugeReference}, {"barg", 1e-5, -kGaugeReference},
         {"bar", 1e-5, 0.0}, {"kPa", 1e-3, 0.0}, {"MPa", 1e-6, 0.0}};
  } else if (u == "m") {
    a = {{"mm", 1e3, 0.0}, {"cm", 1e2, 0.0}};
  } else if (u == "m3") {
    a = {{"cm3", 1e6, 0.0}, {"l", 1e3, 0.0}, {"dm3", 1e3, 0.0}, {"mm3", 1e9, 0.0}};
  } else if (u == "m3/(s Pa)") {
    a = {{"dm3/(s bar)", 1e8, 0.0}};
  } else if (u == "K") {
    a = {{QStringLiteral("°C"), 1.0, -273.15}, {"C", 1.0, -273.15}, {"degC", 1.0, -273.15}};
  }
  a.push_back({QString::fromStdString(u), 1.0, 0.0});  // the SI unit itself
  return a;
}

}  // namespace

std::optional<double> parseToSi(const QString& text, const ParamDecl& d, const DisplayUnit& du,
                                QString* error) {
  static const QRegularExpression re(
      QStringLiteral(R"(^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$)"));
  QString t = text;
  t.replace(',', '.');
  const auto m = re.match(t);
  if (!m.hasMatch()) {
    if (error) *error = QString("'%1' is not a number").arg(text.trimmed());
    return std::nullopt;
  }
  bool ok = false;
  const double v = QLocale::c().toDouble(m.captured(1), &ok);
  if (!ok || !std::isfinite(v)) {
    if (error) *error = QString("'%1' is not a number").arg(text.trimmed());
    return std::nullopt;
  }
  const QString suffix = m.captured(2);
  if (suffix.isEmpty() || suffix == du.unit) return du.toSi(v);
  for (const DisplayUnit& alt : alternatives(d.unit))
    if (alt.unit.compare(suffix, Qt::CaseSensitive) == 0) return alt.toSi(v);
  if (error) *error = QString("unknown unit '%1' for %2 (shown in %3)").arg(suffix, QString::fromStdString(d.name), du.unit);
  return std::nullopt;
}

}  // namespace pm::gui::units
