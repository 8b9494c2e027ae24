// pneumech-bench: real-time performance of the engine on the shipped example
// projects. Loads every <source>/projects/*.pneumech.json (or the files given
// on the command line), runs each N times and prints per project: simulated
// seconds, wall seconds (best of N), real-time factor, integrator steps,
// residual evaluations, events, and where the result rows were computed: on
// a second thread (the default, solver/output_pipeline.h) or with
// --serial-output on the solver's thread (the solver is one thread always).
//
// Then the growth of cost with model size: a chain of N pendulums and a
// ladder of N four-bar loops, N = 1, 2, 4 ... 64, simulated, and their
// static equilibrium and kinematic analysis (skipped when files are given;
// --scaling-only runs only these; --dense adds the analyses' times with
// every decomposition dense for N >= 32, the models above the dense limit).
// Then user components against built-ins (issue 24; --user-only runs only these).
// --flexible-only: the flexible swing arm with 10, 20, 40 and 80 elements (issue 22).
// --modal-only [S]: its modal analysis at 10 to 200 elements, dense (up to S
// states, default 1300) and sparse, CPU seconds per stage (issue 22).
// --no-lump keeps parts welded by fixed joints as bodies of their own (the
// reference for the lumping's gain: engine::Tuning::lumpFixedJoints).
//
//   pneumech-bench [-n N] [--no-lump] [--serial-output] [--scaling-only [--dense]] [file.pneumech.json ...]
#include "engine/engine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef PM_SOURCE_DIR
#define PM_SOURCE_DIR "."
#endif

namespace fs = std::filesystem;

namespace {

bool serialOutput = false;  // --serial-output
pm::engine::Tuning tuning;  // --no-lump: lumpFixedJoints off

int usage() {
  std::fprintf(stderr, "usage: pneumech-bench [-n N] [--no-lump] [--serial-output] [--scaling-only [--dense] | --coupling-only | --user-only | --flexible-only | --modal-only [S]] [file.pneumech.json ...]\n"
                       "  default files: %s/projects/*.pneumech.json, N = 5\n", PM_SOURCE_DIR);
  return 2;
}

// Chain of n identical pendulum links (0.1 m, 0.2 kg) hanging in a line,
// released 0.3 rad from the vertical about the world y-axis.
pm::Project pendulumChain(int n) {
  pm::Project p;
  pm::Mechanism& m = p.mechanism;
  const pm::Vec3 yAxis{-1.5707963267948966, 0, 0};
  const double L = 0.1, th = 0.3, sx = std::sin(th), cz = std::cos(th);
  pm::PartDef g;
  g.id = "ground";
  g.ground = true;
  g.markers.push_back({"o", {0, 0, 0}, yAxis});
  m.parts.push_back(g);
  for (int k = 0; k < n; ++k) {
    pm::PartDef q;
    q.id = "link" + std::to_string(k + 1);
    q.mass = 0.2;
    q.inertia = {1e-5, 0.2 * L * L / 12, 0.2 * L * L / 12, 0, 0, 0};
    q.position = {(k + 0.5) * L * sx, 0, -(k + 0.5) * L * cz};
    q.orientation = {0, 0, 0};
    q.markers.push_back({"top", {-0.5 * L * sx, 0, 0.5 * L * cz}, yAxis});
    q.markers.push_back({"bottom", {0.5 * L * sx, 0, -0.5 * L * cz}, yAxis});
    m.parts.push_back(q);
    pm::JointDef j;
    j.id = "j" + std::to_string(k + 1);
    j.type = "revolute";
    j.i = q.id + ".top";
    j.j = k == 0 ? "ground.o" : "link" + std::to_string(k) + ".bottom";
    m.joints.push_back(j);
  }
  p.simulation.t_end = 1.0;
  p.simulation.output_interval = 0.01;
  p.simulation.rel_tol = 1e-6;
  return p;
}

// Ladder of n four-bar loops in the vertical x-z plane: rung k (horizontal,
// 0.2 m) sits on two posts of 0.15 m above rung k-1; rung 0 is the ground.
// The posts lean 0.2 rad, so every loop sways under gravity (1 DOF per loop).
pm::Project fourBarLadder(int n) {
  pm::Project p;
  pm::Mechanism& m = p.mechanism;
  const pm::Vec3 yAxis{-1.5707963267948966, 0, 0};
  const double w = 0.2, h = 0.15, a = 0.2, dx = h * std::sin(a), dz = h * std::cos(a);
  pm::PartDef g;
  g.id = "ground";
  g.ground = true;
  g.markers.push_back({"l", {0, 0, 0}, yAxis});
  g.markers.push_back({"r", {w, 0, 0}, yAxis});
  m.parts.push_back(g);
  std::string below = "ground";
  for (int k = 1; k <= n; ++k) {
    const double x0 = (k - 1) * dx, z0 = (k - 1) * dz;
    auto post = [&](const std::string& id, double xb) {
      pm::PartDef q;
      q.id = id;
      q.mass = 0.1;
      q.inertia = {1e-5, 0.1 * h * h / 12, 0.1 * h * h / 12, 0, 0, 0};
      q.position = {xb + dx / 2, 0, z0 + dz / 2};
      q.markers.push_back({"b", {-dx / 2, 0, -dz / 2}, yAxis});
      q.markers.push_back({"t", {dx / 2, 0, dz / 2}, yAxis});
      m.parts.push_back(q);
    };
    const std::string L = "left" + std::to_string(k), R = "right" + std::to_string(k), G = "rung" + std::to_string(k);
    post(L, x0);
    post(R, x0 + w);
    pm::PartDef r;
    r.id = G;
    r.mass = 0.3;
    r.inertia = {1e-5, 0.3 * w * w / 12, 0.3 * w * w / 12, 0, 0, 0};
    r.position = {x0 + dx + w / 2, 0, z0 + dz};
    r.markers.push_back({"l", {-w / 2, 0, 0}, yAxis});
    r.markers.push_back({"r", {w / 2, 0, 0}, yAxis});
    m.parts.push_back(r);
    auto rev = [&](const std::string& id, const std::string& i, const std::string& j) {
      pm::JointDef d;
      d.id = id;
      d.type = "revolute";
      d.i = i;
      d.j = j;
      m.joints.push_back(d);
    };
    const std::string k_ = std::to_string(k);
    rev("jlb" + k_, L + ".b", below + ".l");
    rev("jrb" + k_, R + ".b", below + ".r");
    rev("jlt" + k_, L + ".t", G + ".l");
    rev("jrt" + k_, R + ".t", G + ".r");
    below = G;
  }
  p.simulation.t_end = 1.0;
  p.simulation.output_interval = 0.01;
  p.simulation.rel_tol = 1e-6;
  return p;
}

void scaling(int repeats) {
  std::printf("\nGrowth of cost with mechanism size (1 s simulated, rel_tol 1e-6, best of %d):\n", repeats);
  std::printf("%-22s %8s %8s %12s %12s %10s %12s %14s\n", "model", "parts", "states", "wall [s]", "RT factor",
              "steps", "res. evals", "wall/step [ms]");
  for (int kind = 0; kind < 2; ++kind)
    for (int n = 1; n <= 64; n *= 2) {
      const pm::Project pr = kind == 0 ? pendulumChain(n) : fourBarLadder(n);
      const std::string name = (kind == 0 ? "pendulum chain N=" : "four-bar ladder N=") + std::to_string(n);
      try {
        double best = std::numeric_limits<double>::infinity();
        pm::RunStats stats;
        int states = 0;
        for (int k = 0; k < repeats; ++k) {
          pm::engine::CompiledProject sim(pr, name, tuning);
          sim.setOutputRows(serialOutput ? pm::OutputRows::Solver : pm::OutputRows::Auto);
          states = sim.states();
          pm::ResultStore out;
          const pm::RunResult r = sim.run(out);
          if (!r.ok()) throw std::runtime_error(r.message);
          if (r.stats.wallSeconds < best) best = r.stats.wallSeconds, stats = r.stats;
        }
        std::printf("%-22s %8zu %8d %12.4f %12.4g %10ld %12ld %14.4f\n", name.c_str(), pr.mechanism.parts.size() - 1,
                    states, best, stats.tReached / best, stats.steps, stats.residualEvals, 1e3 * best / stats.steps);
      } catch (const std::exception& e) {
        std::printf("%-22s FAILED: %s\n", name.c_str(), e.what());
      }
      std::fflush(stdout);
    }
}

// The chain and the ladder fully driven, for the kinematic analysis: the
// chain's first joint turns at 1 rad/s with the others held (it turns as one
// rigid line), each loop's lower left joint at 0.5 rad/s.
pm::Project driven(pm::Project p, bool chain, int n) {
  for (int k = 1; k <= n; ++k) {
    pm::MotionDef mo;
    mo.id = "m" + std::to_string(k);
    mo.joint = (chain ? "j" : "jlb") + std::to_string(k);
    mo.quantity = "velocity";
    mo.params = {{"value", chain ? (k == 1 ? 1.0 : 0.0) : 0.5}};
    p.mechanism.motions.push_back(mo);
  }
  return p;
}

// Wall time of the analyses alone (engine::analyse builds the system outside
// its clock), best of `repeats`: static equilibrium from the assembled start;
// kinematic analysis at 11 points over 1 s, each Newton started from the
// last point moved along its velocities (as `pneumech kinematic`).
void analysisTimes(pm::Project pr, bool kinematic, int repeats, bool dense, double& best) {
  best = std::numeric_limits<double>::infinity();
  pm::engine::Tuning t = tuning;
  t.forceDense = dense;
  pr.simulation.t_end = 1.0;
  pr.simulation.output_interval = 0.1;
  for (int r = 0; r < repeats; ++r) {
    pm::ResultStore out;
    const pm::AnalysisReport rep = pm::engine::analyse(
        pr, "bench", kinematic ? pm::MechanismAnalysis::Kinematic : pm::MechanismAnalysis::Static, out, t);
    best = std::min(best, rep.seconds);
  }
}

void analyses(int repeats, bool withDense) {
  std::printf("\nStatic equilibrium and kinematic analysis (11 points over 1 s), wall time of the analysis alone,\n"
              "best of %d; 'dense': every decomposition dense (--dense, N >= 32; below 21 parts the analyses are\n"
              "dense anyway):\n", repeats);
  std::printf("%-22s %8s %8s %12s %14s %12s %14s\n", "model", "parts", "coords", "static [s]", "kinematic [s]",
              "dense st [s]", "dense kin [s]");
  for (int kind = 0; kind < 2; ++kind)
    for (int n = 1; n <= 64; n *= 2) {
      const pm::Project pr = kind == 0 ? pendulumChain(n) : fourBarLadder(n);
      const std::string name = (kind == 0 ? "pendulum chain N=" : "four-bar ladder N=") + std::to_string(n);
      try {
        const pm::Project drv = driven(pr, kind == 0, n);
        double st, kin, dst = NAN, dkin = NAN;
        analysisTimes(pr, false, repeats, false, st);
        analysisTimes(drv, true, repeats, false, kin);
        if (withDense && n >= 32) {
          analysisTimes(pr, false, repeats, true, dst);
          analysisTimes(drv, true, repeats, true, dkin);
        }
        const size_t parts = pr.mechanism.parts.size() - 1;
        std::printf("%-22s %8zu %8zu %12.4f %14.4f", name.c_str(), parts, 6 * parts, st, kin);
        if (std::isnan(dst)) std::printf(" %12s %14s\n", "-", "-");
        else std::printf(" %12.4f %14.4f\n", dst, dkin);
      } catch (const std::exception& e) {
        std::printf("%-22s FAILED: %s\n", name.c_str(), e.what());
      }
      std::fflush(stdout);
    }
}

// Seed 000's backplane against the monolithic run on the tool changer:
// real-time factors and the largest stroke difference per exchange interval.
void coupling(int repeats) {
  const std::string path = std::string(PM_SOURCE_DIR) + "/projects/tool_changer.pneumech.json";
  std::printf("\nTool changer, monolithic vs co-simulation (best of %d):\n", repeats);
  std::printf("%-24s %12s %12s %10s %16s\n", "coupling", "wall [s]", "RT factor", "steps", "max|dx| [mm]");
  std::vector<double> xMono;
  for (double H : {0.0, 4e-3, 2e-3, 1e-3, 5e-4}) {
    pm::Project pr = pm::engine::load(path);
    if (H > 0) pr.simulation.coupling = "cosimulation", pr.simulation.exchange_interval = H;
    const std::string name = H > 0 ? "cosimulation H=" + std::to_string(H * 1e3).substr(0, 4) + " ms" : "monolithic";
    try {
      double best = std::numeric_limits<double>::infinity();
      pm::RunStats stats;
      std::vector<double> x;
      for (int k = 0; k < repeats; ++k) {
        pm::engine::CompiledProject sim(pr, path, tuning);
        sim.setOutputRows(pm::OutputRows::Solver);  // as the co-simulation's: the modes compared on one thread each
        pm::ResultStore out;
        const pm::RunResult r = sim.run(out);
        if (!r.ok()) throw std::runtime_error(r.message);
        if (r.stats.wallSeconds < best) best = r.stats.wallSeconds, stats = r.stats;
        x = out.column("cyl1.x");
      }
      if (H == 0) xMono = x;
      double dx = 0;
      for (size_t i = 0; i < x.size() && i < xMono.size(); ++i) dx = std::max(dx, std::abs(x[i] - xMono[i]));
      std::printf("%-24s %12.4f %12.4g %10ld %16.4g\n", name.c_str(), best, stats.tReached / best, stats.steps, 1e3 * dx);
    } catch (const std::exception& e) {
      std::printf("%-24s FAILED: %s\n", name.c_str(), e.what());
    }
    std::fflush(stdout);
  }
}

// A line of n R-C segments charged from a 6 bar supply: the built-in orifice
// and reservoir, or seed 003's bond-graph R and C as user components
// (projects/user_library), which compute the same (tests/test_user_components.cpp).
pm::Project rcLine(int n, bool user) {
  pm::Project p;
  auto add = [&](const std::string& id, const std::string& type, std::map<std::string, double> params) {
    pm::Component c;
    c.id = id, c.type = type, c.params = std::move(params);
    p.components.push_back(std::move(c));
  };
  auto wire = [&](const std::string& a, const std::string& pa, const std::string& b, const std::string& pb) {
    p.connections.push_back({"l" + std::to_string(p.connections.size()), {a, pa}, {b, pb}, {}});
  };
  const double d = 2e-3, Cd = 0.8, Ae = Cd * 3.141592653589793 * d * d / 4.0, V = 2e-5;
  add("src", "supply", {{"p", 6e5}});
  std::string prev = "src";
  for (int i = 0; i < n; ++i) {
    const std::string r = "r" + std::to_string(i), c = "c" + std::to_string(i);
    if (user) {
      add(r, "bond_graph_r", {{"Ae", Ae}});
      add(c, "bond_graph_c", {{"V", V}});
    } else {
      add(r, "orifice", {{"d", d}, {"Cd", Cd}});
      add(c, "reservoir", {{"V", V}});
    }
    wire(prev, "1", r, "1");
    wire(r, "2", c, "1");
    prev = c;
  }
  p.simulation.t_end = 0.5;
  p.simulation.output_interval = 1e-3;
  return p;
}

// Issue 24's speed target: a circuit of user components within 3x the time
// of the same circuit of built-ins.
void userComponents(int repeats) {
  pm::engine::loadUserLibrary(std::string(PM_SOURCE_DIR) + "/projects/user_library");
  std::printf("\nUser components vs built-ins, same circuit, same results (best of %d):\n", repeats);
  std::printf("%-36s %12s %12s %10s %12s %10s\n", "model", "built-in [s]", "user [s]", "ratio", "steps", "res. evals");
  auto best = [&](const pm::Project& pr, const std::string& name, pm::RunStats& stats) {
    double b = std::numeric_limits<double>::infinity();
    for (int k = 0; k < repeats; ++k) {
      pm::engine::CompiledProject sim(pr, name, tuning);
      sim.setOutputRows(pm::OutputRows::Solver);
      pm::ResultStore out;
      const pm::RunResult r = sim.run(out);
      if (!r.ok()) throw std::runtime_error(r.message);
      if (r.stats.wallSeconds < b) b = r.stats.wallSeconds, stats = r.stats;
    }
    return b;
  };
  const std::string dir = std::string(PM_SOURCE_DIR) + "/projects/user_components/";
  struct Case {
    std::string name;
    pm::Project builtIn, user;
  };
  std::vector<Case> cases;
  try {
    cases.push_back({"seed003 + restriction, receiver", pm::engine::load(dir + "seed003_builtin_rc.pneumech.json"),
                     pm::engine::load(dir + "seed003_user_rc.pneumech.json")});
  } catch (const std::exception& e) {
    std::printf("%-36s FAILED: %s\n", "seed003 + restriction, receiver", e.what());
  }
  for (int n : {1, 8, 32}) cases.push_back({"R-C line N=" + std::to_string(n), rcLine(n, false), rcLine(n, true)});
  for (const Case& c : cases) {
    try {
      pm::RunStats sb, su;
      const double tb = best(c.builtIn, c.name, sb), tu = best(c.user, c.name, su);
      std::printf("%-36s %12.6f %12.6f %10.3g %12ld %10ld\n", c.name.c_str(), tb, tu, tu / tb, su.steps,
                  su.residualEvals);
    } catch (const std::exception& e) {
      std::printf("%-36s FAILED: %s\n", c.name.c_str(), e.what());
    }
    std::fflush(stdout);
  }
}

// Issue #22: the flexible swing arm's cost against its element count (the
// arm's markers kept at their place along it), over the stroke and the
// first ringing (0.6 s). Growth should stay near linear (one 28-state
// block per element, decision 0017).
void flexible(int repeats) {
  const std::string path = std::string(PM_SOURCE_DIR) + "/projects/flexible_swing_arm.pneumech.json";
  std::printf("\nFlexible swing arm against the element count, 0.6 s (best of %d):\n", repeats);
  std::printf("%-10s %8s %12s %10s %12s %14s %16s\n", "elements", "states", "wall [s]", "steps", "res. evals",
              "wall/step [ms]", "wall/step/elem [us]");
  for (int n : {10, 20, 40, 80}) {
    pm::Project pr = pm::engine::load(path);
    pr.simulation.t_end = 0.6;
    for (pm::FlexibleBodyDef& b : pr.mechanism.flexible_bodies) {
      for (pm::BeamMarkerDef& m : b.markers) m.node = static_cast<int>(std::lround(double(m.node) * n / b.elements));
      b.elements = n;
    }
    try {
      double best = std::numeric_limits<double>::infinity();
      pm::RunStats stats;
      int states = 0;
      for (int k = 0; k < repeats; ++k) {
        pm::engine::CompiledProject sim(pr, path, tuning);
        states = sim.states();
        pm::ResultStore out;
        const pm::RunResult r = sim.run(out);
        if (!r.ok()) throw std::runtime_error(r.message);
        if (r.stats.wallSeconds < best) best = r.stats.wallSeconds, stats = r.stats;
      }
      const double perStep = 1e3 * best / std::max(1L, stats.steps);
      std::printf("%-10d %8d %12.4f %10ld %12ld %14.4f %16.4f\n", n, states, best, stats.steps, stats.residualEvals,
                  perStep, 1e3 * perStep / n);
    } catch (const std::exception& e) {
      std::printf("%-10d FAILED: %s\n", n, e.what());
    }
    std::fflush(stdout);
  }
}

// This thread's CPU time [s]: the modal analysis runs on it alone (no
// cancel flag, so nothing is handed to another thread), and CPU time means
// something on a shared machine where wall time does not.
double threadCpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Issue #22: the modal analysis of the flexible swing arm against its
// element count, at its start (t = 0), with the dense and the sparse
// solver (the lowest 30 modes): CPU seconds of its stages and the sparse
// iteration's size. The dense solver is skipped above `denseUpTo` states.
void modal(int denseUpTo) {
  const std::string path = std::string(PM_SOURCE_DIR) + "/projects/flexible_swing_arm.pneumech.json";
  std::printf("\nModal analysis of the flexible swing arm against the element count, at t = 0, CPU seconds:\n");
  std::printf("%-9s %7s %-7s %10s %11s %10s %9s %9s %9s %14s\n", "elements", "states", "solver", "linearise",
              "eigensolve", "modes", "total", "Krylov", "products", "30th |lambda|");
  for (int n : {10, 20, 40, 80, 120, 200}) {
    pm::Project pr = pm::engine::load(path);
    for (pm::FlexibleBodyDef& b : pr.mechanism.flexible_bodies) {
      for (pm::BeamMarkerDef& m : b.markers) m.node = static_cast<int>(std::lround(double(m.node) * n / b.elements));
      b.elements = n;
    }
    for (pm::ModalSolver solver : {pm::ModalSolver::Dense, pm::ModalSolver::Sparse}) {
      const bool dense = solver == pm::ModalSolver::Dense;
      pm::ModalOptions o;
      o.solver = solver;
      o.modes = 30;
      double at[5] = {0, 0, 0, 0, 0};
      o.onStage = [&](pm::ModalStage s) { at[static_cast<int>(s)] = threadCpu(); };
      try {
        if (dense && pm::engine::CompiledProject(pr, path, tuning).states() > denseUpTo) continue;
        const pm::ModalResult r = pm::engine::modal(pr, path, o);
        const double end = threadCpu();
        const int lin = static_cast<int>(pm::ModalStage::Linearise), eig = static_cast<int>(pm::ModalStage::Eigensolve),
                  mod = static_cast<int>(pm::ModalStage::Modes);
        const double last = r.modes.empty() ? 0.0 : std::abs(r.modes.back().lambda);
        std::printf("%-9d %7zu %-7s %10.3f %11.3f %10.3f %9.3f %9d %9d %14.9g\n", n, r.states.size(),
                    dense ? "dense" : "sparse", at[eig] - at[lin], at[mod] - at[eig], end - at[mod], end - at[lin],
                    r.krylovDimension, r.applications, last);
      } catch (const std::exception& e) {
        std::printf("%-9d FAILED: %s\n", n, e.what());
      }
      std::fflush(stdout);
    }
  }
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 5;
  bool scalingOnly = false, dense = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc) {
      repeats = std::atoi(argv[++i]);
      if (repeats < 1) return usage();
    } else if (!std::strcmp(argv[i], "--scaling-only")) {
      scalingOnly = true;
    } else if (!std::strcmp(argv[i], "--dense")) {
      dense = true;
    } else if (!std::strcmp(argv[i], "--serial-output")) {
      serialOutput = true;
    } else if (!std::strcmp(argv[i], "--no-lump")) {
      tuning.lumpFixedJoints = false;
    } else if (!std::strcmp(argv[i], "--user-only")) {
      userComponents(repeats);
      return 0;
    } else if (!std::strcmp(argv[i], "--flexible-only")) {
      flexible(std::min(repeats, 2));
      return 0;
    } else if (!std::strcmp(argv[i], "--modal-only")) {
      modal(i + 1 < argc ? std::atoi(argv[i + 1]) : 1300);
      return 0;
    } else if (!std::strcmp(argv[i], "--coupling-only")) {
      coupling(std::min(repeats, 3));
      return 0;
    } else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      return usage();
    } else {
      files.push_back(argv[i]);
    }
  }
  if (scalingOnly) {
    scaling(std::min(repeats, 2));
    analyses(std::min(repeats, 3), dense);
    return 0;
  }
  const bool defaults = files.empty();
  if (files.empty()) {
    const fs::path dir = fs::path(PM_SOURCE_DIR) / "projects";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.is_regular_file() && endsWith(entry.path().filename().string(), ".pneumech.json"))
        files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      std::fprintf(stderr, "pneumech-bench: no *.pneumech.json in %s\n", dir.string().c_str());
      return 1;
    }
  }

  std::printf("%-36s %10s %12s %12s %10s %12s %8s  %s\n", "project", "sim [s]", "wall [s]", "RT factor", "steps",
              "res. evals", "events", "rows");
  int failures = 0;
  double totalSim = 0.0, totalWall = 0.0;
  for (const std::string& path : files) {
    const std::string name = fs::path(path).filename().string();
    try {
      const pm::Project project = pm::engine::load(path);
      double best = std::numeric_limits<double>::infinity();
      pm::RunStats stats;
      for (int k = 0; k < repeats; ++k) {
        // Compile inside the loop: a run consumes the element's discrete state.
        pm::engine::CompiledProject sim(project, path, tuning);
        sim.setOutputRows(serialOutput ? pm::OutputRows::Solver : pm::OutputRows::Auto);
        pm::ResultStore out;
        const pm::RunResult r = sim.run(out);
        if (!r.ok()) throw std::runtime_error("simulation failed: " + r.message);
        if (r.stats.wallSeconds < best) {
          best = r.stats.wallSeconds;
          stats = r.stats;
        }
      }
      totalSim += stats.tReached;
      totalWall += best;
      std::printf("%-36s %10.4g %12.6f %12.4g %10ld %12ld %8ld  %s\n", name.c_str(), stats.tReached, best,
                  best > 0 ? stats.tReached / best : 0.0, stats.steps, stats.residualEvals, stats.events,
                  stats.outputThread ? "thread" : "solver");
    } catch (const std::exception& e) {
      ++failures;
      std::printf("%-36s FAILED: %s\n", name.c_str(), e.what());
    }
    std::fflush(stdout);
  }
  std::printf("%-36s %10.4g %12.6f %12.4g   (best of %d runs each; rows: on the output thread or the solver's)\n",
              "total", totalSim, totalWall, totalWall > 0 ? totalSim / totalWall : 0.0, repeats);
  if (defaults) {
    scaling(std::min(repeats, 2));
    analyses(std::min(repeats, 3), false);
    coupling(std::min(repeats, 3));
    userComponents(std::min(repeats, 3));
  }
  return failures == 0 ? 0 : 1;
}
