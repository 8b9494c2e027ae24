// "Make Sub-circuit" (issue 24) on the Project, without widgets: the
// selected components become the inside of a new sub-circuit type
// (docs/user-components.md, "Sub-circuits") and one instance of it takes
// their place. The lines that crossed the selection's boundary end at the
// instance's external ports; the signals the inside read from outside
// become the instance's inputs; what outside read from inside reads
// "<instance>.<inner id>.<channel>", as the compiler's expansion names it.
// Run inside Document::edit, it is one undo step.
#pragma once

#include "model/project.h"

#include <set>
#include <string>
#include <vector>

namespace pm::gui {

// An external port of the new type: the inner port a line from outside reached.
struct BoundaryPort {
  std::string name;  // the external port's name (the inner port's, made unique)
  PortRef inner;     // "<inner id>.<port>"
};

// A signal input of the new type: an inner component's input fed from outside.
struct BoundaryInput {
  std::string name;    // the instance's input (the inner input's, made unique)
  PortRef inner;       // "<inner id>.<input>"
  std::string source;  // what fed it: "<outer id>.<channel>"
};

// A parameter of the new type: an inner parameter the user chose to expose
// (its default is the inner value, so the run is unchanged until an
// instance sets it).
struct ExposedParam {
  std::string name;  // the type's parameter (the inner one's, made unique)
  PortRef inner;     // "<inner id>.<param>"
};

struct SubcircuitPlan {
  std::vector<BoundaryPort> ports;
  std::vector<BoundaryInput> inputs;
  std::vector<ExposedParam> params;  // none unless the user chose some
};

// The external ports and inputs `ids` (components of `p`) would get, named
// after their inner ports and inputs ("1", "4"; "fc1_2" when two inner
// ports share a name).
SubcircuitPlan planSubcircuit(const Project& p, const std::set<std::string>& ids);
// Every parameter of components `ids` that could be exposed, named as above.
std::vector<ExposedParam> exposableParams(const Project& p, const std::set<std::string>& ids);

// A type name and an instance id free in `p` for the selection: "block1", "blk1".
std::string freshSubcircuitType(const Project& p);
std::string freshInstanceId(const Project& p, const std::set<std::string>& ids);

// Replaces components `ids` of `p` by instance `instance` of new type
// `type` (its definition registered and carried in p.userComponents, its
// ports and inputs `plan`'s, as the user named them). Returns "" when done,
// else why not (p unchanged): a name taken or malformed, a port name given
// twice, no line crossing the boundary. `file` names the project in the
// registered type's errors.
std::string makeSubcircuit(Project& p, const std::set<std::string>& ids, const std::string& type,
                           const std::string& instance, const SubcircuitPlan& plan, const std::string& file);

}  // namespace pm::gui
