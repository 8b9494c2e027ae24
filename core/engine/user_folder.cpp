#include "engine/user_folder.h"

#include "engine/engine.h"
#include "model/project_error.h"

#include <cstdlib>
#include <filesystem>

namespace pm::engine {

std::string userComponentFolder() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  std::filesystem::path base;
  if (xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::filesystem::path(home) / ".local" / "share";
  else
    return {};
  return (base / "PneuMech" / "components").string();
}

std::vector<std::string> loadUserComponentFolder(std::string* problem) {
  const std::string dir = userComponentFolder();
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return {};
  try {
    return loadUserLibrary(dir);
  } catch (const ProjectError& e) {
    if (problem) *problem = e.what();
    return {};
  }
}

}  // namespace pm::engine
