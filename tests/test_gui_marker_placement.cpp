// Where "add marker here" puts a marker (gui/marker_placement.h): the picked
// point and normal in the part frame, z along the normal, snapped to the
// step only along the surface; onto another part's marker: the same frame.
// Checked against frames written out by hand (1e-6 m, 1e-6 rad: the view's
// matrices are float).
#include "marker_placement.h"

#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;

namespace {

QMatrix4x4 pose(const Vec3& p, const Vec3& rpy) {
  QMatrix4x4 m = rotationFromRpy(rpy);
  m.setColumn(3, QVector4D(float(p[0]), float(p[1]), float(p[2]), 1));
  return m;
}

void near(const Vec3& got, const Vec3& want, double tol) {
  for (int k = 0; k < 3; ++k)
    QVERIFY2(std::abs(got[k] - want[k]) <= tol,
             qPrintable(QString("[%1] = %2, expected %3").arg(k).arg(got[k], 0, 'g', 12).arg(want[k], 0, 'g', 12)));
}

}  // namespace

class TestGuiMarkerPlacement : public QObject {
  Q_OBJECT
 private slots:
  void rpyRoundTrip() {
    const Vec3 rpy{0.3, -0.7, 2.1};
    near(rpyFromRotation(rotationFromRpy(rpy)), rpy, 1e-6);
    // Rz(90 deg) takes x to y.
    const QVector3D y = rotationFromRpy({0, 0, M_PI / 2}).mapVector(QVector3D(1, 0, 0));
    QVERIFY((y - QVector3D(0, 1, 0)).length() < 1e-6);
  }

  // The top face (normal +z) of a part at (1, 2, 3): the point in part
  // coordinates, x and y rounded to 5 mm, z (off the face) exact; axes as
  // the part's.
  void topFaceSnapsAlongTheFace() {
    const QMatrix4x4 part = pose({1, 2, 3}, {0, 0, 0});
    const MarkerPlacement p = placeOnSurface(part, QVector3D(1.1013f, 1.9978f, 3.01f), QVector3D(0, 0, 1), 0.005);
    near(p.position, {0.1, -0.0, 0.01}, 1e-6);
    QCOMPARE(p.position[0], 0.1);  // snapped exactly (0.1013 -> 0.100)
    QCOMPARE(p.position[1], 0.0);  // -0.0022 -> 0, not -0
    near(p.orientation, {0, 0, 0}, 1e-12);
  }

  // A side face with normal +x of a part turned 90 deg about z: in the part
  // frame the normal is -y; the marker's z axis must be the part's -y.
  void turnedPartSideFace() {
    const QMatrix4x4 part = pose({0, 0, 0}, {0, 0, M_PI / 2});
    const MarkerPlacement p = placeOnSurface(part, QVector3D(0.02f, 0.0513f, 0.0f), QVector3D(1, 0, 0), 0.01);
    near(p.position, {0.05, -0.02, 0.0}, 1e-6);  // world (0.02, 0.0513) is part (0.0513, -0.02)
    QCOMPARE(p.position[0], 0.05);
    const QVector3D z = rotationFromRpy(p.orientation).mapVector(QVector3D(0, 0, 1));
    QVERIFY2((z - QVector3D(0, -1, 0)).length() < 1e-6, "z along the outward normal");
  }

  // A normal 1 degree off the part's y axis is put on it; 5 degrees is kept.
  void nearlyAxialNormals() {
    const QMatrix4x4 part;
    const float a = float(M_PI / 180);
    MarkerPlacement p = placeOnSurface(part, QVector3D(0, 0, 0), QVector3D(std::sin(a), std::cos(a), 0), 0);
    QVERIFY((rotationFromRpy(p.orientation).mapVector(QVector3D(0, 0, 1)) - QVector3D(0, 1, 0)).length() < 1e-6);
    p = placeOnSurface(part, QVector3D(0, 0, 0), QVector3D(std::sin(5 * a), std::cos(5 * a), 0), 0);
    const QVector3D z = rotationFromRpy(p.orientation).mapVector(QVector3D(0, 0, 1));
    QVERIFY(std::abs(z.x() - std::sin(5 * a)) < 1e-6 && std::abs(z.y() - std::cos(5 * a)) < 1e-6);
  }

  // Onto another part's marker: the same world frame, in this part's axes.
  void coincidentFrame() {
    const QMatrix4x4 part = pose({0.1, 0, 0.2}, {0, 0, M_PI / 2});
    const QMatrix4x4 other = pose({0.1, 0.3, 0.2}, {M_PI / 2, 0, 0});
    const MarkerPlacement p = coincideWith(part, other);
    near(p.position, {0.3, 0, 0}, 1e-6);  // +y world is +x of the part turned 90 deg
    const QMatrix4x4 back = part * pose(p.position, p.orientation);
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) QVERIFY(std::abs(back(r, c) - other(r, c)) < 1e-6);
    // Angles that are whole multiples of 15 degrees come out exactly.
    QCOMPARE(p.orientation[0], M_PI / 2);
    QCOMPARE(p.orientation[2], -M_PI / 2);
  }
};

QTEST_GUILESS_MAIN(TestGuiMarkerPlacement)
#include "test_gui_marker_placement.moc"
