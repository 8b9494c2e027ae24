// The parts of a mechanism that cannot move: ground parts and those welded
// to them by a chain of fixed joints (a mesh contact shape may sit only on
// one of these; the validation and the Add Contact dialog ask the same).
#pragma once

#include "model/mechanism.h"

#include <set>
#include <string>

namespace pm {

std::set<std::string> partsFixedToGround(const Mechanism& m);

}  // namespace pm
