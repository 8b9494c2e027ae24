#include "valve_actuation.h"

#include "model/component_type.h"
#include "symbol_library.h"

#include <algorithm>

namespace pm::gui {

QStringList valveGlyphs(const Component& c, const Symbol& sym, const Project* project) {
  QStringList shown;
  if (sym.switchable.isEmpty()) return shown;
  const ComponentType* t = Registry::instance().find(c.type);
  auto flag = [&](const char* n, bool dflt) { return t && t->param(n) ? paramValue(c, *t, n) > 0.5 : dflt; };
  auto connected = [&](const char* port) {
    return project && std::any_of(project->connections.begin(), project->connections.end(), [&](const Connection& k) {
             return (k.from.component == c.id && k.from.port == port) || (k.to.component == c.id && k.to.port == port);
           });
  };
  auto driven = [&](const char* input) {
    auto it = c.inputs.find(input);
    return it != c.inputs.end() && !it->second.empty();
  };
  auto show = [&](const QString& id) {
    if (sym.switchable.contains(id)) shown << id;
  };
  const bool manual = flag("manual", false), spring = flag("spring_return", true);
  const bool threePos = sym.positions.size() == 3;  // spring-centred whatever spring_return says
  const bool sol14 = driven("sol14"), pilot14 = connected("14");
  if (manual) show(spring || threePos || !sym.switchable.contains("lever14") ? "button14" : "lever14");
  else if (sol14 || !pilot14) show("solenoid14");
  if (pilot14) show("pilot14");
  if (sol14 || (!manual && !pilot14)) show("stub14");
  if (threePos) show("spring14");
  const bool side12 = sym.switchable.contains("solenoid12");
  const bool sol12 = driven("sol12"), pilot12 = connected("12");
  if (spring || threePos) show("spring12");
  if (side12) {
    // Side 12 needs a solenoid of its own unless a pilot line works it, a
    // spring returns a two-position valve, or a hand lever toggles it.
    const bool solenoid = sol12 || (!manual && !pilot12 && (threePos || !spring));
    if (solenoid) show("solenoid12"), show("stub12");
    if (pilot12) show("pilot12");
  }
  for (const char* e : {"3", "5"})
    if (!connected(e)) show(QString("exhaust") + e);
  return shown;
}

}  // namespace pm::gui
