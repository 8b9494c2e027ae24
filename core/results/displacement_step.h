// Displacement-step diagram (VDI 3260, the "Weg-Schritt-Diagramm" of
// electro-pneumatic sequence design): for a step sequence, each actuator's
// position at every step change, taken from a finished (or running) result.
//
// Rows in order of activation: the initial step at t = 0, then one row per
// step the sequence entered. Several transitions within one event (the step
// channel jumps k -> k+3) give a row for every step passed, all at the same
// time; a jump back to step 0 other than the cyclic wrap after the last step
// is a reset (one row). Times and positions are those of the first output
// sample in the new step, so they carry the output interval's resolution; the
// positions are the actuators' "<id>.x" channels.
#pragma once

#include "model/project.h"
#include "solver/result_store.h"

#include <string>
#include <vector>

namespace pm {

struct DisplacementStepDiagram {
  std::string sequence;                // id of the step_sequence
  std::vector<std::string> actuators;  // component ids
  std::vector<double> strokes;         // [m] per actuator (its "stroke" parameter; 0 when it has none)
  struct Row {
    int step = 0;           // index of the step that became active
    std::string name;       // its name in data.steps (may be empty)
    double t = 0.0;         // [s]
    std::vector<double> x;  // [m] actuator positions at t
  };
  std::vector<Row> rows;
  double tEnd = 0.0;         // last sample of the result
  std::vector<double> xEnd;  // positions there (closes the diagram)
};

// `actuators` empty: every component with a "stroke" parameter and an "<id>.x"
// channel, in project order. Throws std::runtime_error naming what is missing
// (no such sequence, not a step_sequence, no "<sequence>.step" or "<id>.x"
// channel in the result).
DisplacementStepDiagram displacementStepDiagram(const Project& project, const ResultStore& result,
                                                const std::string& sequence, std::vector<std::string> actuators = {});

// Plain-text table: step, name, t [s], then each actuator's position in mm
// and as a fraction of its stroke.
std::string formatDiagram(const DisplacementStepDiagram& d);

}  // namespace pm
