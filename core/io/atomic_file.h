// Write-to-temporary-then-rename, so a crash or a full disk never leaves a
// half-written project or result file under the user's name.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace pm {

// Calls `write` on a stream to "<path>.tmp-<pid>", flushes, then renames it
// over `path`. Throws std::runtime_error naming the file on any failure and
// removes the temporary.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace pm
