// Write-to-temporary-then-rename, so a crash or a full disk never leaves a
// half-written project or result file under the user's name, and a save
// never writes through a link or onto something that is not a plain file.
#pragma once

#include "model/project_error.h"

#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace pm {

// Calls `write` on a stream to a new temporary file in `path`'s folder,
// created exclusively (O_EXCL|O_NOFOLLOW, 0600, unpredictable name
// ".<name>.pneumech-tmp-XXXXXX"), then fsyncs it, gives it the permissions
// of the file it replaces (or 0666 & ~umask for a new one), renames it over
// `path` and fsyncs the folder.
//
// Refused, with a WriteRefused naming the file and the old file left
// as it was: `path` is a symbolic link, or not a regular file (a device, a
// FIFO, a folder), or read-only (no write permission bit, or none for us).
// Any failure, including an exception from `write`, removes the temporary
// and rethrows.
//
// Temporaries of this pattern left in the folder by a process that died
// (no process holds their lock) are removed at the next save into it.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// The same, written piece by piece (a run's rows as they come): the
// constructor refuses the target or creates the temporary, stream() takes
// the text, commit() puts it in place. Destroyed without commit() (a run
// that failed, an exception), the temporary goes and `path` stays as it was.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);  // throws WriteRefused or std::runtime_error naming `path`
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  std::ostream& stream();
  // Throws naming the file when a write failed or the target can no longer
  // be replaced (the temporary is removed then).
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Throws the WriteRefused writeFileAtomically would throw for `path`, without
// writing: lets a command refuse a bad output file before a long run.
void checkWriteTarget(const std::string& path);

// The marker in the names of the temporaries (for tests and cleaners).
inline constexpr const char* kAtomicTempMarker = ".pneumech-tmp-";

}  // namespace pm
