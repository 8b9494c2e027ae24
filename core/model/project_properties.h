// Project properties beyond Metadata's title, customer, author and
// description (File -> Project Properties): the engineers' technical notes
// that the report leaves out, the logo on the report's title page, and the
// customer's required cycle time. They are the file's meta.notes, meta.logo
// and meta.required_cycle_time (docs/file-format.md); the loader checks
// them and keeps them in Project::extra["meta"], which saving merges back
// into "meta". (Moving them into Metadata changes the Project layout every
// translation unit sees; that is left for a quiet moment.)
#pragma once

#include "model/project.h"

#include <string>

namespace pm {

struct ProjectProperties {
  std::string notes;               // technical notes, not in the report
  std::string logo;                // image file, relative to the project file's folder (or absolute)
  double requiredCycleTime = 0.0;  // s; 0: not stated
  bool operator==(const ProjectProperties&) const = default;
};

// The properties as the loader kept them (defaults when absent).
ProjectProperties projectProperties(const Project& project);

// Stores them (removes extra["meta"] when all are unset).
void setProjectProperties(Project& project, const ProjectProperties& properties);

}  // namespace pm
