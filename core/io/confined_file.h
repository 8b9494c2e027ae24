// Files a project names (a script controller's data.file) are confined to
// the project's folder: a project from an untrusted sender must not read or
// write anything outside it, nor block on a FIFO or read a device forever.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace pm {

// Largest file readConfinedFile reads.
inline constexpr std::size_t kConfinedFileMaxBytes = std::size_t(1) << 20;

struct ConfinedPath {
  std::filesystem::path path;      // `ref` under the folder, as named (for writing)
  std::filesystem::path resolved;  // with every symbolic link resolved (for reading)
};

// `ref` (relative to `folder`; "" is the current folder) checked to stay
// inside `folder`, also after symbolic links are resolved. Throws
// std::runtime_error with the reason ("it is outside the project's folder
// ...") when it is absolute or leads outside. The file need not exist.
ConfinedPath confinedPath(const std::string& folder, const std::string& ref);

// The content of `ref` inside `folder` (as confinedPath): a regular file of
// at most `maxBytes`, checked before it is opened and opened without
// blocking. Throws std::runtime_error with the reason only: the message never
// quotes the file.
std::string readConfinedFile(const std::string& folder, const std::string& ref,
                             std::size_t maxBytes = kConfinedFileMaxBytes);

}  // namespace pm
