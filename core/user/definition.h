// A user component compiled (user_component.cpp) for its elements
// (user_element.cpp): every expression as a Program over one array of
// values, whose slots the layout below names.
#pragma once

#include "user/condition.h"
#include "user/expression.h"

#include <string>
#include <utility>
#include <vector>

namespace pm::user {

struct Definition {
  std::string name, file;
  int slots = 0;  // size of the value array
  // Fixed before the run: physical constants (value), the time, p_amb, T_amb.
  std::vector<std::pair<int, double>> constants;
  int time = -1, pAmb = -1, TAmb = -1;
  std::vector<std::pair<std::string, int>> params;  // parameter -> slot
  // Per parameter: what its value is multiplied by to be SI (1, or the
  // ISO 8778 standard-flow factor for a parameter given in Nl/min).
  std::vector<double> paramScale;
  struct Port {
    std::string name;
    int p = -1, T = -1;
  };
  std::vector<Port> ports;  // pneumatic
  struct Input {
    std::string name;
    int slot = -1;
  };
  std::vector<Input> inputs;
  struct Variable {
    std::string name;
    int slot = -1;
    Program value;
    bool constant = false;  // reads constants alone: computed once at setup
  };
  std::vector<Variable> variables;
  struct State {
    std::string name, unit;
    bool differential = true;
    int slot = -1, der = -1;
    Program initial, rhs;  // residual: der(x) - rhs, or 0 - rhs
    double atol = 1e-6;
  };
  std::vector<State> states;
  struct Flow {
    int from = -1, to = -1;  // indices into ports
    Program q;
  };
  std::vector<Flow> flows;
  struct Volume {
    int port = -1;
    Program V, dVdt, heat, p0, T0, isothermal, Twall;
    bool hasRate = false, hasHeat = false;
  };
  std::vector<Volume> volumes;
  // A mechanical port: x_<port> [m] and v_<port> [m/s] read, `force` [N]
  // pushing its two markers apart (data.attach, as a cylinder's), or
  // moving a `mass` of its own when not attached.
  struct Mechanical {
    std::string name, q, w;  // port, "x_<port>", "v_<port>"
    int x = -1, v = -1;
    Program force, mass, x0;
    bool present = false, hasMass = false, hasForce = false;
  };
  Mechanical mech;
  // Discrete states: constant between events, changed by them.
  struct Discrete {
    std::string name;
    int slot = -1;
    Program initial;
  };
  std::vector<Discrete> discretes;
  // "when": comparisons lhs op rhs joined by and / or (user/condition.h);
  // the condition turning true sets discrete states. Each comparison's
  // root function is lhs - rhs; `rising`: op is > or >= (true when it grows).
  struct Comparison {
    Program lhs, rhs;
    bool rising = true, strict = true;
  };
  struct Event {
    std::vector<Comparison> comparisons;
    std::vector<ConditionNode> condition;      // over the comparisons, the whole last
    std::vector<std::pair<int, Program>> set;  // discrete index -> new value
  };
  std::vector<Event> events;
  struct Output {
    std::string name, unit;
    Program value;
  };
  std::vector<Output> outputs;
};

}  // namespace pm::user
