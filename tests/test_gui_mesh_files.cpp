// The 3D view draws a part's mesh file only from inside the project's folder
// (issue #26: a project from an untrusted sender reads no file outside it):
// the same confinement as the loader's, not OpenSceneGraph's own reader,
// which opened any path, followed links and blocked on a FIFO.
#include "scene3d_scene.h"

#include "model/project.h"

#include <osg/Geometry>
#include <osg/NodeVisitor>

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

using namespace pm;

namespace {

// A closed cube of side 2 m centred on the origin, ASCII STL.
void writeCube(const std::string& path) {
  std::ofstream f(path);
  f << "solid cube\n";
  const double v[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                          {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  const int t[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                        {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  for (const auto& tri : t) {
    f << " facet normal 0 0 0\n  outer loop\n";
    for (int k : tri) f << "   vertex " << v[k][0] << " " << v[k][1] << " " << v[k][2] << "\n";
    f << "  endloop\n endfacet\n";
  }
  f << "endsolid cube\n";
}

PartDef meshPart(const std::string& id, const std::string& file, double x) {
  PartDef p;
  p.id = id;
  p.markers = {{"m", {x, 0, 0}, {0, 0, 0}}};
  Geometry g;
  g.shape = "mesh";
  g.file = file;
  g.marker = "m";
  p.geometry = {g};
  return p;
}

// Counts the drawn triangle soups of 12 triangles: the cube's mesh.
struct CubeCount : osg::NodeVisitor {
  CubeCount() : NodeVisitor(TRAVERSE_ALL_CHILDREN) {}
  int count = 0;
  void apply(osg::Drawable& d) override {
    const osg::Geometry* g = d.asGeometry();
    if (!g || g->getNumPrimitiveSets() != 1) return;
    const auto* a = dynamic_cast<const osg::DrawArrays*>(g->getPrimitiveSet(0));
    if (a && a->getMode() == GL_TRIANGLES && a->getCount() == 36) ++count;
  }
};

}  // namespace

class TestGuiMeshFiles : public QObject {
  Q_OBJECT
 private slots:
  void onlyFilesInsideTheProjectAreDrawn() {
    QTemporaryDir root;
    const std::string top = root.path().toStdString();
    QVERIFY(QDir(root.path()).mkdir("project") && QDir(root.path()).mkdir("outside"));
    const std::string dir = top + "/project";
    writeCube(dir + "/cube.stl");
    writeCube(top + "/outside/cube.stl");
    QCOMPARE(::symlink((top + "/outside/cube.stl").c_str(), (dir + "/link.stl").c_str()), 0);
    QCOMPARE(::mkfifo((dir + "/fifo.stl").c_str(), 0600), 0);  // a reader would block on it

    Project pr;
    PartDef g;
    g.id = "ground";
    g.ground = true;
    g.markers = {{"o", {0, 0, 0}, {0, 0, 0}}};
    pr.mechanism.parts = {g,
                          meshPart("inside", "cube.stl", 0),
                          meshPart("up", "../outside/cube.stl", 10),
                          meshPart("absolute", top + "/outside/cube.stl", 20),
                          meshPart("linked", "link.stl", 30),
                          meshPart("fifo", "fifo.stl", 40)};
    gui::scene3d::MechanismScene scene;
    scene.build(pr, dir);  // returns: the FIFO is not opened
    // The cube inside is drawn: its bounds reach its corners (half diagonal sqrt(3)).
    const osg::BoundingSphere in = scene.objectBounds("inside");
    QVERIFY2(in.valid() && in.radius() > 1.7, qPrintable(QString::number(in.radius())));
    // The same cube named from outside the folder (by "..", an absolute
    // path or a link) or a FIFO is not read: one cube is drawn, not five.
    CubeCount cubes;
    scene.root()->accept(cubes);
    QCOMPARE(cubes.count, 1);
  }
};

QTEST_MAIN(TestGuiMeshFiles)
#include "test_gui_mesh_files.moc"
