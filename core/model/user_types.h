// Withdrawing a user type from the registry (issue 24): a sub-circuit type
// made in the studio whose making is undone, or the types of a project
// that is closed, must not stay listed and usable for the rest of the
// session. The entry is kept but no longer found (pointers to it stay
// valid); registering the name again brings it back.
#pragma once

#include <set>
#include <string>

namespace pm {

// Withdraws user type `name` when it was registered from one of `origins`
// (the files of a project). The user type of that name it had replaced
// from another file (the library folder's) comes back, else Registry::find
// and all() no longer see the name. Copies from `origins` it had replaced
// are forgotten. A built-in type or an unknown name is left alone.
void withdrawUserType(const std::string& name, const std::set<std::string>& origins);

}  // namespace pm
