#include "size_command.h"

#include "engine/engine.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <thread>

namespace pm::cli {

namespace {

std::string fmt(const char* f, double v) {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string pad(std::string s, size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}

// The task as --set assignments on the project's objects.
std::vector<std::string> taskSets(const SizeOptions& o, const Project& pr) {
  std::vector<std::string> s = o.sets;
  auto set = [&](const std::string& obj, const char* param, const std::optional<double>& v) {
    if (v) s.push_back(obj + "." + param + "=" + studies::valueText(*v));
  };
  set(o.cylinder, "mass", o.mass);
  set(o.cylinder, "F_load", o.load);
  set(o.cylinder, "stroke", o.stroke);
  if (o.angleDeg) set(o.cylinder, "angle", *o.angleDeg * M_PI / 180.0);
  if (o.pressure) {
    std::string supply = o.supply;
    if (supply.empty())
      for (const Component& c : pr.components)
        if (c.type == "supply") {
          if (!supply.empty()) throw ProjectError("--pressure", "", "", "the project has several supplies: name one with --supply");
          supply = c.id;
        }
    if (supply.empty()) throw ProjectError("--pressure", "", "", "the project has no supply; name one with --supply");
    set(supply, "p", *o.pressure);
    set(o.cylinder, "pB0", *o.pressure);  // the rod side starts full, as in a running cycle
  }
  return s;
}

void printCandidates(const studies::SizingResult& r, const studies::SizingTask& task) {
  std::cout << pad("cylinder", 14) << pad("valve", 10) << pad("time [s]", 10) << pad("air [Nl]", 10)
            << pad("price", 9) << "verdict\n";
  for (const studies::SizingCandidate& c : r.candidates)
    std::cout << pad(c.cylinderPart, 14) << pad(c.valvePart, 10) << pad(fmt("%.4f", c.time), 10)
              << pad(fmt("%.4f", c.air), 10) << pad(c.price ? fmt("%.2f", *c.price) : "-", 9) << c.why << "\n";
  std::cout << "required: " << task.cylinder << " extends within " << fmt("%.3f", task.requiredTime)
            << " s of the valve signal; candidates that meet it ranked by " << r.rankedBy << "\n";
}

}  // namespace

void addSizeOptions(CLI::App& c, SizeOptions& o) {
  c.add_option("project", o.project, "the circuit to size (e.g. projects/sizing_lift.pneumech.json)")->required();
  c.add_option("--time", o.time, "required extension time from the valve signal, s")->required();
  c.add_option("--cylinder", o.cylinder, "the cylinder's id (default cyl1)");
  c.add_option("--valve", o.valve, "the valve's id (default v1)");
  c.add_option("--cylinders", o.cylinders, "catalogue family of cylinders (default cylinders_iso15552)");
  c.add_option("--valves", o.valves, "catalogue family of valves (default valves_5_2)");
  c.add_option("--mass", o.mass, "moving mass, kg (the cylinder's mass)");
  c.add_option("--load", o.load, "external force opposing extension, N");
  c.add_option("--stroke", o.stroke, "stroke, m");
  c.add_option("--angle", o.angleDeg, "mounting angle, degrees above horizontal (90: lifting)");
  c.add_option("--pressure", o.pressure, "supply pressure, Pa absolute");
  c.add_option("--supply", o.supply, "the supply's id (default: the project's only supply)");
  c.add_option("--set", o.sets, "other overrides in SI: ID.PARAM=VALUE")->take_all();
  c.add_option("--out,-o", o.out, "write every candidate's row as a study table (CSV, and JSON beside it)");
  c.add_option("--jobs,-j", o.jobs, "candidates run at once (default: every core)")->check(CLI::Range(1, 1024));
}

int runSize(const SizeOptions& o) {
  const Project base = engine::load(o.project);
  studies::SizingTask task;
  task.cylinder = o.cylinder;
  task.valve = o.valve;
  task.cylinderFamily = o.cylinders;
  task.valveFamily = o.valves;
  task.requiredTime = o.time;
  task.sets = taskSets(o, base);
  if (!o.out.empty()) engine::checkOutputFile(o.out);
  const int jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const studies::SizingResult r = studies::size(base, o.project, task, jobs);
  if (!o.out.empty()) {
    engine::writeTextFile(o.out, studies::tableCsv(r.setup, r.points, r.results));
    const auto dot = o.out.rfind(".csv");
    engine::writeTextFile((dot == std::string::npos ? o.out : o.out.substr(0, dot)) + ".json",
                          studies::tableJson(r.setup, r.points, r.results).dump(1) + "\n");
  }
  printCandidates(r, task);
  if (r.proposal < 0) {
    std::cout << "no catalogue combination meets the task\n";
    return 3;
  }
  const studies::SizingCandidate& p = r.candidates[static_cast<size_t>(r.proposal)];
  // The proposal once more, as a single run from the file with --set.
  engine::Overrides ov;
  ov.sets = task.sets;
  ov.sets.push_back(task.cylinder + ".part=" + p.cylinderPart);
  ov.sets.push_back(task.valve + ".part=" + p.valvePart);
  const Project pr = engine::load(o.project, ov);
  engine::CompiledProject sim(pr, o.project);
  ResultStore store;
  const RunResult run = sim.run(store);
  if (!run.ok()) throw std::runtime_error("the proposal's own run failed: " + run.message);
  KeyResultOptions kro;
  kro.cyclesPerMinute = reportSettings(pr, o.project).cyclesPerMinute;
  const KeyResults kr = engine::keyResults(pr, store, kro);
  double t = std::nan("");
  for (const CylinderResult& c : kr.cylinders)
    if (const StrokeResult* s = c.id == task.cylinder ? c.firstStroke(true) : nullptr) t = s->fromSignal();
  std::cout << "proposal: " << p.cylinderPart << " with " << p.valvePart << ": " << fmt("%.4f", p.time) << " s of "
            << fmt("%.3f", task.requiredTime) << " s required, margin " << fmt("%.1f", 100.0 * p.margin) << " %, "
            << fmt("%.3f", p.air) << " Nl per cycle\n";
  std::cout << "verified: its own run (--set " << ov.sets[ov.sets.size() - 2] << " --set " << ov.sets.back()
            << ") extends in " << fmt("%.6f", t) << " s\n";
  return 0;
}

}  // namespace pm::cli
