#include "units.h"

#include "engine/engine.h"

#include <QLocale>
#include <QRegularExpression>
#include <QSettings>

#include <cmath>
#include <set>
#include <vector>

namespace pm::gui::units {

// ------------------------------------------------------------------ setting

UnitSettings& UnitSettings::instance() {
  static UnitSettings* s = new UnitSettings;  // lives as long as the process
  return *s;
}

UnitSettings::UnitSettings() {
  if (QSettings().value("units/pressure").toString() == "absolute") scale_ = PressureScale::Absolute;
}

void UnitSettings::setPressureScale(PressureScale s) {
  if (s == scale_) return;
  scale_ = s;
  QSettings().setValue("units/pressure", s == PressureScale::Absolute ? "absolute" : "gauge");
  emit changed();
}

void UnitSettings::setAmbient(double pa) {
  if (!(pa > 0) || pa == ambient_) return;
  ambient_ = pa;
  emit changed();
}

QString UnitSettings::parameterUnit(const std::string& type, const std::string& param) const {
  const auto it = parameterUnits_.find(type + "/" + param);
  return it == parameterUnits_.end() ? QString() : it->second;
}

void UnitSettings::setParameterUnit(const std::string& type, const std::string& param, const QString& unit) {
  const std::string key = type + "/" + param;
  if (parameterUnit(type, param) == unit) return;
  if (unit.isEmpty()) parameterUnits_.erase(key);
  else parameterUnits_[key] = unit;
  emit changed();
}

// ------------------------------------------------------------------ pressures

PressureKind pressureKind(const std::string& name, const std::string& doc) {
  const std::string q = name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
  // The built-in types' pressures by name; the description decides for others.
  static const std::set<std::string> gauge{"p_on", "pilot_pressure", "p_gauge"};
  static const std::set<std::string> difference{"p_crack", "dp_open", "dp_band", "band", "deadband", "hysteresis"};
  if (gauge.count(q)) return PressureKind::Gauge;
  if (difference.count(q)) return PressureKind::Difference;
  if (q.find("stress") != std::string::npos) return PressureKind::Stress;
  if (q.rfind("dp", 0) == 0) return PressureKind::Difference;
  const QString d = QString::fromStdString(doc).toLower();
  if (d.contains("difference")) return PressureKind::Difference;
  if (d.contains("gauge") && !d.contains("absolute")) return PressureKind::Gauge;
  return PressureKind::Absolute;
}

namespace {

struct Prefix {
  const char* name;
  double scale;
};
constexpr Prefix kPrefixes[] = {{"bar", 1e-5}, {"kPa", 1e-3}, {"MPa", 1e-6}, {"Pa", 1.0}};

// A level of kind k (SI value absolute, or gauge for PressureKind::Gauge)
// in `prefix`, gauge or absolute.
DisplayUnit level(PressureKind k, const Prefix& prefix, bool gauge, double ambient) {
  double offset = 0.0;
  if (k == PressureKind::Absolute && gauge) offset = -ambient;
  if (k == PressureKind::Gauge && !gauge) offset = ambient;
  return {QString("%1 %2").arg(prefix.name, gauge ? "(g)" : "(abs)"), prefix.scale, offset};
}

bool isLevel(PressureKind k) { return k == PressureKind::Absolute || k == PressureKind::Gauge; }

}  // namespace

DisplayUnit pressureUnit(PressureKind k, PressureScale s, double ambient) {
  if (k == PressureKind::Difference) return {"bar", 1e-5, 0.0};
  if (k == PressureKind::Stress) return {"MPa", 1e-6, 0.0};
  return level(k, kPrefixes[0], s == PressureScale::Gauge, ambient);
}

DisplayUnit pressureUnit(PressureKind k) {
  const UnitSettings& s = UnitSettings::instance();
  return pressureUnit(k, s.pressureScale(), s.ambient());
}

// ------------------------------------------------------------------ units

DisplayUnit forUnit(const std::string& u, double siValue) {
  if (u == "Pa") return pressureUnit(PressureKind::Absolute);
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
  if (d.unit == "Pa") return pressureUnit(pressureKind(d.name, d.doc));
  return forUnit(d.unit, siValue);
}

DisplayUnit chosenUnit(const std::string& type, const ParamDecl& d, double siValue) {
  if (const QString chosen = UnitSettings::instance().parameterUnit(type, d.name); !chosen.isEmpty())
    for (const DisplayUnit& u : choices(d))
      if (u.unit == chosen) return u;
  return forParam(d, siValue);
}

DisplayUnit forTarget(const OverrideTarget& t) { return chosenUnit(t.type, t.decl, t.value); }

DisplayUnit forChannel(const std::string& name, const std::string& siUnit) {
  if (siUnit == "Pa") return pressureUnit(pressureKind(name));
  return forUnit(siUnit, 0.0);
}

QString quantityName(const std::string& name, const std::string& u) {
  if (u == "Pa") {
    switch (pressureKind(name)) {
      case PressureKind::Stress: return QStringLiteral("stress");
      case PressureKind::Difference: return QStringLiteral("pressure difference");
      default: return QStringLiteral("pressure");
    }
  }
  static const std::vector<std::pair<std::string, const char*>> names{
      {"m", "position"},        {"m/s", "velocity"},          {"m/s2", "acceleration"},
      {"K", "temperature"},     {"kg", "mass"},               {"kg/s", "mass flow"},
      {"m3", "volume"},         {"m3/s", "volume flow"},      {"Nl/min", "flow"},
      {"N", "force"},           {"N m", "torque"},            {"J", "energy"},
      {"W", "power"},           {"rad", "angle"},             {"rad/s", "angular velocity"},
      {"rad/s2", "angular acceleration"}, {"s", "time"},      {"Hz", "frequency"}};
  for (const auto& [unit, n] : names)
    if (unit == u) return QString::fromLatin1(n);
  return {};
}

QString describe(const ParamDecl& d, const DisplayUnit& du) {
  QString doc = QString::fromStdString(d.doc);
  if (d.unit != "Pa" || !isLevel(pressureKind(d.name, d.doc))) return doc;
  // The core's note on the SI reference: "(6 bar gauge = 701325 Pa)",
  // "(gauge)", ", ABSOLUTE", "absolute " ... the unit shown says it instead.
  static const QRegularExpression example(QStringLiteral(R"(\s*\([^()]*\bPa\b[^()]*\))"));
  static const QRegularExpression paren(QStringLiteral(R"(\s*\((absolute|gauge)\))"),
                                        QRegularExpression::CaseInsensitiveOption);
  static const QRegularExpression word(QStringLiteral(R"(,?\s*\b(absolute|gauge)\b,?)"),
                                       QRegularExpression::CaseInsensitiveOption);
  doc.remove(example).remove(paren);
  doc.replace(word, QStringLiteral(" "));
  doc = doc.simplified();
  if (du.unit.endsWith("(g)")) return doc + QObject::tr(" (gauge, relative to the ambient pressure)");
  if (du.unit.endsWith("(abs)")) return doc + QObject::tr(" (absolute)");
  return doc;
}

std::vector<DisplayUnit> choices(const ParamDecl& d) {
  const std::string& u = d.unit;
  std::vector<DisplayUnit> a;
  if (u == "Pa") {
    const PressureKind k = pressureKind(d.name, d.doc);
    if (isLevel(k)) {
      const double amb = UnitSettings::instance().ambient();
      const bool gaugeFirst = UnitSettings::instance().pressureScale() == PressureScale::Gauge;
      for (const Prefix& p : kPrefixes)
        for (bool g : {gaugeFirst, !gaugeFirst}) a.push_back(level(k, p, g, amb));
    } else if (k == PressureKind::Stress) {
      a = {{"MPa", 1e-6, 0.0}, {"kPa", 1e-3, 0.0}, {"Pa", 1.0, 0.0}};
    } else {
      for (const Prefix& p : kPrefixes) a.push_back({p.name, p.scale, 0.0});
    }
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
  auto bound = [&](double si) -> QString {
    if (si <= -1e299) return QStringLiteral("-inf");
    if (si >= 1e299) return QStringLiteral("inf");
    return formatNumber(du.toDisplay(si));
  };
  // scale is positive for every display unit, so the order is kept
  return QString("%1%2, %3%4")
      .arg(d.min_open || d.min <= -1e299 ? "(" : "[")
      .arg(bound(d.min))
      .arg(bound(d.max))
      .arg(d.max_open || d.max >= 1e299 ? ")" : "]");
}

namespace {

// A typed pressure unit ("bar", "bar(g)", "barg", "bar (abs)", "bara",
// "kPa (g)", "Pa") for a parameter of kind k shown in `du`.
std::optional<DisplayUnit> typedPressure(const QString& suffix, PressureKind k, const DisplayUnit& du) {
  static const QRegularExpression re(QStringLiteral(R"(^(bar|kPa|MPa|Pa)\s*(\(g\)|g|\(abs\)|abs|\(a\)|a)?$)"));
  const auto m = re.match(suffix);
  if (!m.hasMatch()) return std::nullopt;
  const Prefix* prefix = nullptr;
  for (const Prefix& p : kPrefixes)
    if (m.captured(1) == p.name) prefix = &p;
  const QString ref = m.captured(2);
  if (!isLevel(k)) {
    if (!ref.isEmpty()) return std::nullopt;  // a difference has no reference
    return DisplayUnit{prefix->name, prefix->scale, 0.0};
  }
  if (ref.isEmpty() && m.captured(1) == "Pa") return DisplayUnit{"Pa", 1.0, 0.0};  // the SI value itself
  const bool gauge = ref.isEmpty() ? du.unit.endsWith("(g)") : ref.contains('g');
  return level(k, *prefix, gauge, UnitSettings::instance().ambient());
}

// Units the user may type explicitly for a quantity with SI unit `u` (not Pa).
std::vector<DisplayUnit> alternatives(const std::string& u) {
  std::vector<DisplayUnit> a;
  if (u == "m") {
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
  if (d.unit == "Pa") {
    if (auto p = typedPressure(suffix, pressureKind(d.name, d.doc), du)) return p->toSi(v);
  } else {
    for (const DisplayUnit& alt : alternatives(d.unit))
      if (alt.unit.compare(suffix, Qt::CaseSensitive) == 0) return alt.toSi(v);
  }
  if (error) *error = QString("unknown unit '%1' for %2 (shown in %3)").arg(suffix, QString::fromStdString(d.name), du.unit);
  return std::nullopt;
}

}  // namespace pm::gui::units
