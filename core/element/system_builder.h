// The builder an element's setup() is handed: the only way an element joins
// a System (nodes, states, roots, result channels, published signals, its
// structural footprint). Declared here, below the solver, so that components
// need nothing of the solver; the System it fills is only named. Its
// functions are defined by the solver (solver/system_builder.cpp).
#pragma once

#include "element/backplane.h"
#include "element/element.h"
#include "element/footprint.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pm {

class System;

class SystemBuilder {
 public:
  SystemBuilder(System& s, Element& e, std::map<std::string, int> ports);

  // Node of one of the element's pneumatic ports; -1 when plugged.
  int port(const std::string& name);
  // A node private to the element (a chamber behind a cushion throttle, ...).
  int internalNode(const std::string& name);
  // Declares that `node` holds gas volume (initial V0 at p0, T0).
  void capacity(int node, const std::string& owner, double V0, double p0, double T0,
                bool isothermal, double Twall);
  // Imposes p(t), T(t) on a node.
  void boundary(int node, std::function<void(double t, double& p, double& T)> pt);

  int state(const std::string& name, const std::string& unit, StateKind kind, double initial,
            double atol, const std::string& equation);
  int roots(int count);
  // Result channel "<id>.<quantity>"; returns its index within the element's
  // output() array (channels of one element are contiguous).
  int channel(const std::string& quantity, const std::string& unit);
  // Makes "<id>.<name>" readable by other elements. readsStatesOnly: the
  // value depends on nothing evaluate() computes (Element::rootsReadStatesOnly).
  void publish(const std::string& name, std::function<double(const Eval&)> value, bool readsStatesOnly = false);
  // Binds a signal input to a reference; resolved after all setups.
  void input(SignalInput& in, const std::string& name, const std::string& ref);
  // True when `ref` names a signal that changes only at events (see
  // ComponentType::held_outputs): constant between two discrete updates.
  bool held(const std::string& ref) const { return held_ && held_->count(ref) > 0; }
  // A result channel or signal named in full ("<part>.x"), for elements
  // that speak for several objects of the model (the mechanism).
  int channelNamed(const std::string& name, const std::string& unit);
  // step: a flag (0 or 1) that jumps, such as a latch's `engaged`: the
  // co-simulation's circuit sees it held between exchanges, not extrapolated.
  void publishNamed(const std::string& name, std::function<double(const Eval&)> value, bool step = false);
  // States (indices returned by state()) whose equations couple only among
  // themselves; see Footprint::groups.
  void couple(std::vector<int> states) { footprint_.groups.push_back(std::move(states)); }
  void entries(std::vector<std::pair<int, int>> rowColumn) {
    footprint_.entries.insert(footprint_.entries.end(), rowColumn.begin(), rowColumn.end());
  }
  // Index-2 constraints present (System::highIndex).
  void highIndex();
  // See Footprint::blocks (replaces the element's default structure).
  void block(Footprint::Block b) { footprint_.blocks.push_back(std::move(b)); }
  // States of other elements this element's equations read, and the rows
  // of other elements its outputs feed (a cylinder attached to a
  // mechanism's parts reads their positions and velocities and pushes on
  // their momentum rows).
  void touches(const std::vector<int>& reads, const std::vector<int>& writes) {
    footprint_.reads.insert(footprint_.reads.end(), reads.begin(), reads.end());
    footprint_.writes.insert(footprint_.writes.end(), writes.begin(), writes.end());
  }
  // The elements set up so far, this one included (the mechanism is set up
  // before the components), for an element that acts on another one; the
  // first of them of type T, or null.
  const std::vector<Element*>& elementsSetUp() const;
  template <class T>
  T* find() const {
    for (Element* e : elementsSetUp())
      if (auto* t = dynamic_cast<T*>(e)) return t;
    return nullptr;
  }
  // Co-simulation: which side this System is, and the exchange between the
  // two (null when monolithic).
  CouplingRole couplingRole() const;
  Backplane* backplane() const;

  double ambientPressure() const;
  double ambientTemperature() const;
  double absTolPosition() const;
  // The run's relative tolerance: the absolute tolerance of quantities
  // normalised to full scale (a spool position of 1 = fully open).
  double relTol() const;
  const BuildOptions& options() const;
  // The text of a file the element's data names (a controller's .js),
  // relative to the project file's folder and confined to it
  // (io/confined_file.h). Throws std::runtime_error when it cannot.
  std::string readProjectFile(const std::string& relative) const;

 private:
  friend class Compiler;
  System& sys_;
  Element& el_;
  std::map<std::string, int> ports_;
  std::vector<SignalInput*>* pending_ = nullptr;
  const std::set<std::string>* held_ = nullptr;
  const std::string* file_ = nullptr;  // the project file being built, for readProjectFile
  Footprint footprint_;
  int firstChannel_ = -1;
};

}  // namespace pm
