// Limits a project file's JSON text must keep before nlohmann::json builds a
// tree of it: nesting depth (deep trees overflow the stack while they are
// copied or destroyed, and re-serialise in quadratic time) and numbers a
// double can hold. One linear pass over the text; a problem is a
// ProjectError naming the file, the path of the value (components[3].data),
// and its line and column.
#pragma once

#include <cstddef>
#include <string>

namespace pm {

constexpr int kMaxJsonDepth = 64;

// Throws ProjectError(file, "", path, ...) on nesting deeper than `maxDepth`
// or a number out of a double's range. Malformed text is left to the parser.
void checkJsonLimits(const std::string& text, const std::string& file, int maxDepth = kMaxJsonDepth);

// "line L, column C" of the byte at `offset` (0-based), and a short excerpt
// of its line around it for error messages.
std::string jsonPosition(const std::string& text, size_t offset);
std::string jsonExcerpt(const std::string& text, size_t offset);

}  // namespace pm
