#include "mechanics/mechanism_analysis.h"

#include "mechanics/multibody.h"
#include "model/project_error.h"
#include "solver/compiler.h"

#include <cmath>
#include <memory>

namespace pm {

void throwMechanismError(const std::string& file, const std::string& w) {
  const auto c1 = w.find(": ");
  if (c1 == std::string::npos) throw ProjectError(file, "mechanism", "", w);
  const auto c2 = w.find(": ", c1 + 2);
  const bool hasField = c2 != std::string::npos && w.substr(c1 + 2, c2 - c1 - 2).find(' ') == std::string::npos;
  throw ProjectError(file, w.substr(0, c1), hasField ? w.substr(c1 + 2, c2 - c1 - 2) : "",
                     hasField ? w.substr(c2 + 2) : w.substr(c1 + 2));
}

AnalysisReport runMechanismAnalysis(const Project& pr, const std::string& file, MechanismAnalysis kind,
                                    ResultStore& out) {
  validateProject(pr, file);
  if (pr.mechanism.empty()) throw ProjectError(file, "mechanism", "", "the project has no mechanism to analyse");
  std::unique_ptr<mb::MultibodySystem> mb;
  try {
    mb = std::make_unique<mb::MultibodySystem>(pr.mechanism);
  } catch (const std::runtime_error& e) {
    throwMechanismError(file, e.what());
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
      throw std::runtime_error("at t = " + std::to_string(t) + " s: " + w);
    }
    mb->outputs(t, y.data(), yp.data(), row.data());
    out.append(t, row.data());
  };
  if (kind == MechanismAnalysis::Static) {
    analyse(0.0);
    return rep;
  }
  const double dt = pr.simulation.output_interval, tEnd = pr.simulation.t_end;
  const long n = std::lround(std::ceil(tEnd / dt - 1e-9));
  for (long k = 0; k <= n; ++k) {
    const double t = std::min(k * dt, tEnd);
    // Start Newton from a first-order prediction along the last velocities
    // (orientations and joint windings too: a fast crank keeps its turns).
    if (k > 0 && kind == MechanismAnalysis::Kinematic) mb->predict(y, t - std::min((k - 1) * dt, tEnd));
    analyse(t);
  }
  return rep;
}

}  // namespace pm
