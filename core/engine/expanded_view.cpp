#include "engine/expanded_view.h"

#include "build/subcircuit_expansion.h"

namespace pm::engine {

const Project& expandedView(const Project& project, std::optional<Project>& storage) {
  return pm::expandedView(project, storage);
}

}  // namespace pm::engine
