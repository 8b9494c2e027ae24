#include "catalogue_choice.h"

#include "units.h"

#include <algorithm>

namespace pm::gui {

std::vector<const catalogue::Entry*> catalogueEntriesFor(const std::string& type) {
  std::vector<const catalogue::Entry*> out;
  for (const catalogue::Entry& e : catalogue::processCatalogue().entries())
    if (e.type == type) out.push_back(&e);
  return out;
}

QString catalogueEntryText(const catalogue::Entry& e) {
  auto mm = [](double m) { return units::formatNumber(m * 1000.0); };
  auto has = [&](const char* k) { return e.params.count(k) > 0; };
  QString what;
  if (has("bore") && has("rod")) {
    what = QObject::tr("bore %1 mm, rod %2 mm").arg(mm(e.params.at("bore")), mm(e.params.at("rod")));
    if (e.strokeMax > 0.0) what += QObject::tr(", strokes %1-%2 mm").arg(mm(e.strokeMin), mm(e.strokeMax));
  } else if (e.source.contains("flow") && e.source["flow"].contains("qn")) {
    what = QObject::tr("%1 Nl/min, b %2")
               .arg(units::formatNumber(e.source["flow"]["qn"].get<double>()),
                    units::formatNumber(e.source["flow"].value("b", 0.0)));
  } else if (e.source.contains("od") && has("d")) {
    what = QObject::tr("%1 x %2 mm").arg(mm(e.source["od"].get<double>()), mm(e.params.at("d")));
  }
  QString text = QString::fromStdString(e.part);
  if (!what.isEmpty()) text += ": " + what;
  if (e.price) text += QObject::tr(" (%1)").arg(units::formatNumber(*e.price));
  return text;
}

void applyCataloguePart(Component& c, const catalogue::Entry* e) {
  if (e && !c.part.empty())
    if (const catalogue::Entry* old = catalogue::processCatalogue().find(c.part))
      for (const auto& kv : old->params)
        if (!e || !e->params.count(kv.first)) c.params.erase(kv.first);
  c.part = e ? e->part : std::string();
  if (!e) return;
  for (const auto& [name, v] : e->params) c.params[name] = v;
  if (e->strokeMax > 0.0) {
    const ComponentType* t = Registry::instance().find(c.type);
    if (t && t->param("stroke")) {
      const double stroke = paramValue(c, *t, "stroke");
      if (stroke < e->strokeMin || stroke > e->strokeMax)
        c.params["stroke"] = std::clamp(stroke, e->strokeMin, e->strokeMax);
    }
  }
}

bool dropPartIfEdited(Component& c) {
  if (c.part.empty()) return false;
  const catalogue::Entry* e = catalogue::processCatalogue().find(c.part);
  if (!e) return false;
  for (const auto& [name, v] : e->params) {
    const auto it = c.params.find(name);
    if (it != c.params.end() && it->second != v) {
      c.part.clear();
      return true;
    }
  }
  return false;
}

}  // namespace pm::gui
