#include "io/atomic_file.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <fstream>
#include <random>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <utility>
#include <vector>

namespace pm {

namespace {

std::string describe(const std::string& path, const std::string& what, int err) {
  return path + ": " + what + (err ? std::string(": ") + std::strerror(err) : std::string());
}

std::runtime_error failure(const std::string& path, const std::string& what, int err = 0) {
  return std::runtime_error(describe(path, what, err));
}

WriteRefused refused(const std::string& path, const std::string& what, int err = 0) {
  return WriteRefused(describe(path, what, err));
}

// An output stream buffer on a file descriptor (std::ofstream cannot be
// opened on the descriptor O_EXCL gave us). Remembers the first errno.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd), buf_(1 << 16) { setp(buf_.data(), buf_.data() + buf_.size()); }
  int error() const { return err_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    size_t n = static_cast<size_t>(pptr() - pbase());
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        if (!err_) err_ = errno;
        return false;
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return true;
  }
  int fd_;
  int err_ = 0;
  std::vector<char> buf_;
};

// The process's umask without changing it (umask() can only be read by
// setting it, which races with other threads creating files).
mode_t currentUmask() {
  std::ifstream s("/proc/self/status");
  std::string line;
  while (std::getline(s, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  return 022;
}

// Why `st` (the target, not followed) cannot be replaced; "" if it can.
std::string refusal(const struct stat& st, int dirfd, const std::string& base) {
  if (S_ISLNK(st.st_mode))
    return "is a symbolic link; a save does not write through links (save to the file it points to instead)";
  if (!S_ISREG(st.st_mode)) {
    const char* kind = S_ISDIR(st.st_mode)                          ? "a folder"
                       : S_ISFIFO(st.st_mode)                       ? "a FIFO (named pipe)"
                       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                       : S_ISSOCK(st.st_mode)                       ? "a socket"
                                                                    : "not a plain file";
    return std::string("is ") + kind + ", not a regular file; not written";
  }
  // The permission bits as well as access(): root may write anything, but a
  // file marked read-only is not replaced behind its owner's back.
  if ((st.st_mode & 0222) == 0 || ::faccessat(dirfd, base.c_str(), W_OK, AT_EACCESS) != 0)
    return "is read-only (no write permission); not replaced";
  return {};
}

bool isTempName(const std::string& n) {
  const size_t m = std::strlen(kAtomicTempMarker);
  if (n.size() < 1 + m + 6 || n[0] != '.') return false;
  if (n.compare(n.size() - 6 - m, m, kAtomicTempMarker) != 0) return false;
  for (size_t i = n.size() - 6; i < n.size(); ++i)
    if (!std::isalnum(static_cast<unsigned char>(n[i]))) return false;
  return true;
}

// Removes temporaries of our pattern, owned by us, that no live writer holds
// (a writer keeps an flock on its temporary until the rename). A fresh file
// is left alone (its writer may not have taken the lock yet), and where the
// file system has no locks only files older than an hour go.
void removeStaleTemps(int dirfd) {
  const int scan = ::openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (scan < 0) return;
  DIR* d = ::fdopendir(scan);
  if (!d) {
    ::close(scan);
    return;
  }
  const time_t now = std::time(nullptr);
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (!isTempName(name)) continue;
    const int fd = ::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {}, again {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid()) {
      const double age = std::difftime(now, st.st_mtime);
      bool stale = false;
      if (::flock(fd, LOCK_EX | LOCK_NB) == 0)
        stale = age >= 10.0;
      else if (errno != EWOULDBLOCK)
        stale = age >= 3600.0;
      // Still the same file under that name (not swapped since we opened it).
      if (stale && ::fstatat(dirfd, name.c_str(), &again, AT_SYMLINK_NOFOLLOW) == 0 && again.st_dev == st.st_dev &&
          again.st_ino == st.st_ino)
        ::unlinkat(dirfd, name.c_str(), 0);
    }
    ::close(fd);
  }
  ::closedir(d);
}

std::string randomSuffix() {
  static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  std::string s(6, 'x');
  for (char& c : s) c = abc[rng() % (sizeof abc - 1)];
  return s;
}

// Closes the descriptors and removes the temporary unless released.
struct Temp {
  int dirfd = -1, fd = -1;
  std::string name;
  ~Temp() {
    if (fd >= 0) ::close(fd);
    if (!name.empty()) ::unlinkat(dirfd, name.c_str(), 0);
    if (dirfd >= 0) ::close(dirfd);
  }
};

// The folder opened, and the target examined: refused early when it can
// never be written. Closes the folder unless released.
struct Target {
  std::string base, folder;
  int dirfd = -1;
  bool exists = false;
  struct stat st {};
  Target() = default;
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;
  ~Target() {
    if (dirfd >= 0) ::close(dirfd);
  }
  int release() { return std::exchange(dirfd, -1); }
};

void openTarget(const std::string& path, Target& t) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  t.base = p.filename().string();
  if (t.base.empty() || t.base == "." || t.base == "..") throw refused(path, "is not a file name");
  t.folder = p.has_parent_path() ? p.parent_path().string() : std::string(".");
  t.dirfd = ::open(t.folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (t.dirfd < 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR || err == EACCES)
      throw refused(path, "cannot open its folder '" + t.folder + "'", err);
    throw failure(path, "cannot open its folder '" + t.folder + "'", err);
  }
  t.exists = ::fstatat(t.dirfd, t.base.c_str(), &t.st, AT_SYMLINK_NOFOLLOW) == 0;
  if (!t.exists && errno != ENOENT) throw failure(path, "cannot examine", errno);
  if (t.exists) {
    const std::string why = refusal(t.st, t.dirfd, t.base);
    if (!why.empty()) throw refused(path, why);
  }
}

}  // namespace

void checkWriteTarget(const std::string& path) {
  Target target;
  openTarget(path, target);
}

struct AtomicFile::Impl {
  std::string path, base, folder;
  struct stat st {};
  bool exists = false;
  Temp t;
  std::unique_ptr<FdBuf> buf;
  std::unique_ptr<std::ostream> out;
};

AtomicFile::AtomicFile(const std::string& path) : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  Temp& t = d.t;
  d.path = path;
  Target target;
  openTarget(path, target);
  t.dirfd = target.release();  // closed by t from here on
  d.base = target.base;
  d.folder = target.folder;
  d.st = target.st;
  d.exists = target.exists;
  removeStaleTemps(t.dirfd);

  // ".<name>.pneumech-tmp-XXXXXX", the name shortened to fit NAME_MAX.
  const size_t room = 255 - 1 - std::strlen(kAtomicTempMarker) - 6;
  std::string stem = ".";
  stem.append(d.base, 0, room).append(kAtomicTempMarker);
  for (int attempt = 0; attempt < 100 && t.fd < 0; ++attempt) {
    const std::string name = stem + randomSuffix();
    t.fd = ::openat(t.dirfd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (t.fd >= 0)
      t.name = name;
    else if (errno != EEXIST)
      throw failure(path, "cannot create a temporary file in '" + d.folder + "'", errno);
  }
  if (t.fd < 0) throw failure(path, "cannot create a temporary file in '" + d.folder + "'", EEXIST);
  ::flock(t.fd, LOCK_EX | LOCK_NB);  // tells cleaners the file is in use; best effort
  d.buf = std::make_unique<FdBuf>(t.fd);
  d.out = std::make_unique<std::ostream>(d.buf.get());
}

AtomicFile::~AtomicFile() = default;  // Temp removes an uncommitted temporary

std::ostream& AtomicFile::stream() { return *impl_->out; }

void AtomicFile::commit() {
  Impl& d = *impl_;
  Temp& t = d.t;
  const std::string& path = d.path;
  if (t.fd < 0) throw failure(path, "already written");
  d.out->flush();
  if (!*d.out || d.buf->error()) throw failure(path, "write failed", d.buf->error() ? d.buf->error() : EIO);
  struct stat st = d.st;
  if (d.exists) {
    // Ownership first: a chown clears set-id bits that fchmod then restores.
    if (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) (void)::fchown(t.fd, st.st_uid, st.st_gid);
    if (::fchmod(t.fd, st.st_mode & 07777) != 0) throw failure(path, "cannot keep the file's permissions", errno);
  } else if (::fchmod(t.fd, 0666 & ~currentUmask()) != 0) {
    throw failure(path, "cannot set the file's permissions", errno);
  }
  if (::fsync(t.fd) != 0) throw failure(path, "write failed (sync)", errno);
  const int fd = t.fd;
  t.fd = -1;
  if (::close(fd) != 0) throw failure(path, "write failed (close)", errno);

  // The target again, just before replacing it: it may have changed while
  // we wrote.
  const bool exists = ::fstatat(t.dirfd, d.base.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (exists) {
    const std::string why = refusal(st, t.dirfd, d.base);
    if (!why.empty()) throw refused(path, why);
  }
  if (::renameat(t.dirfd, t.name.c_str(), t.dirfd, d.base.c_str()) != 0)
    throw failure(path, "cannot replace the file", errno);
  t.name.clear();
  // Makes the rename itself durable. Best effort: the file is in place.
  (void)::fsync(t.dirfd);
}

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  AtomicFile f(path);
  write(f.stream());
  f.commit();
}

}  // namespace pm
