// The contact shapes' sizes are declared once (issue 27,
// core/mechanics/contact/shape_sizes.h): what the loader reads, writes and
// refuses is what the declaration says. A project with a pair of each shape
// kind saves exactly the declared sizes and loads back to the same values;
// a declared size left out, not > 0 or not finite, or one not declared, is
// refused naming the file, the pair and the field, the message saying what
// the size measures and its unit. A new shape's sizes follow the declared
// rules from a part's drawing, a flexible body's section or the fallbacks,
// and the loader takes them.
#include "build/project_input.h"
#include "io/project_file.h"
#include "mechanics/contact/contact_pair.h"
#include "mechanics/contact/shape_sizes.h"
#include "model/project_error.h"
#include "support/mechanism_builders.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

using namespace pm;
using namespace pm::test;
using pm::contact::Sizes;

namespace {

const char* kFile = "shapes.pneumech.json";

// A pair "hit": I the shape `i` on the ground's marker "m", J a 10 mm
// sphere on part "b" (the sphere pairs with every shape).
Project pairProject(const ContactShapeDef& i) {
  Mechanism m;
  m.parts = {ground({mk("m", {0, 0, 0})}), part("b", 1.0, {1e-4, 1e-4, 1e-4, 0, 0, 0}, {0, 0, 0.5}, {mk("c", {0, 0, 0})})};
  ContactDef c;
  c.id = "hit";
  c.i = i;
  c.i.marker = "ground.m";
  c.j = {"b.c", "sphere", {{"radius", 0.01}}};
  m.contacts = {c};
  return mechProject(m, 0.1, 1e-3, 1e-6);
}

// Distinct sizes for each declared size of `d` (a funnel's mouth wider
// than its base), none optional.
Sizes someSizes(const contact::ShapeDecl& d) {
  Sizes s;
  double v = 0.0123;
  for (const contact::SizeDecl& k : d.sizes)
    if (!k.optional) s[k.name] = (v += 0.0071);
  return s;
}

// The text of the ProjectError parsing `p`'s saved text throws ("" when none).
std::string refusal(const Project& p) {
  try {
    parseProject(serializeProject(p), kFile);
  } catch (const ProjectError& e) {
    return e.what();
  }
  return {};
}

void expectRefused(const Project& p, const std::string& field, const std::vector<std::string>& words) {
  const std::string w = refusal(p);
  QVERIFY2(!w.empty(), qPrintable(QString::fromStdString("accepted: " + field)));
  QVERIFY2(w.find(kFile) != std::string::npos && w.find("hit") != std::string::npos &&
               w.find(field) != std::string::npos,
           w.c_str());
  for (const std::string& word : words) QVERIFY2(w.find(word) != std::string::npos, (w + "  [wanted: " + word + "]").c_str());
}

}  // namespace

class TestContactShapes : public QObject {
  Q_OBJECT
 private slots:
  // Every shape kind but the mesh: saved with exactly its declared sizes,
  // loaded back to the same values, saved again to the same text.
  void declaredSizesRoundTrip() {
    int kinds = 0;
    for (const contact::ShapeDecl& d : contact::shapeDecls()) {
      if (d.name == "mesh") continue;  // meshFileScaleRoundTrip
      ++kinds;
      ContactShapeDef s{"", d.name, someSizes(d)};
      const Project p = pairProject(s);
      const std::string text = serializeProject(p);
      const nlohmann::json j = nlohmann::json::parse(text);
      const nlohmann::json& side = j.at("mechanism").at("contacts").at(0).at("i");
      std::vector<std::string> written, declared;
      if (side.contains("size"))
        for (auto it = side.at("size").begin(); it != side.at("size").end(); ++it) written.push_back(it.key());
      for (const contact::SizeDecl& k : d.sizes) declared.push_back(k.name);
      std::sort(declared.begin(), declared.end());
      QVERIFY2(written == declared, qPrintable(QString::fromStdString(d.name)));
      Project back;
      try {
        back = parseProject(text, kFile);
      } catch (const ProjectError& e) {
        QFAIL(e.what());
      }
      QVERIFY2(back.mechanism.contacts.at(0).i.size == s.size, qPrintable(QString::fromStdString(d.name)));
      QCOMPARE(serializeProject(back), text);
    }
    QCOMPARE(kinds, 6);  // sphere, box, capsule, cylinder, plane, funnel
  }

  // A mesh read from a file: its one declared size, scale, is read, scales
  // the file's vertices and is written back; a mesh given by vertices
  // takes none.
  void meshFileScaleRoundTrip() {
    const contact::ShapeDecl* d = contact::findShapeDecl("mesh");
    QVERIFY(d);
    QCOMPARE(d->sizes.size(), size_t(1));
    QCOMPARE(d->sizes[0].name, std::string("scale"));
    QVERIFY(d->sizes[0].optional);
    QTemporaryDir dir;
    {
      std::ofstream obj(dir.filePath("tri.obj").toStdString());
      obj << "v 0 0 0\nv 100 0 0\nv 0 100 0\nf 1 2 3\n";
    }
    ContactShapeDef s{"", "mesh", {{"scale", 0.001}}};
    s.file = "tri.obj";
    const std::string path = dir.filePath(kFile).toStdString();
    saveProject(pairProject(s), path);
    Project back;
    try {
      back = loadProject(path);
    } catch (const ProjectError& e) {
      QFAIL(e.what());
    }
    const ContactShapeDef& m = back.mechanism.contacts.at(0).i;
    QVERIFY(m.size == (Sizes{{"scale", 0.001}}));
    QCOMPARE(m.vertices.at(1)[0], 0.1);  // 100 file units of 1 mm
    const nlohmann::json j = nlohmann::json::parse(serializeProject(back));
    QCOMPARE(j.at("mechanism").at("contacts").at(0).at("i").at("size").dump(), std::string("{\"scale\":0.001}"));
    ContactShapeDef inline_{"", "mesh", {{"scale", 0.001}}, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}};
    expectRefused(pairProject(inline_), "i.size.scale", {"takes no size"});
  }

  // Each declared size left out, not > 0, not finite; and a size not
  // declared: refused naming file, pair and field, with what the size
  // measures and its unit.
  void badSizesNamedByTheirDeclaration() {
    for (const contact::ShapeDecl& d : contact::shapeDecls()) {
      if (d.name == "mesh") continue;
      const Sizes good = someSizes(d);
      for (const contact::SizeDecl& k : d.sizes) {
        const std::string field = "i.size." + k.name;
        ContactShapeDef s{"", d.name, good};
        s.size.erase(k.name);
        expectRefused(pairProject(s), field, {"missing", k.description, "[" + k.unit + "]"});
        for (double bad : {0.0, -0.25}) {
          s.size = good;
          s.size[k.name] = bad;
          expectRefused(pairProject(s), field, {k.description, "> 0 " + k.unit});
        }
        // Not finite: JSON has no infinity, so through the check the
        // loader calls.
        s.size = good;
        s.size[k.name] = std::numeric_limits<double>::infinity();
        contact::Shape shape;
        const auto e = contact::shapeOf(s, shape);
        QVERIFY2(e && e->field == "size." + k.name && e->message.find(k.description) != std::string::npos &&
                     e->message.find("finite") != std::string::npos,
                 e ? e->message.c_str() : "accepted");
      }
      ContactShapeDef s{"", d.name, good};
      s.size["bogus"] = 0.01;
      expectRefused(pairProject(s), "i.size.bogus", {"it takes: " + d.sizeNames()});
    }
  }

  // The declared rules by hand: a part drawn 50 x 40 x 20 mm, a flexible
  // body of 50 mm elements with a 10 x 20 mm section, no basis at all; the
  // sizes kept by name; every shape made so is one the loader takes.
  void defaultSizesFollowTheRules() {
    const contact::SizeBasis part{0.05, 0.04, 0.02, false}, beam{0.05, 0.01, 0.02, true}, none;
    QVERIFY(contact::defaultSizes("sphere", part) == (Sizes{{"radius", 0.01}}));  // half the smallest side
    QVERIFY(contact::defaultSizes("sphere", beam) == (Sizes{{"radius", 0.01}}));  // half the section's larger side
    QVERIFY(contact::defaultSizes("sphere", none) == (Sizes{{"radius", 0.01}}));
    QVERIFY(contact::defaultSizes("box", part) == (Sizes{{"lx", 0.05}, {"ly", 0.04}, {"lz", 0.02}}));
    QVERIFY(contact::defaultSizes("box", beam) == (Sizes{{"lx", 0.05}, {"ly", 0.01}, {"lz", 0.02}}));
    QVERIFY(contact::defaultSizes("box", none) == (Sizes{{"lx", 0.02}, {"ly", 0.02}, {"lz", 0.02}}));
    QVERIFY(contact::defaultSizes("cylinder", part) == (Sizes{{"radius", 0.02}, {"length", 0.02}}));
    QVERIFY(contact::defaultSizes("capsule", part) == (Sizes{{"radius", 0.02}, {"length", 0.02}}));
    QVERIFY(contact::defaultSizes("funnel", part) == (Sizes{{"radius", 0.02}, {"mouth_radius", 0.04}, {"length", 0.02}}));
    QVERIFY(contact::defaultSizes("funnel", none) == (Sizes{{"radius", 0.01}, {"mouth_radius", 0.02}, {"length", 0.02}}));
    QVERIFY(contact::defaultSizes("plane", part).empty());
    QVERIFY(contact::defaultSizes("mesh", part).empty());  // its scale is optional
    QVERIFY(contact::defaultSizes("torus", part).empty());
    // Kept by name: a sphere's radius is the cylinder's; a box's sides are
    // no funnel's; the mouth follows the kept base radius.
    const Sizes typed{{"radius", 0.007}, {"lx", 0.3}};
    QVERIFY(contact::defaultSizes("cylinder", part, typed) == (Sizes{{"radius", 0.007}, {"length", 0.02}}));
    QVERIFY(contact::defaultSizes("funnel", none, typed) ==
            (Sizes{{"radius", 0.007}, {"mouth_radius", 0.014}, {"length", 0.02}}));
    for (const contact::ShapeDecl& d : contact::shapeDecls()) {
      if (d.name == "mesh") continue;
      for (const contact::SizeBasis& b : {part, beam, none}) {
        contact::Shape shape;
        const auto e = contact::shapeOf({"ground.m", d.name, contact::defaultSizes(d.name, b)}, shape);
        QVERIFY2(!e, qPrintable(QString::fromStdString(d.name + ": " + (e ? e->field + " " + e->message : ""))));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestContactShapes)
#include "test_contact_shapes.moc"
