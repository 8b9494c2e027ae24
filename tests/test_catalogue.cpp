// The catalogue's data files (catalogue/*.json): every entry names a
// registered component type and sets parameters it has, within their ranges;
// a cylinder's rod is thinner than its bore; sources are stated.
#include "model/component_type.h"
#include "support/test_project.h"

#include <QDir>
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

using namespace pm;

class TestCatalogue : public QObject {
  Q_OBJECT
 private slots:
  void entriesMatchTheLibrary() {
    const QDir dir(QString::fromStdString(test::sourceDir() + "/catalogue"));
    const QStringList files = dir.entryList({"*.json"}, QDir::Files);
    QVERIFY(files.size() >= 2);
    std::set<std::string> parts;
    for (const QString& f : files) {
      std::ifstream in(dir.filePath(f).toStdString());
      const nlohmann::json d = nlohmann::json::parse(in);
      QCOMPARE(d.at("format").get<std::string>(), std::string("pneumech-catalogue"));
      QVERIFY2(!d.at("sources").empty(), qPrintable(f));
      for (const auto& e : d.at("entries")) {
        const std::string part = e.at("part").get<std::string>();
        QVERIFY2(parts.insert(part).second, part.c_str());  // part numbers are unique
        QVERIFY(e.at("price").is_null() || e.at("price").is_number());
        const ComponentType* t = Registry::instance().find(e.at("type").get<std::string>());
        QVERIFY2(t, part.c_str());
        for (auto it = e.at("params").begin(); it != e.at("params").end(); ++it) {
          const ParamDecl* p = t->param(it.key());
          QVERIFY2(p, qPrintable(QString::fromStdString(part + ": " + it.key())));
          QVERIFY2(p->accepts(it.value().get<double>()), qPrintable(QString::fromStdString(part + ": " + it.key())));
        }
        if (e.at("params").contains("rod"))
          QVERIFY2(e["params"]["rod"].get<double>() < e["params"]["bore"].get<double>(), part.c_str());
      }
    }
    // ISO 15552 spans bores 32 to 125 mm, ISO 6432 8 to 25 mm.
    QVERIFY(parts.count("ISO15552-32") && parts.count("ISO15552-125") && parts.count("ISO6432-8") &&
            parts.count("ISO6432-25"));
  }
};

QTEST_GUILESS_MAIN(TestCatalogue)
#include "test_catalogue.moc"
