// The element contract's builder (element/system_builder.h), filling a System.
#include "element/system_builder.h"

#include "io/confined_file.h"
#include "solver/system.h"

#include <filesystem>
#include <stdexcept>

namespace pm {

SystemBuilder::SystemBuilder(System& s, Element& e, std::map<std::string, int> ports)
    : sys_(s), el_(e), ports_(std::move(ports)) {
  sys_.setUp_.push_back(&e);
}

int SystemBuilder::port(const std::string& name) {
  auto it = ports_.find(name);
  if (it == ports_.end()) throw std::logic_error(el_.id() + ": no pneumatic port " + name);
  if (it->second >= 0) footprint_.nodes.push_back(it->second);
  return it->second;
}

int SystemBuilder::internalNode(const std::string& name) {
  Node n;
  n.name = el_.id() + "." + name;
  n.members.push_back(n.name);
  sys_.nodes_.push_back(std::move(n));
  footprint_.nodes.push_back(static_cast<int>(sys_.nodes_.size()) - 1);
  return static_cast<int>(sys_.nodes_.size()) - 1;
}

void SystemBuilder::capacity(int node, const std::string& owner, double V0, double p0, double T0,
                             bool isothermal, double Twall) {
  if (node < 0) return;
  Node& n = sys_.nodes_[node];
  if (n.volumeOwners.empty() && n.name.rfind("n:", 0) == 0) n.name = owner;
  n.volumeOwners.push_back(owner);
  n.initPV += p0 * V0;
  n.initTV += T0 * V0;
  n.initV += V0;
  if (isothermal) {
    n.isothermal = true;
    n.Twall = Twall;
  }
}

void SystemBuilder::boundary(int node, std::function<void(double, double&, double&)> pt) {
  if (node < 0) return;
  Node& n = sys_.nodes_[node];
  if (n.boundary)
    throw std::runtime_error("net " + n.name + " has two pressure boundaries: " + n.boundaryOwner +
                             " and " + el_.id());
  n.boundary = std::move(pt);
  n.boundaryOwner = el_.id();
  if (n.name.rfind("n:", 0) == 0) n.name = el_.id();
}

int SystemBuilder::state(const std::string& name, const std::string& unit, StateKind kind,
                         double initial, double atol, const std::string& equation) {
  StateInfo s{el_.id() + "." + name, unit, el_.id(), equation, kind, initial, atol};
  sys_.states_.push_back(std::move(s));
  footprint_.states.push_back(sys_.size() - 1);
  return sys_.size() - 1;
}

int SystemBuilder::roots(int count) {
  const int first = sys_.numRoots_;
  sys_.rootOwners_.emplace_back(&el_, first);
  sys_.numRoots_ += count;
  return 0;  // element-local index of its first root
}

int SystemBuilder::channel(const std::string& quantity, const std::string& unit) {
  const int idx = static_cast<int>(sys_.channels_.size());
  if (firstChannel_ < 0) firstChannel_ = idx;
  sys_.channels_.push_back({el_.id() + "." + quantity, unit});
  return idx - firstChannel_;
}

void SystemBuilder::publish(const std::string& name, std::function<double(const Eval&)> value, bool readsStatesOnly) {
  sys_.signals_[el_.id() + "." + name] = {std::move(value), readsStatesOnly};
}

int SystemBuilder::channelNamed(const std::string& name, const std::string& unit) {
  const int idx = static_cast<int>(sys_.channels_.size());
  if (firstChannel_ < 0) firstChannel_ = idx;
  sys_.channels_.push_back({name, unit});
  return idx - firstChannel_;
}

void SystemBuilder::publishNamed(const std::string& name, std::function<double(const Eval&)> value, bool step) {
  sys_.signals_[name] = {std::move(value), false, step};
}

void SystemBuilder::input(SignalInput& in, const std::string& name, const std::string& ref) {
  in.owner = el_.id();
  in.name = name;
  in.ref = ref;
  in.read = nullptr;
  if (!ref.empty() && pending_) pending_->push_back(&in);
  sys_.inputs_.emplace_back(&el_, &in);
}

void SystemBuilder::highIndex() { sys_.highIndex_ = true; }
const std::vector<Element*>& SystemBuilder::elementsSetUp() const { return sys_.setUp_; }
const BuildOptions& SystemBuilder::options() const { return sys_.options_; }
CouplingRole SystemBuilder::couplingRole() const { return sys_.role_; }
Backplane* SystemBuilder::backplane() const { return sys_.backplane_; }
double SystemBuilder::ambientPressure() const { return sys_.pAmb_; }
double SystemBuilder::ambientTemperature() const { return sys_.TAmb_; }
double SystemBuilder::absTolPosition() const { return sys_.atolPosition_; }
double SystemBuilder::relTol() const { return sys_.relTol_; }

std::string SystemBuilder::readProjectFile(const std::string& relative) const {
  const std::string folder = std::filesystem::path(file_ ? *file_ : std::string()).parent_path().string();
  return readConfinedFile(folder, relative);
}

}  // namespace pm
