#include "model/fixed_parts.h"

namespace pm {

std::set<std::string> partsFixedToGround(const Mechanism& m) {
  std::set<std::string> fixed;
  for (const PartDef& p : m.parts)
    if (p.ground) fixed.insert(p.id);
  auto partOf = [](const std::string& marker) { return marker.substr(0, marker.find('.')); };
  // Welds spread from the ground until nothing changes.
  for (bool grew = true; grew;) {
    grew = false;
    for (const JointDef& j : m.joints) {
      if (j.type != "fixed") continue;
      const std::string a = partOf(j.i), b = partOf(j.j);
      if (!m.part(a) || !m.part(b) || fixed.count(a) == fixed.count(b)) continue;
      fixed.insert(fixed.count(a) ? b : a);
      grew = true;
    }
  }
  return fixed;
}

}  // namespace pm
