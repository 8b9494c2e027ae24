// Which bodies of a mechanism are held by the ground (issue #22: a beam's
// supports). A body (part or flexible body) reaches the ground when a chain
// of joints leads from it to a ground part. A joint from a beam to such a
// body is a support of the beam only if the chain does not pass through
// the beam itself: a payload welded to the tip reaches the ground only
// through the beam, and supports nothing.
#pragma once

#include "model/mechanism.h"

#include <set>
#include <string>

namespace pm {

// The ids of the parts and flexible bodies joined to a ground part by a
// chain of joints (of any type) that does not pass through the body
// `avoid` (empty: none avoided); ground parts themselves included.
std::set<std::string> bodiesReachingGround(const Mechanism& m, const std::string& avoid = {});

}  // namespace pm
