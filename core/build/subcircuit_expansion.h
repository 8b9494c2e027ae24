// Sub-circuit instances replaced by their insides (issue 24,
// io/subcircuit_file.h): the compiler's first step. An inner component
// becomes `<instance>.<inner id>` (so its channels read
// `<instance>.<inner id>.<quantity>`), the lines to an external port end at
// the inner port it stands for, the instance's parameters set their inner
// targets and its inputs feed theirs. Nested sub-circuits expand the same way.
#pragma once

#include "model/project.h"

#include <optional>
#include <string>

namespace pm {

bool hasSubcircuits(const Project& project);

// The project with every sub-circuit instance expanded: its components in
// the instance's place, the outer lines first, then each instance's own.
// Throws ProjectError naming `file` (or the sub-circuit's) on bad input.
Project expandSubcircuits(const Project& project, const std::string& file);

// The project as the compiler sees it, for what reads the circuit beside a
// run (key results, bill of materials, geometry checks, dead points): the
// project itself when it has no sub-circuits, else its expansion, kept in
// `storage`, so an inner cylinder is seen as `<instance>.<inner id>`. A
// sub-circuit that cannot be expanded leaves the project as drawn (the
// compile reports what is wrong).
const Project& expandedView(const Project& project, std::optional<Project>& storage);

}  // namespace pm
