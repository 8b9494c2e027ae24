#include "scene3d_beam_display.h"

#include "engine/engine.h"
#include "model/ground_paths.h"

#include <osg/Math>

#include <algorithm>
#include <array>
#include <set>
#include <utility>
#include <cmath>

namespace pm::gui::scene3d {

namespace {

// The beam and node holding marker "<beam>.<marker>" (node -1: none).
std::pair<const FlexibleBodyDef*, int> beamNodeOfMarker(const Mechanism& m, const std::string& ref) {
  const size_t dot = ref.find('.');
  if (dot == std::string::npos) return {nullptr, -1};
  const FlexibleBodyDef* d = m.flexibleBody(ref.substr(0, dot));
  if (!d) return {nullptr, -1};
  for (const BeamMarkerDef& mk : d->markers)
    if (mk.id == ref.substr(dot + 1)) return {d, mk.node};
  return {nullptr, -1};
}

// "<beam>.<marker>" -> the beam's node holding that marker, "" otherwise.
std::string nodeOfMarker(const Mechanism& m, const std::string& ref) {
  const auto [d, node] = beamNodeOfMarker(m, ref);
  return d ? d->id + "_n" + std::to_string(node) : std::string();
}

std::string partOfMarker(const std::string& ref) { return ref.substr(0, ref.find('.')); }

}  // namespace

osg::Vec4 stressColor(double f) {
  static const std::array<osg::Vec4, 5> stops{osg::Vec4(0.15f, 0.25f, 0.85f, 1), osg::Vec4(0.1f, 0.75f, 0.85f, 1),
                                              osg::Vec4(0.2f, 0.75f, 0.25f, 1), osg::Vec4(0.95f, 0.85f, 0.15f, 1),
                                              osg::Vec4(0.85f, 0.12f, 0.1f, 1)};
  if (!(f > 0)) return stops.front();
  if (f >= 1) return stops.back();
  const double x = f * (stops.size() - 1);
  const size_t i = static_cast<size_t>(x);
  const float w = static_cast<float>(x - i);
  return stops[i] * (1 - w) + stops[i + 1] * w;
}

void BeamDisplay::build(const Mechanism& m, const std::function<int(const std::string&)>& partIndex) {
  beams_.clear();
  welds_.clear();
  column_.clear();
  names_.clear();
  for (const FlexibleBodyDef& d : m.flexible_bodies) {
    Beam b;
    const int n = std::max(1, d.elements);
    b.elementLength = d.length / n;
    for (int j = 0; j <= n; ++j) b.parts.push_back(partIndex(d.id + "_n" + std::to_string(j)));
    placeFrame(m, d, b);
    if (std::find(b.parts.begin(), b.parts.end(), -1) != b.parts.end()) continue;
    for (int j = 0; j <= n; ++j) {
      const size_t k = static_cast<size_t>(b.parts[static_cast<size_t>(j)]);
      if (column_.size() <= k) column_.resize(k + 1, -1);
      column_[k] = static_cast<int>(names_.size());
      names_.push_back(d.id + "_e" + std::to_string(std::min(j, n - 1)) + ".stress");
    }
    beams_.push_back(std::move(b));
  }
  for (const JointDef& j : m.joints) {
    if (j.type != "fixed") continue;
    for (const auto& [nodeRef, partRef] : {std::pair(j.i, j.j), std::pair(j.j, j.i)}) {
      const std::string node = nodeOfMarker(m, nodeRef);
      const PartDef* p = m.part(partOfMarker(partRef));
      if (node.empty() || !p || p->ground) continue;
      const int kn = partIndex(node), kp = partIndex(p->id);
      if (kn >= 0 && kp >= 0) welds_.push_back({kp, kn});
    }
  }
  setStore(track_.store());
}

void BeamDisplay::placeFrame(const Mechanism& m, const FlexibleBodyDef& d, Beam& b) {
  // The nodes a joint holds to a body that reaches the ground without
  // passing through this beam (the ground, a bracket on it, a crank), and
  // whether the root is clamped.
  const std::set<std::string> heldBy = bodiesReachingGround(m, d.id);
  std::vector<int> held;
  bool clamped = false;
  for (const JointDef& j : m.joints)
    for (const auto& [nodeRef, otherRef] : {std::pair(j.i, j.j), std::pair(j.j, j.i)}) {
      const auto [beam, node] = beamNodeOfMarker(m, nodeRef);
      if (beam != &d || node < 0) continue;
      if (node == 0 && j.type == "fixed") clamped = true;
      if (heldBy.count(partOfMarker(otherRef))) held.push_back(node);
    }
  b.from = 0;
  b.to = -1;
  if (clamped || held.size() < 2) return;
  const auto [lo, hi] = std::minmax_element(held.begin(), held.end());
  if (*lo == *hi) return;
  b.from = *lo;
  b.to = *hi;
}

osg::Matrixd BeamDisplay::referenceFrame(const Beam& b, const std::vector<osg::Matrixd>& drawn) {
  const osg::Matrixd& a = drawn[static_cast<size_t>(b.parts[static_cast<size_t>(b.from)])];
  osg::Matrixd turn = a;
  turn.setTrans(0, 0, 0);
  if (b.to >= 0) {
    // Row vectors (world = local * M): node `from`'s axes turned the least
    // way that puts their x on the chord to node `to`.
    const osg::Vec3d chord = drawn[static_cast<size_t>(b.parts[static_cast<size_t>(b.to)])].getTrans() - a.getTrans();
    if (chord.length2() > 0) turn = turn * osg::Matrixd::rotate(osg::Vec3d(1, 0, 0) * turn, chord);
  }
  // The origin: where node 0 lies in that frame (node `from` is at x_from).
  osg::Matrixd frame = turn;
  frame.setTrans(a.getTrans() - osg::Vec3d(b.from * b.elementLength, 0, 0) * turn);
  return frame;
}

void BeamDisplay::exaggerate(double scale, std::vector<osg::Matrixd>& world) const {
  if (scale == 1.0) return;
  const std::vector<osg::Matrixd> drawn = world;  // as the run placed them
  for (const Beam& b : beams_) {
    const osg::Matrixd frame = referenceFrame(b, drawn);
    osg::Matrixd frameTurn = frame;
    frameTurn.setTrans(0, 0, 0);
    for (size_t j = 0; j < b.parts.size(); ++j) {
      const osg::Matrixd& m = drawn[static_cast<size_t>(b.parts[j])];
      const osg::Vec3d rigid = osg::Vec3d(j * b.elementLength, 0, 0) * frame;
      // Row vectors: world = local * M, so the node's turn in the frame's axes is R_j R_f^T.
      osg::Matrixd turn = m;
      turn.setTrans(0, 0, 0);
      turn = turn * osg::Matrixd::inverse(frameTurn);
      double angle = 0;
      osg::Vec3d axis(1, 0, 0);
      turn.getRotate().getRotate(angle, axis);
      if (angle > osg::PI) angle -= 2 * osg::PI;
      osg::Matrixd out = osg::Matrixd::rotate(scale * angle, axis) * frameTurn;
      out.setTrans(rigid + (m.getTrans() - rigid) * scale);
      world[static_cast<size_t>(b.parts[j])] = out;
    }
  }
  for (const Weld& w : welds_) {
    const osg::Matrixd rel = drawn[static_cast<size_t>(w.part)] * osg::Matrixd::inverse(drawn[static_cast<size_t>(w.node)]);
    world[static_cast<size_t>(w.part)] = rel * world[static_cast<size_t>(w.node)];
  }
}

void BeamDisplay::setStore(const ResultStore* store) {
  track_.setStore(store, names_);
  updateMax();
}

void BeamDisplay::refresh() {
  if (!names_.empty() && track_.refresh()) updateMax();
}

void BeamDisplay::updateMax() {
  if (track_.firstNew() == 0) max_ = 0.0;  // a new run
  for (size_t c = 0; c < names_.size(); ++c) {
    const std::vector<double>& v = track_.column(c);
    for (size_t i = track_.firstNew(); i < v.size(); ++i)
      if (std::isfinite(v[i])) max_ = std::max(max_, std::abs(v[i]));
  }
}

bool BeamDisplay::nodeStress(size_t k, double t, double& stress) const {
  if (k >= column_.size() || column_[k] < 0 || track_.rows() == 0) return false;
  if (!track_.has(static_cast<size_t>(column_[k]))) return false;
  stress = std::abs(track_.bracket(t).at(track_.column(static_cast<size_t>(column_[k]))));
  return std::isfinite(stress);
}

}  // namespace pm::gui::scene3d
