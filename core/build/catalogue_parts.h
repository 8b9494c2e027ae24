// Project objects that name a catalogue part ("part": "ISO15552-40"): the
// entry's parameters are the object's. Filling them in and checking them
// are separate so that a project saved with the values (as the studio saves
// it) reads back the same, and a value edited away from the part's is an
// error naming the file, the object and the parameter, never silently one
// or the other.
#pragma once

#include "model/project.h"

#include <string>

namespace pm {

// Sets each part's parameters on its object; throws ProjectError when the
// part is unknown, of another type, or the object gives a different value.
void fillCatalogueParts(Project& project, const std::string& file);

// The same checks without changing the project (validation).
void checkCatalogueParts(const Project& project, const std::string& file);

// `--set ID.part=PART`: the object takes the new part's parameters in place
// of the old part's (empty PART: none, the values stay).
void setCataloguePart(Project& project, Component& c, const std::string& part, const std::string& source);

}  // namespace pm
