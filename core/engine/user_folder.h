// The user's own component folder (issue 24): the user components and
// sub-circuits put there appear in the library at every start of the CLI
// and the studio, without --user-lib and without rebuilding the program.
#pragma once

#include <string>
#include <vector>

namespace pm::engine {

// $XDG_DATA_HOME/PneuMech/components, else $HOME/.local/share/PneuMech/components.
std::string userComponentFolder();

// Registers what the folder holds, when it exists (else nothing); returns
// the names registered. A bad file does not stop the start: its message
// (file, line, expression) goes to `problem`, the good files are registered.
std::vector<std::string> loadUserComponentFolder(std::string* problem = nullptr);

}  // namespace pm::engine
