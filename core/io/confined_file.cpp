#include "io/confined_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace pm {

namespace {

namespace fs = std::filesystem;

// `p` is `root` or below it (both normalised, absolute).
bool inside(const fs::path& p, const fs::path& root) {
  const fs::path rel = p.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

std::string kindOf(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a plain file";
}

std::string sizeText(std::size_t bytes) {
  return bytes % (1 << 20) == 0 ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

}  // namespace

ConfinedPath confinedPath(const std::string& folder, const std::string& ref) {
  if (ref.empty()) throw std::runtime_error("no file named");
  const fs::path r(ref);
  if (r.is_absolute())
    throw std::runtime_error("it is an absolute path; a project's files are named relative to its folder");
  std::error_code ec;
  const fs::path root = fs::canonical(folder.empty() ? fs::path(".") : fs::path(folder), ec);
  if (ec) throw std::runtime_error("the project's folder '" + folder + "' cannot be opened: " + ec.message());
  const fs::path named = (root / r).lexically_normal();
  if (!inside(named, root)) throw std::runtime_error("it is outside the project's folder (files must be inside it)");
  // Links resolved: a link inside the folder to a file elsewhere is outside.
  const fs::path resolved = fs::weakly_canonical(named, ec);
  if (ec) throw std::runtime_error("it cannot be resolved: " + ec.message());
  if (!inside(resolved, root))
    throw std::runtime_error("it leads outside the project's folder through a symbolic link (files must be inside it)");
  return {named, resolved};
}

std::string readConfinedFile(const std::string& folder, const std::string& ref, std::size_t maxBytes) {
  const ConfinedPath p = confinedPath(folder, ref);
  // Type and size before opening: open() on a FIFO would block, a device
  // could be read forever.
  struct stat st {};
  if (::stat(p.resolved.c_str(), &st) != 0) throw std::runtime_error(std::strerror(errno));
  auto check = [&](const struct stat& s) {
    if (!S_ISREG(s.st_mode)) throw std::runtime_error("it is " + kindOf(s.st_mode) + ", not a regular file");
    if (static_cast<std::size_t>(s.st_size) > maxBytes)
      throw std::runtime_error("it is larger than " + sizeText(maxBytes) + " (" + std::to_string(s.st_size) + " bytes)");
  };
  check(st);
  const int fd = ::open(p.resolved.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(std::strerror(errno));
  std::string text;
  try {
    // The file opened may not be the one examined (replaced meanwhile).
    if (::fstat(fd, &st) != 0) throw std::runtime_error(std::strerror(errno));
    check(st);
    text.resize(std::min(maxBytes, static_cast<std::size_t>(st.st_size)) + 1);  // one byte more shows growth
    std::size_t n = 0;
    while (n < text.size()) {
      const ssize_t k = ::read(fd, text.data() + n, text.size() - n);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) throw std::runtime_error(std::strerror(errno));
      if (k == 0) break;
      n += static_cast<std::size_t>(k);
    }
    if (n > maxBytes) throw std::runtime_error("it is larger than " + sizeText(maxBytes));
    text.resize(n);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return text;
}

}  // namespace pm
