#include "engine/user_folder.h"

#include "engine/engine.h"
#include "io/atomic_file.h"
#include "io/subcircuit_file.h"
#include "model/project_error.h"
#include "user/user_component.h"

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

std::string storeInFolder(const nlohmann::json& def, const std::string& folder) {
  const std::string name = def.is_object() ? def.value("name", std::string()) : std::string();
  const std::filesystem::path path = std::filesystem::path(folder) / (name + ".json");
  if (name.empty() || name.find_first_of("/\\") != std::string::npos)
    throw ProjectError(path.string(), name, "name", "a type to store needs a name (letters, digits and '_')");
  const std::string text = def.dump(2) + "\n";
  // Read back as the folder would be at the next start, before it is written.
  if (isSubcircuitDefinition(def))
    readSubcircuit(def, path.string(), text);
  else
    user::compileComponent(def, path.string(), text);
  try {
    writeFileAtomically(path.string(), [&](std::ostream& o) { o << text; });
  } catch (const std::exception& e) {
    throw ProjectError(path.string(), name, "", std::string("cannot write the file: ") + e.what());
  }
  if (isSubcircuitDefinition(def))
    registerSubcircuit(def, path.string(), text);
  else
    user::registerComponent(def, path.string(), text);
  return path.string();
}

}  // namespace pm::engine
