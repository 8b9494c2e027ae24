// A user-component library of one file written by a test (issue 24,
// docs/user-components.md): loaded from a temporary folder, which is gone
// afterwards while the types it defined stay registered. Header-only.
#pragma once

#include "model/project_error.h"
#include "user/user_component.h"

#include <QTemporaryDir>

#include <fstream>
#include <string>

namespace pm::test {

// Loads `text` as the library's only file, `fileName`; its path in `file`.
// A bad definition throws the loader's ProjectError.
inline void loadOneFileLibrary(const std::string& text, const std::string& fileName, std::string* file = nullptr) {
  QTemporaryDir dir;
  const std::string path = dir.path().toStdString() + "/" + fileName;
  std::ofstream(path) << text;
  if (file) *file = path;
  user::loadLibrary(dir.path().toStdString());
}

// The message loading `text` as a one-file library gives ("" when it
// loads); the file's path in `file`.
inline std::string libraryError(const std::string& text, std::string* file = nullptr,
                                const std::string& fileName = "bad_component.json") {
  try {
    loadOneFileLibrary(text, fileName, file);
  } catch (const ProjectError& e) {
    return e.what();
  }
  return {};
}

}  // namespace pm::test
