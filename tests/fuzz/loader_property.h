// What the project loader must do with any bytes, checked by the fuzz target
// (tests/fuzz/fuzz_project.cpp) and by the test that replays the inputs the
// fuzzer once found (tests/test_fuzz_regressions.cpp):
// - load them, or refuse them with a ProjectError naming the file; nothing
//   else may escape (anything else is exit code 1, "internal error");
// - a project that loads saves, and the saved text loads again to the same text;
// - what `pneumech check` does next (compile: the mechanism's assembly, tables,
//   a script's data; the geometry checks) again refuses only by ProjectError.
// Crashes, leaks and undefined behaviour are the sanitizers' part.
#pragma once

#include "engine/engine.h"

#include <exception>
#include <string>

namespace pm::fuzz {

inline constexpr const char* kFuzzFileName = "fuzz.pneumech.json";
// A refusal echoes a value cut to a readable length (issue 26): no message
// grows with the file.
inline constexpr size_t kMaxMessageLength = 4096;

// Empty when the loader behaved; otherwise what it did wrong. `name` is the
// file's path as errors name it; a script's data.file is found beside it.
inline std::string loaderFault(const std::string& text, const std::string& name = kFuzzFileName) {
  auto refusal = [&](const ProjectError& e, const char* stage) -> std::string {
    if (e.file() != name)
      return std::string(stage) + ": the error names file '" + e.file() + "', not the file: " + e.what();
    if (std::string(e.what()).size() > kMaxMessageLength)
      return std::string(stage) + ": an error message of " + std::to_string(std::string(e.what()).size()) +
             " characters";
    return {};
  };
  Project project;
  try {
    project = engine::parse(text, name);
  } catch (const ProjectError& e) {
    return refusal(e, "load");
  } catch (const std::exception& e) {
    return std::string("load: not a ProjectError: ") + e.what();
  }
  try {
    const std::string saved = engine::serialize(project);
    const std::string again = engine::serialize(engine::parse(saved, name));
    if (again != saved) return "save: the saved project loads to a different file:\n" + saved + "\n---\n" + again;
  } catch (const ProjectError& e) {
    return std::string("save: the saved project does not load: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("save: not a ProjectError: ") + e.what();
  }
  try {
    engine::check(project, name);
    engine::checkGeometry(project);
  } catch (const ProjectError& e) {
    return refusal(e, "check");
  } catch (const std::exception& e) {
    return std::string("check: not a ProjectError: ") + e.what();
  }
  return {};
}

}  // namespace pm::fuzz
