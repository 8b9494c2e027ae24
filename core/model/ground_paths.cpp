#include "model/ground_paths.h"

#include <map>
#include <vector>

namespace pm {

namespace {

std::string bodyOf(const std::string& markerRef) { return markerRef.substr(0, markerRef.find('.')); }

}  // namespace

std::set<std::string> bodiesReachingGround(const Mechanism& m, const std::string& avoid) {
  // Joints as edges between bodies (a coupler joins joints, not bodies).
  std::map<std::string, std::vector<std::string>> next;
  for (const JointDef& j : m.joints) {
    if (j.i.empty() || j.j.empty()) continue;
    const std::string a = bodyOf(j.i), b = bodyOf(j.j);
    next[a].push_back(b);
    next[b].push_back(a);
  }
  std::set<std::string> reached;
  std::vector<std::string> todo;
  for (const PartDef& p : m.parts)
    if (p.ground && p.id != avoid && reached.insert(p.id).second) todo.push_back(p.id);
  while (!todo.empty()) {
    const std::string body = todo.back();
    todo.pop_back();
    for (const std::string& other : next[body])
      if (other != avoid && reached.insert(other).second) todo.push_back(other);
  }
  return reached;
}

}  // namespace pm
