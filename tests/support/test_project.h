// Helpers the Qt Test programs share to build a project in code, run it with
// pm::Simulation and read its result channels. Header-only; include it as
// "support/test_project.h" (tests/ is on every test target's include path).
#pragma once

#include "analyses/simulation.h"
#include "model/project.h"
#include "solver/result_store.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pm::test {

// ---------------------------------------------------------------- files

// The source tree: $PM_SOURCE_DIR (set by CTest) or the configure-time path.
inline std::string sourceDir() {
  const char* s = std::getenv("PM_SOURCE_DIR");
  return s ? s : PM_SOURCE_DIR;
}

// Path of an example project under <source>/projects/ ("" gives the folder itself, with a trailing '/').
inline std::string projectPath(const std::string& name) { return sourceDir() + "/projects/" + name; }

// ---------------------------------------------------------------- building a project

inline Component comp(const std::string& id, const std::string& type, std::map<std::string, double> params = {},
                      std::map<std::string, std::string> inputs = {}, nlohmann::json data = nullptr) {
  Component c;
  c.id = id;
  c.type = type;
  c.params = std::move(params);
  c.inputs = std::move(inputs);
  c.data = std::move(data);
  return c;
}

// Adds a connection between two ports written "component.port" (split at the
// last '.', as the project file does); ids are c1, c2, ... in order.
// Not named `connect`: that is QObject's.
inline void wire(Project& p, const std::string& from, const std::string& to) {
  auto split = [](const std::string& s) {
    const auto dot = s.rfind('.');
    return PortRef{s.substr(0, dot), s.substr(dot + 1)};
  };
  Connection k;
  k.id = "c" + std::to_string(p.connections.size() + 1);
  k.from = split(from);
  k.to = split(to);
  p.connections.push_back(k);
}

// Solver tolerances (SimulationSettings fields rel_tol, abs_tol_*); a field
// left unset keeps the project's value.
struct Tolerances {
  std::optional<double> rel = std::nullopt;
  std::optional<double> pressure = std::nullopt;
  std::optional<double> temperature = std::nullopt;
  std::optional<double> position = std::nullopt;
};

// End time and output interval; optionally solver tolerances and max_step
// (unset: left as they are).
inline void settings(Project& p, double tEnd, double outputInterval, const Tolerances& tol = {},
                     std::optional<double> maxStep = std::nullopt) {
  p.simulation.t_end = tEnd;
  p.simulation.output_interval = outputInterval;
  if (tol.rel) p.simulation.rel_tol = *tol.rel;
  if (tol.pressure) p.simulation.abs_tol_pressure = *tol.pressure;
  if (tol.temperature) p.simulation.abs_tol_temperature = *tol.temperature;
  if (tol.position) p.simulation.abs_tol_position = *tol.position;
  if (maxStep) p.simulation.max_step = *maxStep;
}

// A project file's text: `n` unconnected double-acting cylinders (19 result
// channels each), sampled every `outputInterval` over `tEnd` (as JSON numbers):
// many channels for little work (issue 26, point 6).
inline std::string manyCylindersText(int n, const std::string& tEnd, const std::string& outputInterval) {
  std::string s = R"({"format": "pneumech-project", "schema_version": 1, "simulation": {"t_end": )" + tEnd +
                  R"(, "output_interval": )" + outputInterval + R"(}, "connections": [], "components": [)";
  for (int i = 0; i < n; ++i)
    s += std::string(i ? ", " : "") + R"({"id": "c)" + std::to_string(i) + R"(", "type": "cylinder_double"})";
  return s + "]}";
}

// ---------------------------------------------------------------- sampled signals

// First sample index at or after `from` where pred(v[i]) holds; -1 if none.
template <class Pred>
int firstIndex(const std::vector<double>& v, Pred pred, int from = 0) {
  for (int i = std::max(from, 0); i < static_cast<int>(v.size()); ++i)
    if (pred(v[i])) return i;
  return -1;
}

enum class Crossing {
  Either,   // (v[i-1] - level)(v[i] - level) <= 0 with v[i] != v[i-1]
  Rising,   // v[i-1] < level <= v[i]
  Falling,  // v[i-1] > level >= v[i]
};

// Time at which the sampled signal v(t) first crosses `level` between samples
// i-1 and i, i >= max(from, 1), linearly interpolated; NaN if it never does.
inline double crossingTime(const std::vector<double>& t, const std::vector<double>& v, double level,
                           Crossing dir = Crossing::Either, int from = 1) {
  for (int i = std::max(from, 1); i < static_cast<int>(v.size()); ++i) {
    bool hit = false;
    switch (dir) {
      case Crossing::Either: hit = (v[i - 1] - level) * (v[i] - level) <= 0.0 && v[i] != v[i - 1]; break;
      case Crossing::Rising: hit = v[i - 1] < level && v[i] >= level; break;
      case Crossing::Falling: hit = v[i - 1] > level && v[i] <= level; break;
    }
    if (hit) return t[i - 1] + (level - v[i - 1]) / (v[i] - v[i - 1]) * (t[i] - t[i - 1]);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// ---------------------------------------------------------------- running

// One finished run. The Simulation is kept (for its System).
struct Run {
  Project project;
  std::unique_ptr<Simulation> sim;
  ResultStore out;
  RunResult result;
  std::string error;      // what() of an exception from compiling or running; result is then Failed
  std::vector<double> t;  // out.times()

  bool ok() const { return error.empty() && result.ok(); }
  std::string message() const { return error.empty() ? result.message : error; }

  // A channel; a missing one is fatal, listing those there are.
  std::vector<double> col(const std::string& name) const {
    if (out.find(name) < 0) {
      QString all;
      for (const auto& c : out.channels()) all += QString::fromStdString(c.name) + " ";
      qFatal("no channel %s; have: %s", name.c_str(), qPrintable(all));
    }
    return out.column(name);
  }

  // Index of the first sample at or after `time` (less 1e-12).
  size_t indexAt(double time) const {
    return static_cast<size_t>(std::lower_bound(t.begin(), t.end(), time - 1e-12) - t.begin());
  }

  // Linear interpolation of a channel at time `time`.
  double at(const std::string& name, double time) const {
    const auto v = col(name);
    auto it = std::lower_bound(t.begin(), t.end(), time);
    if (it == t.begin()) return v.front();
    if (it == t.end()) return v.back();
    const size_t i = static_cast<size_t>(it - t.begin());
    const double s = (time - t[i - 1]) / (t[i] - t[i - 1]);
    return v[i - 1] + s * (v[i] - v[i - 1]);
  }

  // Mean frequency [Hz] of an oscillation of a channel over [t0, t1] from its
  // upward crossings of its mean there (linearly interpolated); NaN with
  // fewer than three crossings.
  double meanFrequency(const std::string& name, double t0, double t1) const {
    const auto v = col(name);
    double mean = 0.0;
    int n = 0;
    for (size_t i = 0; i < v.size(); ++i)
      if (t[i] >= t0 && t[i] <= t1) mean += v[i], ++n;
    mean /= n;
    std::vector<double> up;
    for (size_t i = 1; i < v.size(); ++i)
      if (t[i - 1] >= t0 && t[i] <= t1 && v[i - 1] < mean && v[i] >= mean)
        up.push_back(t[i - 1] + (mean - v[i - 1]) / (v[i] - v[i - 1]) * (t[i] - t[i - 1]));
    if (up.size() < 3) return std::numeric_limits<double>::quiet_NaN();
    return (up.size() - 1) / (up.back() - up.front());
  }

  // First time after `after` (between samples later than `after`) the channel
  // crosses `level`, interpolated; NaN if never.
  double crossing(const std::string& name, double level, double after = 0.0,
                  Crossing dir = Crossing::Either) const {
    const int from = static_cast<int>(std::upper_bound(t.begin(), t.end(), after) - t.begin());
    return crossingTime(t, col(name), level, dir, from);
  }

  // Largest |value| over samples with t in [t0, t1].
  double maxAbs(const std::string& name, double t0, double t1) const {
    const auto v = col(name);
    double m = 0.0;
    for (size_t i = 0; i < v.size(); ++i)
      if (t[i] >= t0 && t[i] <= t1) m = std::max(m, std::abs(v[i]));
    return m;
  }
};

// Largest difference between two runs' rows of the same project, relative
// to the largest magnitude among the channels of the same unit (a part's
// acceleration across the plane it moves in is rounding noise, 1e-7 m/s2,
// next to the 400 m/s2 along it; a planar pendulum's out-of-plane torques
// are all 1e-17 N m), at least 1e-3 of the SI unit; the channel and time
// where it is largest in `where`. Rows at different times count as infinite.
inline double rowDifference(const ResultStore& a, const ResultStore& b, std::string& where) {
  const auto& ch = a.channels();
  const auto ta = a.times(), tb = b.times();
  if (ta != tb || b.channels().size() != ch.size()) {
    where = "the rows' times or the channels";
    return std::numeric_limits<double>::infinity();
  }
  std::map<std::string, double> scale;
  for (size_t c = 0; c < ch.size(); ++c)
    for (double v : a.column(static_cast<int>(c))) scale[ch[c].unit] = std::max(scale[ch[c].unit], std::abs(v));
  double worst = 0.0;
  for (size_t c = 0; c < ch.size(); ++c) {
    const auto x = a.column(static_cast<int>(c)), y = b.column(static_cast<int>(c));
    const double s = std::max(scale[ch[c].unit], 1e-3);  // units that stay below 1e-3 SI: rounding noise
    for (size_t i = 0; i < x.size(); ++i) {
      const double d = std::abs(x[i] - y[i]) / s;
      if (!(d <= worst)) {  // NaN counts
        worst = std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
        where = ch[c].name + " at t = " + std::to_string(ta[i]);
      }
    }
  }
  return worst;
}

// The bound on rowDifference between a run's rows computed by the System's
// copy on the output thread and on the solver's: none, they are the same bit
// for bit (the copy sees the same points and discrete states in the same
// order either way). A missed piece of an element's discrete state shows.
constexpr double kOutputThreadTol = 0.0;

// Compiles and runs (a copy of) the project with its result rows computed
// where `rows` says. An exception is caught: its text goes to `error` and
// result.status becomes Failed (result.message is left empty, so a check on
// the solver's own message does not match it).
inline std::unique_ptr<Run> runProject(const Project& p, const std::string& name, OutputRows rows,
                                       const BuildOptions& options = {}) {
  auto r = std::make_unique<Run>();
  r->project = p;
  try {
    r->sim = std::make_unique<Simulation>(r->project, name, options);
    r->sim->setOutputRows(rows);
    r->result = r->sim->run(r->out);
  } catch (const std::exception& e) {
    r->error = e.what();
    r->result.status = RunStatus::Failed;
  }
  r->t = r->out.times();
  return r;
}

// runProject with the rows on the output thread whenever the project allows
// it (by default only mechanisms' are), and every run doubles as a check of
// that thread (solver/output_pipeline.h): the same project run again with
// the rows on the solver's thread must give the same rows
// (kOutputThreadTol), else the test fails naming the channel: an element
// whose discrete() misses a field, or a row that changes what the solver
// does next.
inline std::unique_ptr<Run> simulate(const Project& p, const std::string& name = "test", const BuildOptions& options = {}) {
  auto r = runProject(p, name, OutputRows::Thread, options);
  if (r->ok() && r->result.stats.outputThread) {
    const auto serial = runProject(p, name, OutputRows::Solver, options);
    std::string where;
    const double d = serial->ok() ? rowDifference(serial->out, r->out, where) : 0.0;
    if (!serial->ok() || d > kOutputThreadTol) {
      const std::string msg = name + ": rows on the output thread differ from the solver thread's: " +
                              (serial->ok() ? std::to_string(d) + " in " + where : "that run failed: " + serial->message());
      QTest::qFail(msg.c_str(), __FILE__, __LINE__);
    }
  }
  return r;
}

// Largest |a_i - f(t_i)| over a run's outputs (a against a closed form of t).
template <class F>
double worst(const Run& r, const std::vector<double>& a, F f) {
  double w = 0.0;
  for (size_t i = 0; i < a.size(); ++i) w = std::max(w, std::abs(a[i] - f(r.t[i])));
  return w;
}

}  // namespace pm::test

#define CHECK_WORST(value, tol) \
  QVERIFY2((value) < (tol), qPrintable(QString("%1 = %2 (tolerance %3)").arg(#value).arg(value).arg(tol)))

// ---------------------------------------------------------------- checks

#define REQUIRE_OK(run) QVERIFY2((run)->ok(), qPrintable(QString::fromStdString("run failed: " + (run)->message())))

#define CHECK_REL(measured, expected, rel)                                                                \
  do {                                                                                                    \
    const double m_ = (measured), e_ = (expected);                                                        \
    const double err_ = std::abs(m_ - e_) / std::max(std::abs(e_), 1e-300);                               \
    qInfo("%-44s measured %.12g expected %.12g rel err %.3g (tol %.3g)", #measured, m_, e_, err_, (rel)); \
    QVERIFY2(err_ <= (rel), "relative error above tolerance");                                            \
  } while (0)

#define CHECK_ABS(measured, expected, tol)                                                                \
  do {                                                                                                    \
    const double m_ = (measured), e_ = (expected);                                                        \
    const double err_ = std::abs(m_ - e_);                                                                \
    qInfo("%-44s measured %.12g expected %.12g abs err %.3g (tol %.3g)", #measured, m_, e_, err_, (tol)); \
    QVERIFY2(err_ <= (tol), "absolute error above tolerance");                                            \
  } while (0)
