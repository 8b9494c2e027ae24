#include "scene3d_shapes.h"

#include <osg/Camera>
#include <osg/BlendFunc>
#include <osg/Depth>
#include <osg/Geode>
#include <osg/LineWidth>
#include <osg/Program>
#include <osg/ShapeDrawable>
#include <osg/Uniform>

#include <algorithm>
#include <map>
#include <cmath>

namespace pm::gui::scene3d {

namespace {

const char* kLitVertex = R"(#version 120
varying vec3 vNormal;
varying vec3 vPos;
varying vec4 vColor;
void main() {
  vec4 p = gl_ModelViewMatrix * gl_Vertex;
  vPos = p.xyz;
  vNormal = gl_NormalMatrix * gl_Normal;
  vColor = gl_Color;
  gl_Position = ftransform();
}
)";

const char* kLitFragment = R"(#version 120
varying vec3 vNormal;
varying vec3 vPos;
varying vec4 vColor;
uniform vec3 pm_highlight;
uniform vec4 pm_tint;  // a colour replacing the vertex colours by its alpha (stress colours)
void main() {
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
  vec3 v = normalize(-vPos);
  vec3 key = normalize(vec3(-0.35, 0.55, 0.75));
  vec3 fill = normalize(vec3(0.6, -0.25, 0.5));
  float hemi = 0.5 + 0.5 * n.y;
  vec3 ambient = mix(vec3(0.30, 0.29, 0.28), vec3(0.45, 0.47, 0.52), hemi);
  float dKey = max(dot(n, key), 0.0);
  float dFill = max(dot(n, fill), 0.0);
  float spec = pow(max(dot(n, normalize(key + v)), 0.0), 40.0) * 0.30;
  float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.12;
  vec3 base = mix(vColor.rgb, pm_tint.rgb, pm_tint.a);
  vec3 c = base * (ambient + 0.70 * dKey + 0.22 * dFill) + vec3(spec + rim);
  float selected = step(1e-6, dot(pm_highlight, pm_highlight));
  c = mix(c, pm_highlight * (0.6 + 0.45 * dKey) + vec3(spec), 0.8 * selected);
  gl_FragColor = vec4(c, vColor.a);
}
)";

const char* kUnlitVertex = R"(#version 120
varying vec4 vColor;
void main() {
  vColor = gl_Color;
  gl_Position = ftransform();
}
)";

const char* kUnlitFragment = R"(#version 120
varying vec4 vColor;
uniform vec3 pm_highlight;
void main() {
  float selected = step(1e-6, dot(pm_highlight, pm_highlight));
  gl_FragColor = mix(vColor, vec4(pm_highlight, 1.0), selected);
}
)";

osg::Program* litProgram() {
  static osg::ref_ptr<osg::Program> p = [] {
    osg::ref_ptr<osg::Program> prog = new osg::Program;
    prog->setName("pm_lit");
    prog->addShader(new osg::Shader(osg::Shader::VERTEX, kLitVertex));
    prog->addShader(new osg::Shader(osg::Shader::FRAGMENT, kLitFragment));
    return prog;
  }();
  return p.get();
}

osg::Program* unlitProgram() {
  static osg::ref_ptr<osg::Program> p = [] {
    osg::ref_ptr<osg::Program> prog = new osg::Program;
    prog->setName("pm_unlit");
    prog->addShader(new osg::Shader(osg::Shader::VERTEX, kUnlitVertex));
    prog->addShader(new osg::Shader(osg::Shader::FRAGMENT, kUnlitFragment));
    return prog;
  }();
  return p.get();
}

osg::TessellationHints* hints(float detail = kPartDetail) {
  static std::map<float, osg::ref_ptr<osg::TessellationHints>> made;
  osg::ref_ptr<osg::TessellationHints>& t = made[detail];
  if (!t) {
    t = new osg::TessellationHints;
    t->setDetailRatio(detail);
  }
  return t.get();
}

// Closed solids: back faces are hidden anyway, and Mesa's software renderer
// spends a good share of a large frame rasterising them.
void cullBackFaces(osg::Node* n) { n->getOrCreateStateSet()->setMode(GL_CULL_FACE, osg::StateAttribute::ON); }

osg::ref_ptr<osg::Node> solid(osg::Shape* shape, const osg::Vec4& color, float detail) {
  osg::ref_ptr<osg::ShapeDrawable> d = new osg::ShapeDrawable(shape, hints(detail));
  d->setColor(color);
  osg::ref_ptr<osg::Geode> g = new osg::Geode;
  g->addDrawable(d);
  cullBackFaces(g.get());
  return g;
}

osg::ref_ptr<osg::Geode> lines(osg::Vec3Array* v, osg::Vec4Array* c, float width) {
  osg::ref_ptr<osg::Geometry> geom = new osg::Geometry;
  geom->setVertexArray(v);
  geom->setColorArray(c, osg::Array::BIND_PER_VERTEX);
  geom->addPrimitiveSet(new osg::DrawArrays(GL_LINES, 0, static_cast<GLsizei>(v->size())));
  osg::ref_ptr<osg::Geode> g = new osg::Geode;
  g->addDrawable(geom);
  applyUnlitState(g->getOrCreateStateSet());
  g->getOrCreateStateSet()->setAttributeAndModes(new osg::LineWidth(width));
  return g;
}

// Rotation taking +z to `dir`.
osg::Quat zTo(const osg::Vec3d& dir) {
  osg::Quat q;
  q.makeRotate(osg::Vec3d(0, 0, 1), dir);
  return q;
}

}  // namespace

osg::Vec3d toOsg(const Vec3& v) { return {v[0], v[1], v[2]}; }

osg::Matrixd frameMatrix(const Vec3& p, const Vec3& rpy) {
  const double cr = std::cos(rpy[0]), sr = std::sin(rpy[0]);
  const double cp = std::cos(rpy[1]), sp = std::sin(rpy[1]);
  const double cy = std::cos(rpy[2]), sy = std::sin(rpy[2]);
  // Column-vector R = Rz Ry Rx; OSG stores its transpose (row vectors).
  const double R[3][3] = {{cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr},
                          {sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr},
                          {-sp, cp * sr, cp * cr}};
  return osg::Matrixd(R[0][0], R[1][0], R[2][0], 0.0,  //
                      R[0][1], R[1][1], R[2][1], 0.0,  //
                      R[0][2], R[1][2], R[2][2], 0.0,  //
                      p[0], p[1], p[2], 1.0);
}

osg::Quat rpyQuat(const Vec3& rpy) { return frameMatrix({0, 0, 0}, rpy).getRotate(); }

osg::Vec4 parseColor(const std::string& hex, const osg::Vec4& fallback) {
  if (hex.size() != 7 || hex[0] != '#') return fallback;
  unsigned v = 0;
  for (size_t i = 1; i < 7; ++i) {
    const char c = hex[i];
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0) return fallback;
    v = v * 16 + static_cast<unsigned>(d);
  }
  return {((v >> 16) & 255) / 255.0f, ((v >> 8) & 255) / 255.0f, (v & 255) / 255.0f, 1.0f};
}

osg::Vec4 paletteColor(int i) {
  static const char* palette[] = {"#4a90c2", "#e08a3c", "#5aa469", "#c75b5b", "#8e6fbf",
                                  "#c9a93b", "#4bb3b0", "#b5688f", "#7d8c99", "#9bbb59"};
  const int n = static_cast<int>(std::size(palette));
  return parseColor(palette[((i % n) + n) % n], {0.6f, 0.6f, 0.6f, 1.0f});
}

void applyLitState(osg::StateSet* ss) {
  ss->setAttributeAndModes(litProgram(), osg::StateAttribute::ON);
  ss->addUniform(new osg::Uniform("pm_highlight", osg::Vec3f(0, 0, 0)));
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
}

void applyUnlitState(osg::StateSet* ss) {
  ss->setAttributeAndModes(unlitProgram(), osg::StateAttribute::ON);
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF);
}

osg::ref_ptr<osg::Node> makeMesh(const TriangleMesh& mesh, const osg::Vec4& color) {
  osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array;
  osg::ref_ptr<osg::Vec3Array> n = new osg::Vec3Array;
  for (const auto& t : mesh.triangles) {
    const osg::Vec3d a = toOsg(mesh.vertices[t[0]]), b = toOsg(mesh.vertices[t[1]]), c = toOsg(mesh.vertices[t[2]]);
    osg::Vec3d normal = (b - a) ^ (c - a);
    normal.normalize();
    for (const osg::Vec3d& p : {a, b, c}) v->push_back(p), n->push_back(normal);
  }
  osg::ref_ptr<osg::Geometry> geom = new osg::Geometry;
  geom->setVertexArray(v);
  geom->setNormalArray(n, osg::Array::BIND_PER_VERTEX);
  osg::ref_ptr<osg::Vec4Array> c = new osg::Vec4Array;
  c->push_back(color);
  geom->setColorArray(c, osg::Array::BIND_OVERALL);
  geom->addPrimitiveSet(new osg::DrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(v->size())));
  osg::ref_ptr<osg::Geode> g = new osg::Geode;
  g->addDrawable(geom);
  cullBackFaces(g.get());
  return g;
}

osg::ref_ptr<osg::Node> makeBox(const osg::Vec3d& c, const osg::Vec3d& s, const osg::Vec4& color) {
  return solid(new osg::Box(c, s.x(), s.y(), s.z()), color, kPartDetail);
}

osg::ref_ptr<osg::Node> makeCylinder(const osg::Vec3d& base, const osg::Vec3d& axis, double r, double len,
                                     const osg::Vec4& color, float detail) {
  osg::Vec3d a = axis;
  a.normalize();
  auto* cyl = new osg::Cylinder(base + a * (len / 2), r, len);
  cyl->setRotation(zTo(a));
  return solid(cyl, color, detail);
}

osg::ref_ptr<osg::Node> makeSphere(const osg::Vec3d& c, double r, const osg::Vec4& color, float detail) {
  return solid(new osg::Sphere(c, r), color, detail);
}

Link makeLink(double width, const osg::Vec4& color) {
  const double t = 0.5 * width;  // thickness
  auto geode = [&](osg::Shape* shape) {
    osg::ref_ptr<osg::ShapeDrawable> d = new osg::ShapeDrawable(shape, hints());
    d->setColor(color);
    osg::ref_ptr<osg::Geode> g = new osg::Geode;
    g->addDrawable(d);
    cullBackFaces(g.get());
    return g;
  };
  Link l;
  l.node = new osg::Group;
  l.bar = new osg::MatrixTransform;
  l.endA = new osg::MatrixTransform;
  l.endB = new osg::MatrixTransform;
  // Box axes: x along the bar (unit length, stretched), y across, z through
  // the thickness; the ends are discs about z, one geode under both.
  l.bar->addChild(geode(new osg::Box({0.5f, 0, 0}, 1.0f, float(width), float(t))));
  osg::ref_ptr<osg::Geode> disc = geode(new osg::Cylinder({0, 0, 0}, float(width / 2), float(t)));
  l.endA->addChild(disc);
  l.endB->addChild(disc);
  for (osg::MatrixTransform* x : {l.bar.get(), l.endA.get(), l.endB.get()}) {
    x->setDataVariance(osg::Object::DYNAMIC);
    l.node->addChild(x);
  }
  return l;
}

void placeLink(Link& link, const osg::Vec3d& a, const osg::Vec3d& b, osg::Vec3d normal) {
  osg::Vec3d d = b - a;
  const double len = d.length();
  if (len < 1e-12) {  // the ends meet: one disc, no bar
    d = std::abs(normal.x()) < 0.9 ? osg::Vec3d(1, 0, 0) : osg::Vec3d(0, 1, 0);
    if (normal.length() < 1e-12) normal = {0, 0, 1};
  } else {
    d /= len;
  }
  normal -= d * (normal * d);
  if (normal.length() < 1e-6) normal = std::abs(d.z()) < 0.9 ? d ^ osg::Vec3d(0, 0, 1) : d ^ osg::Vec3d(1, 0, 0);
  normal.normalize();
  const osg::Vec3d side = normal ^ d;
  // Rows: where the end frame's x, y, z go (OSG's row vectors).
  const osg::Matrixd turn(d.x(), d.y(), d.z(), 0, side.x(), side.y(), side.z(), 0, normal.x(), normal.y(), normal.z(),
                          0, 0, 0, 0, 1);
  link.endA->setMatrix(turn * osg::Matrixd::translate(a));
  link.endB->setMatrix(turn * osg::Matrixd::translate(b));
  link.bar->setNodeMask(len < 1e-12 ? 0u : ~0u);
  if (len >= 1e-12) link.bar->setMatrix(osg::Matrixd::scale(len, 1, 1) * turn * osg::Matrixd::translate(a));
}

osg::ref_ptr<osg::Node> makeArrow(const osg::Vec3d& base, const osg::Vec3d& dir, double r, const osg::Vec4& color) {
  const double len = dir.length();
  osg::Vec3d a = dir / len;
  osg::ref_ptr<osg::Geode> g = new osg::Geode;
  const double head = std::min(0.25 * len, 4 * r);
  auto* shaft = new osg::Cylinder(base + a * ((len - head) / 2), r, len - head);
  shaft->setRotation(zTo(a));
  auto* cone = new osg::Cone(base + a * (len - head * 0.75), 2.2 * r, head);
  cone->setRotation(zTo(a));
  for (osg::Shape* s : {static_cast<osg::Shape*>(shaft), static_cast<osg::Shape*>(cone)}) {
    auto* d = new osg::ShapeDrawable(s, hints());
    d->setColor(color);
    g->addDrawable(d);
  }
  return g;
}

osg::ref_ptr<osg::Node> makeTriad(double length) {
  osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array;
  osg::ref_ptr<osg::Vec4Array> c = new osg::Vec4Array;
  const osg::Vec4 cols[3] = {{0.9f, 0.2f, 0.2f, 1}, {0.2f, 0.75f, 0.25f, 1}, {0.25f, 0.4f, 0.95f, 1}};
  for (int i = 0; i < 3; ++i) {
    osg::Vec3 e;
    e[i] = static_cast<float>(length);
    v->push_back({0, 0, 0});
    v->push_back(e);
    c->push_back(cols[i]);
    c->push_back(cols[i]);
  }
  auto g = lines(v.get(), c.get(), 2.0f);
  g->getOrCreateStateSet()->setAttributeAndModes(new osg::Depth(osg::Depth::ALWAYS));
  g->getOrCreateStateSet()->setRenderBinDetails(20, "RenderBin");
  return g;
}

osg::ref_ptr<osg::Node> makeGrid(double cx, double cy, double z, double half, double step) {
  osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array;
  osg::ref_ptr<osg::Vec4Array> c = new osg::Vec4Array;
  const int n = std::max(1, static_cast<int>(std::ceil(half / step)));
  const double h = n * step;
  for (int i = -n; i <= n; ++i) {
    const bool major = i % 5 == 0;
    const osg::Vec4 col = major ? osg::Vec4(0.42f, 0.47f, 0.54f, 0.55f) : osg::Vec4(0.55f, 0.60f, 0.67f, 0.25f);
    const double s = i * step;
    v->push_back({float(cx + s), float(cy - h), float(z)});
    v->push_back({float(cx + s), float(cy + h), float(z)});
    v->push_back({float(cx - h), float(cy + s), float(z)});
    v->push_back({float(cx + h), float(cy + s), float(z)});
    for (int k = 0; k < 4; ++k) c->push_back(col);
  }
  auto g = lines(v.get(), c.get(), 1.0f);
  // Blend the colour, keep the framebuffer opaque (destination alpha 1):
  // a translucent pixel would show through when Qt composes the widget.
  g->getOrCreateStateSet()->setAttributeAndModes(
      new osg::BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA));
  return g;
}

osg::ref_ptr<osg::Node> makeBackground(const osg::Vec4& top, const osg::Vec4& bottom) {
  osg::ref_ptr<osg::Camera> cam = new osg::Camera;
  cam->setReferenceFrame(osg::Transform::ABSOLUTE_RF);
  cam->setRenderOrder(osg::Camera::NESTED_RENDER);
  cam->setProjectionMatrixAsOrtho2D(0, 1, 0, 1);
  cam->setViewMatrix(osg::Matrix::identity());
  cam->setClearMask(0);
  cam->setAllowEventFocus(false);
  osg::ref_ptr<osg::Geometry> q = new osg::Geometry;
  osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array;
  osg::ref_ptr<osg::Vec4Array> c = new osg::Vec4Array;
  v->push_back({0, 0, 0});
  v->push_back({1, 0, 0});
  v->push_back({1, 1, 0});
  v->push_back({0, 1, 0});
  c->push_back(bottom);
  c->push_back(bottom);
  c->push_back(top);
  c->push_back(top);
  q->setVertexArray(v);
  q->setColorArray(c, osg::Array::BIND_PER_VERTEX);
  q->addPrimitiveSet(new osg::DrawArrays(GL_QUADS, 0, 4));
  q->setCullingActive(false);
  osg::ref_ptr<osg::Geode> g = new osg::Geode;
  g->addDrawable(q);
  g->setCullingActive(false);
  osg::StateSet* ss = g->getOrCreateStateSet();
  applyUnlitState(ss);
  ss->setMode(GL_DEPTH_TEST, osg::StateAttribute::OFF);
  ss->setAttributeAndModes(new osg::Depth(osg::Depth::ALWAYS, 0, 1, false));
  ss->setRenderBinDetails(-100, "RenderBin");
  cam->addChild(g);
  cam->setCullingActive(false);
  return cam;
}

Helix makeHelix(double coilRadius, double wireRadius, int turns, const osg::Vec4& color) {
  // One coil of unit length along +z, built once; updateHelix() only moves
  // and stretches its transform (no geometry upload per frame).
  constexpr int kSeg = 12;   // per turn
  constexpr int kSides = 5;  // around the wire
  Helix h;
  h.coilRadius = coilRadius;
  h.wireRadius = wireRadius;
  h.turns = turns;
  h.node = new osg::MatrixTransform;
  h.node->setDataVariance(osg::Object::DYNAMIC);
  osg::ref_ptr<osg::Geometry> geom = new osg::Geometry;
  osg::ref_ptr<osg::Vec4Array> c = new osg::Vec4Array;
  c->push_back(color);
  geom->setColorArray(c, osg::Array::BIND_OVERALL);
  const int n = turns * kSeg + 1;
  osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array(static_cast<unsigned>(n * kSides));
  osg::ref_ptr<osg::Vec3Array> nrm = new osg::Vec3Array(v->size());
  const osg::Vec3d axis(0, 0, 1), u(1, 0, 0), w(0, 1, 0);
  for (int i = 0; i < n; ++i) {
    const double s = static_cast<double>(i) / (n - 1);
    const double phi = 2 * osg::PI * turns * s;
    const osg::Vec3d radial = u * std::cos(phi) + w * std::sin(phi);
    const osg::Vec3d center = axis * s + radial * coilRadius;
    osg::Vec3d tangent = (u * -std::sin(phi) + w * std::cos(phi)) * (2 * osg::PI * turns * coilRadius) + axis;
    tangent.normalize();
    osg::Vec3d bin = tangent ^ radial;
    bin.normalize();
    const osg::Vec3d nor = bin ^ tangent;
    for (int k = 0; k < kSides; ++k) {
      const double th = 2 * osg::PI * k / kSides;
      const osg::Vec3d dn = nor * std::cos(th) + bin * std::sin(th);
      (*v)[i * kSides + k] = center + dn * wireRadius;
      (*nrm)[i * kSides + k] = dn;
    }
  }
  geom->setVertexArray(v);
  geom->setNormalArray(nrm, osg::Array::BIND_PER_VERTEX);
  osg::ref_ptr<osg::DrawElementsUInt> tri = new osg::DrawElementsUInt(GL_TRIANGLES);
  for (int i = 0; i + 1 < n; ++i)
    for (int k = 0; k < kSides; ++k) {
      const unsigned p0 = i * kSides + k, p1 = i * kSides + (k + 1) % kSides;
      const unsigned q0 = p0 + kSides, q1 = p1 + kSides;
      for (unsigned idx : {p0, q0, p1, p1, q0, q1}) tri->push_back(idx);
    }
  geom->addPrimitiveSet(tri);
  osg::ref_ptr<osg::Geode> g = new osg::Geode;
  g->addDrawable(geom);
  h.node->addChild(g);
  updateHelix(h, {0, 0, 0}, {0, 0, 0.1});
  return h;
}

void updateHelix(Helix& h, const osg::Vec3d& a, const osg::Vec3d& b) {
  osg::Vec3d axis = b - a;
  // Not quite flat when the ends meet: the normals need an invertible matrix.
  const double len = std::max(axis.length(), 1e-3 * h.coilRadius);
  if (axis.length() > 0) axis.normalize();
  else axis = {0, 0, 1};
  osg::Quat q;
  q.makeRotate(osg::Vec3d(0, 0, 1), axis);
  h.node->setMatrix(osg::Matrixd::scale(1, 1, len) * osg::Matrixd::rotate(q) * osg::Matrixd::translate(a));
}

}  // namespace pm::gui::scene3d
