// Contact pairs and latches in the key results (issue 27): what a designer
// reads off a run where parts touch (a gripper's fingers on a box, a boom's
// tip in its funnel) and latches catch. Computed from a pair's or a latch's
// output channels (docs/file-format.md); key_results.h gathers them.
//
// Definitions:
// - A touch starts where the pair's signed distance falls through 0 and ends
//   where it rises through 0, both interpolated linearly between the two
//   output samples around the change of the in-contact flag (the flag's
//   sample when the distance does not change sign there). A pair touching at
//   the first sample starts at it; one touching at the last is open there.
// - Peaks (normal force, friction force, penetration): the largest sampled
//   value over the run and its time. Slip speed: the largest over the
//   samples in contact, so a part that holds in a gripper reads as slipping
//   at most at the friction law's creep (below its stiction velocity).
// - A latch engages at the first sample whose engaged flag is 1 after a 0
//   (within one output interval after the event; a latch engaged at the
//   first sample counts from it). Its velocity jump and impulse are that
//   sample's (the channels hold the last engagement's); its energy loss is
//   the rise of the accumulated energy_lost from the sample before. It is
//   released at the first later sample whose flag is 0.
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace pm {

struct ContactTouch {
  double tStart = 0.0, tEnd = 0.0;  // s
  bool open = false;                // still touching when the run ended (tEnd is the run's end)
};

struct ContactPairResult {
  std::string id;
  std::string shapes;  // "box on plane": j's shape on i's
  std::vector<ContactTouch> touches;
  double timeInContact = 0.0;                     // s, the touches' total
  double normalMax = 0.0, tNormalMax = 0.0;       // N
  double frictionMax = 0.0, tFrictionMax = 0.0;   // N
  double penetrationMax = 0.0, tPenetrationMax = 0.0;  // m
  double slipMax = 0.0, tSlipMax = 0.0;           // m/s, over the samples in contact
};

// The pair's sampled channels, each as long as t.
struct ContactChannels {
  std::vector<double> inContact, distance, normal, friction, penetration, slip;
};

ContactPairResult contactPairResult(const std::string& id, const std::string& shapes, const std::vector<double>& t,
                                    const ContactChannels& c);

struct LatchEngagement {
  double t = 0.0;             // s, the first sample engaged
  double velocityJump = 0.0;  // m/s
  double energyLost = 0.0;    // J
  double impulse = 0.0;       // N s
  double tRelease = std::numeric_limits<double>::quiet_NaN();  // s (NaN: engaged to the run's end)
};

struct LatchResult {
  std::string id, type;
  std::vector<LatchEngagement> engagements;
  double energyLost = 0.0;                // J, over the run
  double forceMax = 0.0, tForceMax = 0.0; // N, |(Fx, Fy, Fz)| while engaged
  bool engagedAtEnd = false;
};

struct LatchChannels {
  std::vector<double> engaged, Fx, Fy, Fz, velocityJump, energyLost, impulse;
};

LatchResult latchResult(const std::string& id, const std::string& type, const std::vector<double>& t,
                        const LatchChannels& c);

// The channel suffixes each reads (".in_contact", ...), for keyResultChannels.
const std::vector<std::string>& contactResultQuantities();
const std::vector<std::string>& latchResultQuantities();

}  // namespace pm
