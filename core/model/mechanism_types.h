// What each joint, force and motion type of the mechanism accepts: its
// parameters with units, defaults, ranges and docs (declared once, used by
// the file reader, `--set`, the property editor and `pneumech types`).
#pragma once

#include "model/component_type.h"

#include <string>
#include <vector>

namespace pm {

struct MechTypeDecl {
  std::string name;
  std::string description;
  int markers = 2;          // 2: I and J; 1: I only (J optional for action-only forces)
  bool j_optional = false;  // action-only when J is empty
  std::vector<ParamDecl> params;
  const ParamDecl* param(const std::string& n) const;
};

const std::vector<MechTypeDecl>& jointTypes();
const std::vector<MechTypeDecl>& forceTypes();
// Motion parameters depend on the function: constant, ramp, harmonic, step, table.
const std::vector<MechTypeDecl>& motionFunctions();

// A latch's parameters (mechanism.latches).
const MechTypeDecl& latchType();

const MechTypeDecl* findJointType(const std::string& n);
const MechTypeDecl* findForceType(const std::string& n);
const MechTypeDecl* findMotionFunction(const std::string& n);

}  // namespace pm
