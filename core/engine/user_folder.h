// The user's own component folder (issue 24): the user components and
// sub-circuits put there appear in the library at every start of the CLI
// and the studio, without --user-lib and without rebuilding the program.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pm::engine {

// $XDG_DATA_HOME/PneuMech/components, else $HOME/.local/share/PneuMech/components.
std::string userComponentFolder();

// Registers what the folder holds, when it exists (else nothing); returns
// the names registered. A bad file does not stop the start: its message
// (file, line, expression) goes to `problem`, the good files are registered.
std::vector<std::string> loadUserComponentFolder(std::string* problem = nullptr);

// Writes definition `def` (a user component or a sub-circuit a project
// carries) into library folder `folder` as "<name>.json" and registers it
// from there, so the library lists it at every start. Returns the file's
// path; throws ProjectError naming the file when it cannot be written or
// `def` is not a valid type.
std::string storeInFolder(const nlohmann::json& def, const std::string& folder);

}  // namespace pm::engine
