// Checks of a mechanism's geometry before a run (pneumech check, the
// studio's Check) and of a run's result after it: what the equations would
// integrate without complaint but no machine could do.
//  - An attached cylinder whose stroke the linkage cannot use: the driven
//    joint is swept kinematically through the cylinder's stroke, both ways
//    from the start, and a dead point (the cylinder's length turns back
//    before the stroke ends: the linkage goes over centre) or a lock-up is
//    reported with the joint and where.
//  - A cylinder that cannot move its linkage at all: at the start no joint
//    changes its length (a revolute axis along its line, a slide across it,
//    the line through the pivot, or no degree of freedom).
//  - A part left at the default inertia whose drawn geometry (solids, a
//    closed mesh file, else links as slender bars) says otherwise.
// The markers' distance itself (pneumatics/cylinder_length.h) is refused by
// the compile, with the markers and the allowed range named.
#pragma once

#include "model/mass_properties.h"
#include "model/project.h"
#include "solver/result_store.h"

#include <optional>
#include <string>
#include <vector>

namespace pm {

struct GeometryFinding {
  std::string object;   // component or part id
  std::string message;  // the whole sentence, naming joints and where
};

// Every finding of the project's mechanism; none without one. Never throws
// for a project the compile refuses: those errors are the compile's.
// `readMesh` reads mesh shapes (io/mesh_file.h: meshReaderFor); without it,
// or for a mesh it cannot read or that is not closed, a mesh says nothing.
// Sub-circuits are seen expanded, as the compiler sees them (an inner
// cylinder is `<instance>.<inner id>`), here and in the two below.
std::vector<GeometryFinding> checkMechanismGeometry(const Project& p, const MeshReader& readMesh = {});

// A run's passes over a dead point: the attached cylinder reversed (its
// rate changed sign away from its stops) while the joint that drives its
// length kept moving. Needs the result channels <cyl>.x, <cyl>.v and the
// joint's rate.
std::vector<GeometryFinding> deadPointCrossings(const Project& p, const ResultStore& results);
// The channels deadPointCrossings reads (a superset: every joint's rate and
// coordinate when a cylinder is attached), for a run that keeps only some.
std::vector<std::string> deadPointChannels(const Project& p);

// What an attached cylinder is attached to, as the property editor shows it.
struct CylinderAttachment {
  std::string barrel, rod, joint;  // markers, or the joint it acts along
  bool known = false;              // the mechanism assembled: the lengths below hold
  double distance = 0.0;           // of the markers (or the joint's travel) at the assembled start [m]
  double retracted = 0.0, extended = 0.0;  // length range between the mounting points [m]
  double x0 = 0.0;                         // initial stroke [m]
  std::string problem;                     // why the distance does not fit, if it does not
  // The distance the start needs: exactly (L_retracted given: L + x0) or at least.
  double required = 0.0;
  bool exact = false;
};
std::optional<CylinderAttachment> cylinderAttachment(const Project& p, const std::string& component);

}  // namespace pm
