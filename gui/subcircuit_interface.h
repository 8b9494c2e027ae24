// A sub-circuit type's interface changed from inside it (issue 24): an
// inner port made an external port or one taken back, an inner parameter
// exposed or one taken back. The definition lives in the project
// (p.userComponents, docs/user-components.md "Sub-circuits"); every
// instance follows, those drawn in the project and those inside other
// types: a port taken back takes the lines to it along, a parameter taken
// back the instances' values of it. Run inside the project's Document::edit,
// each is one undo step. Without widgets.
#pragma once

#include "model/project.h"

#include <string>
#include <vector>

namespace pm::gui {

// An inner port or parameter that could be exposed: "<inner id>.<name>"
// and the name it would get (its own, made unique among the type's).
struct InterfaceCandidate {
  PortRef inner;
  std::string name;
};

// The inner ports of type `type` of `p` that are no external port yet, and
// the inner parameters no exposed parameter sets yet.
std::vector<InterfaceCandidate> portCandidates(const Project& p, const std::string& type);
std::vector<InterfaceCandidate> parameterCandidates(const Project& p, const std::string& type);

// Each returns "" when done, else why not (p unchanged): no such type,
// inner port or parameter; a name taken or malformed; a definition the
// registry refuses (an SVG symbol without the new port's anchor). `file`
// names the project in the registered type's errors.
std::string exposePort(Project& p, const std::string& type, const std::string& name, const PortRef& inner,
                       const std::string& file);
std::string removePort(Project& p, const std::string& type, const std::string& name, const std::string& file);
std::string exposeParameter(Project& p, const std::string& type, const std::string& name, const PortRef& inner,
                            const std::string& file);
std::string removeParameter(Project& p, const std::string& type, const std::string& name, const std::string& file);

}  // namespace pm::gui
