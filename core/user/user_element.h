// The runtime of a user component: an Element that evaluates the compiled
// Definition's programs over one value array per evaluation.
#pragma once

#include "element/element.h"
#include "model/project.h"
#include "user/definition.h"

#include <memory>

namespace pm::user {

std::unique_ptr<Element> makeElement(const Component& c, std::shared_ptr<const Definition> def);

}  // namespace pm::user
