// The inputs on which the fuzzer (tests/fuzz/fuzz_project.cpp) once found
// the project loader at fault (tests/fuzz/regressions/), replayed through the
// same properties (tests/fuzz/loader_property.h); also its seeds and the
// example projects, which must pass them too. In the sanitizer tree this
// runs under ASan and UBSan.
#include "fuzz/loader_property.h"
#include "support/test_project.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::filesystem::path> filesIn(const std::string& folder) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(folder))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.' && e.path().extension() != ".md")
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

class TestFuzzRegressions : public QObject {
  Q_OBJECT
 private slots:
  void regressions_data() {
    QTest::addColumn<QString>("path");
    for (const char* folder : {"regressions", "seeds"})
      for (const auto& p : filesIn(pm::test::sourceDir() + "/tests/fuzz/" + folder))
        QTest::newRow((std::string(folder) + "/" + p.filename().string()).c_str()) << QString::fromStdString(p.string());
  }
  void regressions() {
    QFETCH(QString, path);
    const std::string fault = pm::fuzz::loaderFault(readAll(path.toStdString()));
    QVERIFY2(fault.empty(), fault.c_str());
  }

  void examples_data() {
    QTest::addColumn<QString>("path");
    for (const auto& p : filesIn(pm::test::projectPath("")))
      if (p.string().ends_with(".pneumech.json"))
        QTest::newRow(p.filename().string().c_str()) << QString::fromStdString(p.string());
  }
  // The examples load (no refusal at all), and pass the properties.
  void examples() {
    QFETCH(QString, path);
    const std::string file = path.toStdString();
    const std::string text = readAll(file);
    const std::string fault = pm::fuzz::loaderFault(text, file);
    QVERIFY2(fault.empty(), fault.c_str());
    pm::engine::parse(text, file);
    pm::engine::check(pm::engine::parse(text, file), file);
  }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "test_fuzz_regressions.moc"
