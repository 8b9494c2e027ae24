// The project as the compiler sees it, for the studio's views that read
// the circuit beside a run (the report's assumptions): sub-circuit
// instances replaced by their insides (build/subcircuit_expansion.h), an
// inner component named `<instance>.<inner id>`.
#pragma once

#include "model/project.h"

#include <optional>

namespace pm::engine {

// The project itself when it has no sub-circuits, else its expansion kept
// in `storage`; as drawn when a sub-circuit cannot be expanded (the
// compile says why).
const Project& expandedView(const Project& project, std::optional<Project>& storage);

}  // namespace pm::engine
