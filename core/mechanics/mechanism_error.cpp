#include "mechanics/mechanism_error.h"

#include "model/project_error.h"

namespace pm {

void throwMechanismError(const std::string& file, const std::string& w) {
  const auto c1 = w.find(": ");
  if (c1 == std::string::npos) throw ProjectError(file, "mechanism", "", w);
  const auto c2 = w.find(": ", c1 + 2);
  const bool hasField = c2 != std::string::npos && w.substr(c1 + 2, c2 - c1 - 2).find(' ') == std::string::npos;
  throw ProjectError(file, w.substr(0, c1), hasField ? w.substr(c1 + 2, c2 - c1 - 2) : "",
                     hasField ? w.substr(c2 + 2) : w.substr(c1 + 2));
}

}  // namespace pm
