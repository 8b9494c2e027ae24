// A node of the compiled circuit: a pneumatic net or an element's internal
// volume (see system.h for the three kinds and their equations). Its own
// header so that Eval's per-node accessors (element.h) are inline: they run
// several times per element in every residual.
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace pm {

enum class NodeKind { Junction, Capacity, Boundary };

// The gas every node holds, as an ideal gas (p = rho R T, cp/cv = kappa):
// the node equations read it; the build layer gives it (pneumatics/gas.h),
// so the solver knows no gas of its own.
struct NodeGas {
  double R = 0.0;      // J/(kg K)
  double kappa = 0.0;  // cp/cv
  double cp = 0.0;     // J/(kg K)
};

struct Node {
  std::string name;
  NodeKind kind = NodeKind::Junction;
  std::vector<std::string> members;  // "comp.port" of the net, for descriptions
  std::vector<std::string> volumeOwners;
  int slotP = -1, slotT = -1;  // Capacity, Junction
  int slotM = -1, slotH = -1;  // Boundary: mass / enthalpy delivered to the circuit
  std::string boundaryOwner;
  std::function<void(double t, double& p, double& T)> boundary;
  bool isothermal = false;
  double Twall = 293.15;
  double initPV = 0.0, initTV = 0.0, initV = 0.0;  // volume-weighted initial values

  // Per evaluation
  double p = 0.0, T = 0.0;
  double sumQ = 0.0, sumQT = 0.0, sumQin = 0.0, sumQinT = 0.0;
  double V = 0.0, dVdt = 0.0, Q = 0.0;
  double sumOut = 0.0;  // Junction: sum of its smoothed outflows (handOffWeights, in Eval::flow)
};

// A flow q from node `from` to node `to`, one of them a junction, recorded
// per evaluation (System::handOffJunctionSurplus, decision 0003).
struct JunctionLink {
  int from = -1, to = -1;
  double q = 0.0;
  // Smooth positive parts of q and -q (handOffWeights), the shares of the
  // surplus of `from` and of `to` that go across this flow.
  double weight = 0.0, weightBack = 0.0;
};

// A junction's surplus goes where the gas goes: in proportion to the
// positive parts of its outflows, smoothed over this width, far below any
// leakage, so that a resting neighbour takes next to nothing while a leak
// passes the junction (decision 0003). The share is a fraction of the
// surplus, so its derivative stays bounded however sharp the fraction.
constexpr double kHandOffEps = 1e-14;  // kg/s

// Smooth positive parts of q and -q, formed without cancellation (their
// product is eps^2 / 4), so that neither is ever exactly zero.
inline void handOffWeights(double q, double& plus, double& minus) {
  constexpr double e2 = kHandOffEps * kHandOffEps;
  const double r = std::sqrt(q * q + e2);
  if (q >= 0.0) {
    plus = 0.5 * (q + r);
    minus = 0.25 * e2 / plus;
  } else {
    minus = 0.5 * (r - q);
    plus = 0.25 * e2 / minus;
  }
}

}  // namespace pm
