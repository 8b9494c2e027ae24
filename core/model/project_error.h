// One error type for everything a user can get wrong in a project: it names
// the file, the object and the field, so the message says where to look.
// Text from the file is clipped in the message (see message_text.h);
// object() and field() keep it whole, to find the object by.
#pragma once

#include "model/message_text.h"

#include <stdexcept>
#include <string>

namespace pm {

class ProjectError : public std::runtime_error {
 public:
  ProjectError(std::string file, std::string object, std::string field, std::string message)
      : std::runtime_error(compose(file, object, field, clipQuoted(message))),
        file_(std::move(file)), object_(std::move(object)), field_(std::move(field)),
        message_(clipQuoted(message)) {}

  const std::string& file() const { return file_; }
  const std::string& object() const { return object_; }
  const std::string& field() const { return field_; }
  const std::string& message() const { return message_; }

 private:
  static std::string compose(const std::string& file, const std::string& object,
                             const std::string& field, const std::string& message) {
    std::string s = file.empty() ? std::string("project") : file;
    if (!object.empty()) s += ": object '" + clipText(object) + "'";
    if (!field.empty()) s += ", field '" + clipText(field) + "'";
    return s + ": " + message;
  }
  std::string file_, object_, field_, message_;
};

// A file the user chose to write is refused (a link, not a regular file,
// read-only, or in a folder that does not exist): the choice is wrong, so
// the CLI answers it like a bad option (exit code 2), not as an internal
// failure. The message names the file and why.
class WriteRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Turns the multibody engine's "<object>: <field>: message" into a ProjectError.
[[noreturn]] inline void throwMechanismError(const std::string& file, const std::string& w) {
  const auto c1 = w.find(": ");
  if (c1 == std::string::npos) throw ProjectError(file, "mechanism", "", w);
  const auto c2 = w.find(": ", c1 + 2);
  const bool hasField = c2 != std::string::npos && w.substr(c1 + 2, c2 - c1 - 2).find(' ') == std::string::npos;
  throw ProjectError(file, w.substr(0, c1), hasField ? w.substr(c1 + 2, c2 - c1 - 2) : "",
                     hasField ? w.substr(c2 + 2) : w.substr(c1 + 2));
}

}  // namespace pm
