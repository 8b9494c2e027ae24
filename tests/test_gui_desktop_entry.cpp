// Double-click opening (issue 26 §7): the package's desktop entry and MIME
// type, installed into a temporary XDG data folder as the package's triggers
// install them (update-mime-database, update-desktop-database), must make
// xdg-mime map *.pneumech.json to our type and our type to our entry, and
// xdg-open (what a file manager without its own database does on a double
// click) must start the studio with the file, which then holds it open.
// No desktop is needed: xdg-mime's generic and GNOME back ends read the
// XDG folders; the studio runs on Qt's offscreen platform.
#include "recovery.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

namespace {

const QString kType = "application/x-pneumech-project";
const QString kEntry = "pneumech-studio.desktop";
const char* kMissing = "not installed (Debian packages xdg-utils, shared-mime-info, desktop-file-utils; "
                       "packaging/install-deps.sh installs them)";

QString tool(const char* name) { return QStandardPaths::findExecutable(name); }

struct Run {
  int exitCode = -1;
  QString out, err;
};

}  // namespace

class TestDesktopEntry : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  QString data_, project_;

  // The user's environment less anything that says which desktop it is
  // (xdg-mime picks its back end from that), with the XDG folders here.
  QProcessEnvironment env(const QString& desktop) const {
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const char* k : {"XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION", "KDE_SESSION_VERSION",
                          "GNOME_DESKTOP_SESSION_ID", "MATE_DESKTOP_SESSION_ID", "XDG_MENU_PREFIX", "BROWSER",
                          "DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY"})
      e.remove(k);
    e.insert("XDG_CURRENT_DESKTOP", desktop);
    e.insert("HOME", tmp_.filePath("home"));
    e.insert("XDG_DATA_HOME", data_);
    e.insert("XDG_CONFIG_HOME", tmp_.filePath("config"));
    e.insert("XDG_DATA_DIRS", "/usr/local/share:/usr/share");
    return e;
  }

  Run run(const QString& program, const QStringList& args, const QString& desktop = "X-Generic") const {
    QProcess p;
    p.setProcessEnvironment(env(desktop));
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(60000)) {
      p.kill();
      p.waitForFinished();
      r.err = program + " did not finish in 60 s";
      return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput()).trimmed();
    r.err = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
    return r;
  }

  static QString desktopKey(const QString& key) {
    QFile f(QStringLiteral(PM_SOURCE_DIR) + "/packaging/pneumech-studio.desktop");
    if (!f.open(QIODevice::ReadOnly)) return {};
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n'))
      if (line.startsWith(key + "=")) return line.mid(key.size() + 1).trimmed();
    return {};
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    // The package's files, where its install puts them under /usr/share.
    data_ = tmp_.filePath("data");
    for (const char* d : {"data/applications", "data/mime/packages", "home", "config"}) QVERIFY(QDir().mkpath(tmp_.filePath(d)));
    const QString pkg = QStringLiteral(PM_SOURCE_DIR) + "/packaging/";
    QVERIFY(QFile::copy(pkg + "pneumech-studio.desktop", data_ + "/applications/" + kEntry));
    QVERIFY(QFile::copy(pkg + "pneumech-studio.xml", data_ + "/mime/packages/pneumech-studio.xml"));
    // A real example (pneumatics only: the offscreen studio has no OpenGL),
    // in a folder and under a name with spaces, as users name them.
    QVERIFY(QDir().mkpath(tmp_.filePath("My Projects")));
    project_ = tmp_.filePath("My Projects/lift cycle.pneumech.json");
    QVERIFY(QFile::copy(QStringLiteral(PM_SOURCE_DIR) + "/projects/sequence_a_b.pneumech.json", project_));

    // What the triggers of shared-mime-info and desktop-file-utils run.
    if (tool("update-mime-database").isEmpty()) QSKIP(qPrintable(QString("update-mime-database ") + kMissing));
    const Run mime = run(tool("update-mime-database"), {data_ + "/mime"});
    QVERIFY2(mime.exitCode == 0, qPrintable(mime.err));
    QVERIFY(QFileInfo::exists(data_ + "/mime/mime.cache"));
    if (!tool("update-desktop-database").isEmpty()) {
      const Run apps = run(tool("update-desktop-database"), {data_ + "/applications"});
      QVERIFY2(apps.exitCode == 0, qPrintable(apps.err));
    }
  }

  // The entry itself: valid for desktop-file-validate, registered for our
  // type, and its Exec line hands the studio one file (%f).
  void desktopEntryIsValid() {
    QCOMPARE(desktopKey("Type"), QString("Application"));
    QCOMPARE(desktopKey("Exec"), QString("pneumech-studio %f"));
    QVERIFY(desktopKey("MimeType").split(';', Qt::SkipEmptyParts).contains(kType));
    const QString validate = tool("desktop-file-validate");
    if (validate.isEmpty()) QSKIP(qPrintable(QString("desktop-file-validate ") + kMissing));
    const Run r = run(validate, {data_ + "/applications/" + kEntry});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + "\n" + r.err));
    // Hints are not errors, but the entry has none either.
    QVERIFY2(!r.out.contains("hint:") && !r.out.contains("error:"), qPrintable(r.out));
  }

  void xdgMimeMapsTheFile_data() {
    QTest::addColumn<QString>("desktop");
    QTest::addColumn<QString>("needs");  // the program that back end reads the database with
    QTest::newRow("generic") << "X-Generic" << "mimetype";
    QTest::newRow("gnome") << "GNOME" << "gio";
  }

  // xdg-mime query filetype: our type for the file; query default: our entry.
  void xdgMimeMapsTheFile() {
    QFETCH(QString, desktop);
    QFETCH(QString, needs);
    if (tool("xdg-mime").isEmpty()) QSKIP(qPrintable(QString("xdg-mime ") + kMissing));
    // Without it xdg-mime's generic back end falls back to file(1), which
    // knows content, not the glob: "application/json".
    if (tool(needs.toLocal8Bit().constData()).isEmpty())
      QSKIP(qPrintable(needs + " not installed (Debian: libfile-mimeinfo-perl for mimetype, libglib2.0-bin for "
                               "gio; packaging/install-deps.sh)"));
    const Run type = run(tool("xdg-mime"), {"query", "filetype", project_}, desktop);
    QVERIFY2(type.exitCode == 0, qPrintable(type.err));
    QCOMPARE(type.out.section(';', 0, 0), kType);
    const Run app = run(tool("xdg-mime"), {"query", "default", kType}, desktop);
    QVERIFY2(app.exitCode == 0, qPrintable(app.err));
    QCOMPARE(app.out, kEntry);
    // The same query for a plain .json file must not name us: the glob is
    // the double extension, not every JSON file.
    QFile plain(tmp_.filePath("data.json"));
    QVERIFY(plain.open(QIODevice::WriteOnly));
    plain.write("{}\n");
    plain.close();
    const Run other = run(tool("xdg-mime"), {"query", "filetype", plain.fileName()}, desktop);
    QVERIFY(other.out.section(';', 0, 0) != kType);
  }

  // The double click itself: xdg-open (generic back end) finds the entry,
  // runs its Exec line with the file, and the studio opens that project
  // (it holds the project's lock, as every studio with a project open does).
  void xdgOpenStartsTheStudioOnTheFile() {
    if (tool("xdg-open").isEmpty() || tool("mimetype").isEmpty())
      QSKIP(qPrintable(QString("xdg-open or mimetype ") + kMissing));
    QProcessEnvironment e = env("X-Generic");
    // xdg-open's generic back end consults the MIME database only "with a
    // display"; the studio itself runs offscreen and never connects to it.
    e.insert("DISPLAY", ":pneumech-test-no-display");
    e.insert("QT_QPA_PLATFORM", "offscreen");
    e.insert("PATH", QFileInfo(QStringLiteral(PM_STUDIO)).absolutePath() + ":" + e.value("PATH"));
    QProcess open;
    open.setProcessEnvironment(e);
    open.setProcessChannelMode(QProcess::ForwardedChannels);
    open.start(tool("xdg-open"), {project_});
    QVERIFY(open.waitForStarted());

    // The studio's lock files live in its data folder, under XDG_DATA_HOME.
    qputenv("XDG_DATA_HOME", data_.toLocal8Bit());
    QCoreApplication::setOrganizationName("PneuMech");
    QCoreApplication::setApplicationName("PneuMech Studio");
    qint64 pid = 0;
    QTRY_VERIFY_WITH_TIMEOUT(pm::gui::Recovery::openElsewhere(project_, &pid) || open.state() == QProcess::NotRunning,
                             120000);
    QVERIFY2(pid > 0, "xdg-open ended without a studio holding the project open");
    // The process holding it is the studio we built, started as Exec says:
    // the program and the file as one argument.
    const QString exe = QFileInfo(QString("/proc/%1/exe").arg(pid)).symLinkTarget();
    QFile cmdline(QString("/proc/%1/cmdline").arg(pid));
    QVERIFY(cmdline.open(QIODevice::ReadOnly));
    const QList<QByteArray> argv = cmdline.readAll().split('\0');
    ::kill(static_cast<pid_t>(pid), SIGTERM);
    QVERIFY(open.waitForFinished(60000));
    QCOMPARE(QFileInfo(exe).canonicalFilePath(), QFileInfo(QStringLiteral(PM_STUDIO)).canonicalFilePath());
    QVERIFY(argv.size() >= 2);
    QCOMPARE(QFileInfo(QString::fromLocal8Bit(argv[0])).fileName(), QString("pneumech-studio"));
    QCOMPARE(QString::fromLocal8Bit(argv[1]), project_);
  }
};

QTEST_MAIN(TestDesktopEntry)
#include "test_gui_desktop_entry.moc"
