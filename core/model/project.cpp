#include "model/project.h"

#include <algorithm>

namespace pm {

const Component* Project::find(const std::string& id) const {
  auto it = std::find_if(components.begin(), components.end(),
                         [&](const Component& c) { return c.id == id; });
  return it == components.end() ? nullptr : &*it;
}

Component* Project::find(const std::string& id) {
  return const_cast<Component*>(std::as_const(*this).find(id));
}

}  // namespace pm
