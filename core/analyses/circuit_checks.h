// Checks of a circuit's wiring before a run (pneumech check, the studio's
// Check Circuit): what the compile accepts but no working machine has.
//  - A pneumatic port left open: plugged (a valve's exhausts 3/5 and the
//    optional pilot ports excepted).
//  - No compressed-air supply in a circuit.
//  - A directional valve side that nothing actuates: no signal on its
//    solenoid, its pilot port not connected, not operated by hand. Side 14
//    always needs one; side 12 where the valve has no spring to bring it
//    back (a bistable 5/2 not toggled by a hand lever) or a position of its
//    own (a 5/3).
//  - A cylinder (any actuator) whose lines reach no directional valve
//    through the in-line parts (flow controls, tubes, restrictions...).
//  - A sensor whose signals nothing reads: no input, sequence condition,
//    script or report/plot setting names them.
#pragma once

#include "model/project.h"

#include <string>
#include <vector>

namespace pm {

struct CircuitFinding {
  std::string object;    // component id, to select
  std::string message;   // the whole sentence, naming the object by code and id
  bool blocking = false; // the studio refuses to run (no supply)
};

std::vector<CircuitFinding> checkCircuit(const Project& p);

}  // namespace pm
