// Saves that lose nothing (issue #26, point 5): writeFileAtomically never
// writes through a link, never replaces a device, FIFO, folder or read-only
// file, keeps the file's permissions, leaves no temporary behind on failure,
// and removes the temporaries a killed save left.
#include "io/atomic_file.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/file.h>
#include <csignal>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pm;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void put(const std::string& path, const std::string& text, mode_t mode = 0644) {
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
  }
  QCOMPARE(::chmod(path.c_str(), mode), 0);
}

mode_t modeOf(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return 0;
  return st.st_mode;
}

// The save's error message, "" when it succeeded.
std::string save(const std::string& path, const std::string& text) {
  try {
    writeFileAtomically(path, [&](std::ostream& o) { o << text; });
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

QStringList entries(const QTemporaryDir& dir) {
  return QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                                    QDir::Name);
}

}  // namespace

class TestAtomicFile : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { ::umask(022); }

  // A plain save replaces the content and leaves nothing else in the folder;
  // a new file gets 0666 & ~umask.
  void replacesAndLeavesNoTemporary() {
    QTemporaryDir dir;
    const std::string f = dir.filePath("a.csv").toStdString();
    QCOMPARE(save(f, "one\n"), std::string());
    QCOMPARE(slurp(f), std::string("one\n"));
    QCOMPARE(modeOf(f) & 07777, mode_t(0644));
    QCOMPARE(save(f, "two\n"), std::string());
    QCOMPARE(slurp(f), std::string("two\n"));
    QCOMPARE(entries(dir), QStringList{"a.csv"});
  }

  // A target that is a symbolic link is refused; the link stays a link and
  // the file it points to is unchanged.
  void symlinkTargetRefused() {
    QTemporaryDir dir;
    const std::string victim = dir.filePath("victim").toStdString(), link = dir.filePath("out.csv").toStdString();
    put(victim, "secret", 0600);
    QCOMPARE(::symlink(victim.c_str(), link.c_str()), 0);
    const std::string err = save(link, "overwritten");
    QVERIFY2(err.find(link + ": is a symbolic link") == 0, err.c_str());
    QVERIFY(S_ISLNK(modeOf(link)));
    QCOMPARE(slurp(victim), std::string("secret"));
    QCOMPARE(modeOf(victim) & 07777, mode_t(0600));
  }

  // A link planted where the old code put its temporary ("<target>.tmp-<pid>",
  // a predictable name) is not written through.
  void plantedTemporaryLinkNotFollowed() {
    QTemporaryDir dir;
    const std::string victim = dir.filePath("victim").toStdString(), target = dir.filePath("out.csv").toStdString();
    put(victim, "secret", 0600);
    const std::string planted = target + ".tmp-" + std::to_string(::getpid());
    QCOMPARE(::symlink(victim.c_str(), planted.c_str()), 0);
    QCOMPARE(save(target, "results"), std::string());
    QCOMPARE(slurp(victim), std::string("secret"));
    QCOMPARE(slurp(target), std::string("results"));
    QVERIFY(S_ISLNK(modeOf(planted)));
  }

  // A FIFO is refused at once (no open that would block) and stays a FIFO;
  // a folder is refused too.
  void nonRegularTargetRefused() {
    QTemporaryDir dir;
    const std::string fifo = dir.filePath("pipe").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0644), 0);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string err = save(fifo, "x");
    QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    QVERIFY2(err.find(fifo + ": is a FIFO (named pipe), not a regular file") == 0, err.c_str());
    QVERIFY(S_ISFIFO(modeOf(fifo)));
    const std::string sub = dir.filePath("sub").toStdString();
    QVERIFY(QDir(dir.path()).mkdir("sub"));
    const std::string dirErr = save(sub, "x");
    QVERIFY2(dirErr.find("is a folder, not a regular file") != std::string::npos, dirErr.c_str());
    QVERIFY(S_ISDIR(modeOf(sub)));
    QCOMPARE(entries(dir), (QStringList{"pipe", "sub"}));
  }

  // The permissions of the replaced file are kept (0600 stays private).
  void permissionsKept() {
    QTemporaryDir dir;
    const std::string f = dir.filePath("p.pneumech.json").toStdString();
    put(f, "old", 0600);
    QCOMPARE(save(f, "new"), std::string());
    QCOMPARE(slurp(f), std::string("new"));
    QCOMPARE(modeOf(f) & 07777, mode_t(0600));
    QCOMPARE(::chmod(f.c_str(), 0640), 0);
    QCOMPARE(save(f, "newer"), std::string());
    QCOMPARE(modeOf(f) & 07777, mode_t(0640));
  }

  // A read-only file (0444) is refused with a message naming it, even for
  // root, and is left as it was.
  void readOnlyRefused() {
    QTemporaryDir dir;
    const std::string f = dir.filePath("ro.csv").toStdString();
    put(f, "keep me", 0444);
    const std::string err = save(f, "replaced");
    QVERIFY2(err == f + ": is read-only (no write permission); not replaced", err.c_str());
    QCOMPARE(slurp(f), std::string("keep me"));
    QCOMPARE(modeOf(f) & 07777, mode_t(0444));
    QCOMPARE(entries(dir), QStringList{"ro.csv"});
  }

  // A writer that fails midway leaves the old file whole and no temporary.
  void failedWriteKeepsOldFile() {
    QTemporaryDir dir;
    const std::string f = dir.filePath("r.csv").toStdString();
    put(f, "previous results\n");
    try {
      writeFileAtomically(f, [](std::ostream& o) {
        for (int i = 0; i < 100000; ++i) o << "row " << i << "\n";  // past the stream's buffer
        throw std::runtime_error("writer failed");
      });
      QFAIL("the writer's exception was swallowed");
    } catch (const std::runtime_error& e) {
      QCOMPARE(std::string(e.what()), std::string("writer failed"));
    }
    QCOMPARE(slurp(f), std::string("previous results\n"));
    QCOMPARE(entries(dir), QStringList{"r.csv"});
  }

  // Temporaries of our pattern left by a killed save (no one holds their
  // lock, not fresh) are removed at the next save into the folder; one a
  // live writer holds, a fresh one, and files of other names stay.
  void staleTemporariesRemoved() {
    QTemporaryDir dir;
    auto make = [&](const char* name, int ageSeconds) {
      const std::string p = dir.filePath(name).toStdString();
      put(p, std::string(4096, 'x'), 0600);
      const timespec old[2] = {{::time(nullptr) - ageSeconds, 0}, {::time(nullptr) - ageSeconds, 0}};
      ::utimensat(AT_FDCWD, p.c_str(), old, 0);
      return p;
    };
    make(".big.csv.pneumech-tmp-Ab3xYz", 7200);
    make(".other.json.pneumech-tmp-000000", 60);
    make(".fresh.csv.pneumech-tmp-QwErTy", 0);
    make("notes.pneumech-tmp-AAAAAA", 7200);          // no leading dot: not ours
    make(".x.pneumech-tmp-short", 7200);              // suffix not 6 characters
    const std::string held = make(".held.csv.pneumech-tmp-HeLd00", 7200);
    const int fd = ::open(held.c_str(), O_RDONLY);
    QVERIFY(fd >= 0);
    QCOMPARE(::flock(fd, LOCK_EX | LOCK_NB), 0);
    QCOMPARE(save(dir.filePath("big.csv").toStdString(), "done"), std::string());
    ::close(fd);
    QCOMPARE(entries(dir), (QStringList{".fresh.csv.pneumech-tmp-QwErTy", ".held.csv.pneumech-tmp-HeLd00",
                                        ".x.pneumech-tmp-short", "big.csv", "notes.pneumech-tmp-AAAAAA"}));
  }

  // A save killed with SIGKILL midway: while the writer lives its temporary
  // is kept even when old (it holds the lock); once it is dead the next save
  // removes it. The old file is whole throughout.
  void killedSaveCleanedUp() {
    QTemporaryDir dir;
    const std::string f = dir.filePath("big.csv").toStdString();
    put(f, "old\n");
    int ready[2];
    QCOMPARE(::pipe(ready), 0);
    const pid_t child = ::fork();
    if (child == 0) {
      writeFileAtomically(f, [&](std::ostream& o) {
        o << std::string(1 << 20, 'x');
        o.flush();
        (void)::write(ready[1], "1", 1);
        for (;;) ::pause();
      });
      ::_exit(0);
    }
    // Killed and reaped however the test ends (a failed check returns early).
    struct Reaper {
      pid_t pid;
      ~Reaper() {
        if (pid > 0 && ::kill(pid, SIGKILL) == 0) ::waitpid(pid, nullptr, 0);
      }
    } reaper{child};
    char c = 0;
    QCOMPARE(::read(ready[0], &c, 1), ssize_t(1));
    auto temps = [&] {
      QStringList t = entries(dir);
      t.removeAll("big.csv");
      return t;
    };
    QCOMPARE(temps().size(), 1);
    const std::string temp = dir.filePath(temps().front()).toStdString();
    QVERIFY2(temps().front().startsWith(".big.csv.pneumech-tmp-"), qPrintable(temps().front()));
    QCOMPARE(modeOf(temp) & 07777, mode_t(0600));
    const timespec old[2] = {{::time(nullptr) - 7200, 0}, {::time(nullptr) - 7200, 0}};
    QCOMPARE(::utimensat(AT_FDCWD, temp.c_str(), old, 0), 0);
    QCOMPARE(save(dir.filePath("other.csv").toStdString(), "a"), std::string());
    QCOMPARE(temps().size(), 2);  // other.csv and the live writer's temporary
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    reaper.pid = 0;
    QCOMPARE(slurp(f), std::string("old\n"));
    QCOMPARE(save(dir.filePath("other.csv").toStdString(), "b"), std::string());
    QCOMPARE(entries(dir), (QStringList{"big.csv", "other.csv"}));
    ::close(ready[0]);
    ::close(ready[1]);
  }

  // A folder that does not exist: a clear error naming the file.
  void missingFolder() {
    QTemporaryDir dir;
    const std::string f = dir.filePath("no/such/out.csv").toStdString();
    const std::string err = save(f, "x");
    QVERIFY2(err.find(f + ": cannot open its folder") == 0, err.c_str());
  }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
