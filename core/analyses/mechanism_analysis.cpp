#include "analyses/mechanism_analysis.h"

#include "build/compiler.h"
#include "build/validation.h"
#include "mechanics/mechanism_element.h"
#include "mechanics/multibody.h"
#include "model/message_text.h"
#include "model/project_error.h"
#include "solver/run_control.h"

#include <cmath>
#include <memory>
#include <sstream>

namespace pm {

AnalysisReport runMechanismAnalysis(const Project& pr, const std::string& file, MechanismAnalysis kind,
                                    ResultStore& out) {
  validateProject(pr, file);
  if (pr.mechanism.empty()) throw ProjectError(file, "mechanism", "", "the project has no mechanism to analyse");
  // With a circuit, the whole project is compiled so that the actuators
  // attached to the mechanism act on it, with the chamber pressures held at
  // their initial values (the analyses do not integrate the circuit).
  std::unique_ptr<System> circuit;
  MechanismElement* attached = nullptr;
  std::unique_ptr<mb::MultibodySystem> own;
  mb::MultibodySystem* mb = nullptr;
  if (!pr.components.empty()) {
    circuit = Compiler::compile(pr, file);
    attached = mechanismOf(*circuit);
    if (attached && !attached->hasAttachments()) attached = nullptr;
  }
  if (attached) {
    std::vector<double> y0 = circuit->initialState(), yp0(y0.size(), 0.0);
    circuit->updateDiscrete(0.0, y0.data(), yp0.data(), true);
    circuit->presolveJunctions(0.0, y0.data(), yp0.data());
    attached->holdCircuit(*circuit, std::move(y0));
    mb = &attached->multibody();
  } else {
    try {
      own = std::make_unique<mb::MultibodySystem>(pr.mechanism);
    } catch (const std::runtime_error& e) {
      throwMechanismError(file, e.what());
    }
    mb = own.get();
  }
  AnalysisReport rep;
  rep.dof = mb->degreesOfFreedom();
  rep.messages = mb->messages();
  std::vector<ChannelInfo> ch;
  for (const auto& c : mb->channels()) ch.push_back({c.name, c.unit});
  out.setChannels(ch);
  std::vector<double> y = mb->initialState(), yp(y.size(), 0.0), row(ch.size());
  auto analyse = [&](double t) {
    try {
      if (kind == MechanismAnalysis::Kinematic) mb->kinematic(t, y, yp);
      else mb->staticEquilibrium(t, y, yp);
    } catch (const std::runtime_error& e) {
      const std::string w = e.what();
      throw std::runtime_error("at t = " + numberText(t) + " s: " + w);
    }
    mb->outputs(t, y.data(), yp.data(), row.data());
    out.append(t, row.data());
  };
  // Names the circuit forces in the report, with their values at the last point.
  auto circuitNote = [&] {
    if (!attached) return;
    std::ostringstream o;
    o << "circuit forces included, chamber pressures held at their initial values (friction from the "
         "joint rates, stops and springs from the positions):";
    for (const auto& [who, f] : attached->heldForces(y.data())) o << " " << who << " " << f;
    o << " (N or N m)";
    rep.messages.push_back(o.str());
  };
  if (kind == MechanismAnalysis::Static) {
    analyse(0.0);
    circuitNote();
    return rep;
  }
  const double dt = pr.simulation.output_interval, tEnd = pr.simulation.t_end;
  const long n = std::lround(std::ceil(tEnd / dt - 1e-9));
  const WallTimeLimit limit(pr.simulation.wall_time_limit, nullptr, nullptr);
  for (long k = 0; k <= n; ++k) {
    const double t = std::min(k * dt, tEnd), tLast = std::min((k - 1) * dt, tEnd);
    if (limit.exceeded()) throw std::runtime_error(limit.message(tLast));
    // Start Newton from a first-order prediction along the last velocities
    // (orientations and joint windings too: a fast crank keeps its turns).
    if (k > 0 && kind == MechanismAnalysis::Kinematic) mb->predict(y, t - tLast);
    // Quasi-statics has no velocities to predict with: equilibria at
    // intermediate times (not written) keep each Newton start within a
    // quarter turn of the motions, so a linkage they turn fast between two
    // outputs stays on its branch.
    if (k > 0 && kind == MechanismAnalysis::QuasiStatic) {
      const int sub = static_cast<int>(std::ceil(mb->motionTurn(tLast, t) / (0.25 * M_PI)));
      for (int s = 1; s < sub; ++s) {
        const double ts = tLast + (t - tLast) * s / sub;
        try {
          mb->staticEquilibrium(ts, y, yp);
        } catch (const std::runtime_error& e) {
          throw std::runtime_error("at t = " + numberText(ts) + " s: " + e.what());
        }
      }
    }
    analyse(t);
  }
  circuitNote();
  return rep;
}

}  // namespace pm
