// Where a study comes from: a project's "studies" section, or a study file
// of its own ({"format": "pneumech-study", "project": "cell.pneumech.json",
// ...the study's fields}), whose project is named relative to the study
// file and must lie in its folder (io/confined_file.h).
#pragma once

#include "model/project.h"
#include "studies/study_definition.h"

#include <string>
#include <vector>

namespace pm::studies {

struct StudyInput {
  Project project;          // loaded and validated
  std::string projectFile;  // its path
  StudyDefinition study;
};

// Reads `path` (a project or a study file) and picks the study named
// `name` (empty: the project's only study, or its first). `sets` are --set
// overrides applied to the project before the study's own. Throws
// ProjectError naming the file, object and field.
StudyInput loadStudy(const std::string& path, const std::string& name, const std::vector<std::string>& sets = {});

}  // namespace pm::studies
