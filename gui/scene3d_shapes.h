// Building blocks of the 3D mechanism scene: frames from roll-pitch-yaw,
// colours, lit and unlit render states, and the OpenSceneGraph nodes for
// display geometry, grid, axes, marker triads, joint glyphs and springs.
// Pure scene-graph code: no Qt, no model lookups (scene3d_scene does those).
#pragma once

#include "model/mechanism.h"
#include "model/triangle_mesh.h"

#include <osg/Geometry>
#include <osg/MatrixTransform>
#include <osg/Matrixd>
#include <osg/Node>
#include <osg/Vec3d>
#include <osg/Vec4>

#include <string>

namespace pm::gui::scene3d {

// Node masks: everything is drawn; only kPickMask nodes are hit by picking.
constexpr unsigned kDrawMask = 0x2;
constexpr unsigned kPickMask = 0x1;

osg::Vec3d toOsg(const Vec3& v);
// R = Rz(yaw) Ry(pitch) Rx(roll), as the model defines it.
osg::Quat rpyQuat(const Vec3& rpy);
// Frame placed at `position` with orientation `rpy` (OSG row-vector convention:
// local point p maps to p * frameMatrix(...)).
osg::Matrixd frameMatrix(const Vec3& position, const Vec3& rpy);

// "#rrggbb" to a colour; `fallback` when empty or malformed.
osg::Vec4 parseColor(const std::string& hex, const osg::Vec4& fallback);
// The i-th colour of the default palette for parts without a colour.
osg::Vec4 paletteColor(int i);

// Per-pixel soft lighting (hemisphere ambient, key and fill light fixed to
// the camera) from vertex colours; a non-zero uniform "pm_highlight" (vec3)
// tints the surface towards that colour, used for selection.
void applyLitState(osg::StateSet* ss);
// Vertex colours only (lines, background).
void applyUnlitState(osg::StateSet* ss);

// Tessellation of round solids: parts, and the small joint glyphs (coarser:
// a software renderer pays for every triangle of 200 of them).
constexpr float kPartDetail = 0.5f;
constexpr float kGlyphDetail = 0.3f;

// Solids, coloured per vertex, in the frame they are added to.
// A triangle mesh (a CAD part), flat-shaded: each triangle its own normal.
osg::ref_ptr<osg::Node> makeMesh(const TriangleMesh& mesh, const osg::Vec4& color);
osg::ref_ptr<osg::Node> makeBox(const osg::Vec3d& center, const osg::Vec3d& size, const osg::Vec4& color);
// Along +z from `base` (ADAMS convention: the marker is the base centre).
osg::ref_ptr<osg::Node> makeCylinder(const osg::Vec3d& base, const osg::Vec3d& axis, double radius, double length,
                                     const osg::Vec4& color, float detail = kPartDetail);
osg::ref_ptr<osg::Node> makeSphere(const osg::Vec3d& center, double radius, const osg::Vec4& color,
                                   float detail = kPartDetail);
// A flat bar with rounded ends, built once and placed between two points
// by placeLink(), which only sets its transforms (a marker dragged with the
// gizmo carries the links drawn to it without rebuilding them): a unit bar
// stretched along its length and two end discs.
struct Link {
  osg::ref_ptr<osg::Group> node;
  osg::ref_ptr<osg::MatrixTransform> bar, endA, endB;
};
Link makeLink(double width, const osg::Vec4& color);
// From a to b; `normal` is the bar's thickness direction (made
// perpendicular to a-b; any perpendicular when degenerate). The ends'
// frames: origin at a (b), x along the bar, z along the normal.
void placeLink(Link& link, const osg::Vec3d& a, const osg::Vec3d& b, osg::Vec3d normal);
// An arrow from `base` along `dir` (its length is the arrow's).
osg::ref_ptr<osg::Node> makeArrow(const osg::Vec3d& base, const osg::Vec3d& dir, double radius,
                                  const osg::Vec4& color);

// Unlit lines: x red, y green, z blue, from the origin.
osg::ref_ptr<osg::Node> makeTriad(double length);
// Square grid in the xy plane at height z, centred on (cx, cy).
osg::ref_ptr<osg::Node> makeGrid(double cx, double cy, double z, double halfExtent, double step);
// Full-window vertical gradient drawn behind everything.
osg::ref_ptr<osg::Node> makeBackground(const osg::Vec4& top, const osg::Vec4& bottom);

// A coil spring as a tube: a coil of unit length under a transform that
// updateHelix() places and stretches between two points.
struct Helix {
  osg::ref_ptr<osg::MatrixTransform> node;
  double coilRadius = 0.01;
  double wireRadius = 0.002;
  int turns = 8;
};
Helix makeHelix(double coilRadius, double wireRadius, int turns, const osg::Vec4& color);
void updateHelix(Helix& h, const osg::Vec3d& a, const osg::Vec3d& b);

}  // namespace pm::gui::scene3d
