// Project -> System: builds elements from the registry, joins connected ports
// into nets, lets every element set itself up, decides node kinds and
// resolves signal references. Validates first (build/validation.h); throws
// ProjectError on inconsistent input.
#pragma once

#include "model/project.h"
#include "solver/system.h"

#include <memory>
#include <string>

namespace pm {

class Compiler {
 public:
  // `file` only names the source in error messages; `options`: see BuildOptions.
  static std::unique_ptr<System> compile(const Project& project, const std::string& file = {},
                                         const BuildOptions& options = {});
  // One side of a co-simulation (core/solver/cosimulation.h): Pneumatic
  // leaves the mechanism out, Mechanical keeps only the mechanism and the
  // components attached to it; `backplane` joins the two.
  static std::unique_ptr<System> compile(const Project& project, const std::string& file, CouplingRole role,
                                         Backplane* backplane, const BuildOptions& options = {});

 private:
  class Build;  // one compilation's steps (compiler.cpp)
};

}  // namespace pm
