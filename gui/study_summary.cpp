#include "study_summary.h"

#include "engine/engine.h"
#include "plot_unit.h"
#include "units.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace pm::gui {

namespace {

QString tr(const char* s) { return QCoreApplication::translate("StudySummary", s); }

QString q(const std::string& s) { return QString::fromStdString(s); }

// The SI unit of a parameter or result `name` of the study ("": unknown).
std::string unitOf(const studies::StudySetup& setup, const std::string& name) {
  const auto& ps = setup.study.parameters;
  for (size_t k = 0; k < ps.size(); ++k)
    if (ps[k].path == name) return k < setup.parameterUnits.size() ? setup.parameterUnits[k] : std::string();
  const auto& rs = setup.study.results;
  for (size_t k = 0; k < rs.size(); ++k)
    if (rs[k] == name) return k < setup.resultUnits.size() ? setup.resultUnits[k] : std::string();
  return {};
}

// The display unit of `name` (plotUnit, as the report's plots); none for a
// catalogue part's index or a name of no known unit.
std::optional<PlotUnit> shownUnit(const studies::StudySetup& setup, const std::string& name) {
  const std::string si = unitOf(setup, name);
  if (si.empty()) return std::nullopt;
  if (si == "1") return PlotUnit{"-", 1.0, 0.0};
  const auto& ps = setup.study.parameters;
  if (std::any_of(ps.begin(), ps.end(), [&](const auto& p) { return p.path == name; }))
    if (const std::optional<OverrideTarget> t = overrideTarget(setup.base, name)) {
      // A parameter in the unit its From and To were typed in (the property editor's).
      const units::DisplayUnit du = units::forTarget(*t);
      return PlotUnit{du.unit, du.scale, -du.offset};
    }
  return plotUnit(si, units::UnitSettings::instance().ambient(), name);
}

double shown(double si, const std::optional<PlotUnit>& u) { return u ? (si - u->offset) * u->scale : si; }

// "src.p [bar (g)]"; a name of no unit alone.
QString labelled(const std::string& name, const std::optional<PlotUnit>& u) {
  return u ? QString("%1 [%2]").arg(q(name), u->label) : q(name);
}

// Parameter k's value `v` as the table and the chosen design show it: in
// its display unit (`withUnit`: followed by it), a part's label.
QString parameterText(const studies::StudySetup& setup, size_t k, double v, bool withUnit = false) {
  const studies::StudyParameter& p = setup.study.parameters[k];
  const std::optional<PlotUnit> u = shownUnit(setup, p.path);
  if (!u) return q(studies::valueLabel(p, v));
  const QString text = QString::number(shown(v, u), 'g', 6);
  return withUnit && u->label != "-" ? text + " " + u->label : text;
}

// `values` from SI into the display unit of `name`.
void toShown(std::vector<double>& values, const studies::StudySetup& setup, const std::string& name) {
  const std::optional<PlotUnit> u = shownUnit(setup, name);
  for (double& v : values) v = shown(v, u);
}

}  // namespace

QStringList studyTableHeader(const studies::StudySetup& setup) {
  const studies::StudyDefinition& st = setup.study;
  QStringList h{tr("variant")};
  for (const auto& p : st.parameters) h << labelled(p.path, shownUnit(setup, p.path));
  for (const auto& r : st.results) h << labelled(r, shownUnit(setup, r));
  h << tr("feasible") << tr("status");
  return h;
}

QStringList studyTableRow(const studies::StudySetup& setup, size_t i, const std::vector<double>& point,
                          const studies::VariantResult* result, const QString& status) {
  const studies::StudyDefinition& st = setup.study;
  QStringList row{QString::number(i)};
  for (size_t k = 0; k < st.parameters.size(); ++k)
    row << (k < point.size() ? parameterText(setup, k, point[k]) : QString());
  for (size_t k = 0; k < st.results.size(); ++k) {
    const double v = result && result->ok && k < result->results.size() ? result->results[k] : std::nan("");
    row << (std::isfinite(v) ? QString::number(shown(v, shownUnit(setup, st.results[k])), 'g', 6) : QString());
  }
  row << (result ? QString(result->feasible ? "1" : "0") : QString()) << status;
  return row;
}

QString studyKind(const studies::StudyDefinition& st) {
  QStringList names;
  for (const auto& p : st.parameters) names << q(p.path);
  if (st.hasOptimisation)
    return tr("Optimisation (%1, %2 %3) over %4")
        .arg(q(st.optimisation.algorithm), st.optimisation.maximise ? tr("maximising") : tr("minimising"),
             q(st.optimisation.objective), names.join(", "));
  static const char* kinds[] = {"Grid", "Lists", "Latin hypercube sample", "Sobol sample", "Random sample"};
  return tr("%1 of %2").arg(tr(kinds[int(st.sampling)]), names.join(", "));
}

int bestFeasibleRow(const std::vector<studies::VariantResult>& results, const std::vector<bool>& finished) {
  int best = -1;
  double value = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if ((i < finished.size() && !finished[i]) || !r.feasible || r.results.empty()) continue;
    if (r.results[0] < value) value = r.results[0], best = int(i);
  }
  return best;
}

QString variantText(const studies::StudySetup& setup, const std::vector<double>& point, int row) {
  QStringList what;
  const auto& ps = setup.study.parameters;
  for (size_t k = 0; k < ps.size() && k < point.size(); ++k)
    what << q(ps[k].path) + " = " + parameterText(setup, k, point[k], true);
  return tr("variant %1, %2").arg(row).arg(what.join(", "));
}

StudyPlotData studyPlotData(const studies::StudySetup& setup, const std::vector<std::vector<double>>& points,
                            const std::vector<studies::VariantResult>& results, const std::vector<bool>& finished,
                            const std::string& xName, const std::string& yName, bool heatMap,
                            const std::string& zName) {
  StudyPlotData d;
  auto value = [&](size_t i, const std::string& name) {
    const bool shown = (i >= finished.size() || finished[i]) && i < results.size() && results[i].ok;
    return shown ? studies::variantValue(setup, points[i], results[i], name) : std::nan("");
  };
  for (size_t i = 0; i < points.size(); ++i) {
    d.x.push_back(value(i, xName));
    d.y.push_back(value(i, yName));
    d.feasible.push_back(std::isfinite(d.x.back()) && i < results.size() && results[i].feasible);
  }
  toShown(d.x, setup, xName);
  toShown(d.y, setup, yName);
  d.xLabel = labelled(xName, shownUnit(setup, xName));
  d.yLabel = labelled(yName, shownUnit(setup, yName));
  const auto& ps = setup.study.parameters;
  if (heatMap && setup.study.sampling == studies::Sampling::Grid && ps.size() == 2) {
    // Grid order: the first parameter slowest, so variant i * ny + j is cell (i, j).
    d.heatMap = true;
    d.gridX = ps[0].values;
    d.gridY = ps[1].values;
    for (size_t i = 0; i < points.size(); ++i) {
      d.z.push_back(value(i, zName));
      d.cellFeasible.push_back(std::isfinite(d.z.back()) && results[i].feasible);
    }
    toShown(d.gridX, setup, ps[0].path);
    toShown(d.gridY, setup, ps[1].path);
    toShown(d.z, setup, zName);
    d.heatXLabel = labelled(ps[0].path, shownUnit(setup, ps[0].path));
    d.heatYLabel = labelled(ps[1].path, shownUnit(setup, ps[1].path));
    d.zLabel = labelled(zName, shownUnit(setup, zName));
  }
  return d;
}

StudySummary summarizeStudy(const studies::StudySetup& setup, const std::vector<std::vector<double>>& points,
                            const std::vector<studies::VariantResult>& results, int chosenRow,
                            const QString& chosenWhy) {
  StudySummary s;
  const studies::StudyDefinition& st = setup.study;
  s.header = studyTableHeader(setup);
  size_t failed = 0, feasible = 0;
  for (size_t i = 0; i < points.size() && i < results.size(); ++i) {
    const auto& r = results[i];
    failed += !r.ok;
    feasible += r.feasible;
    s.rows.push_back(studyTableRow(setup, i, points[i], &r, r.ok ? tr("ok") : tr("failed")));
  }
  s.description = tr("%1: %2 variants, %3 failed").arg(studyKind(st)).arg(points.size()).arg(failed);
  if (!st.constraints.empty()) s.description += tr(", %1 met the constraints").arg(feasible);
  for (const auto& c : st.constraints) s.constraints << q(c.text);
  if (!st.parameters.empty() && !st.results.empty())
    s.plot = studyPlotData(setup, points, results, {}, st.parameters[0].path, st.results[0], true, st.results[0]);
  s.chosenRow = chosenRow;
  s.chosen = chosenWhy;
  if (s.chosenRow < 0) {
    s.chosenRow = bestFeasibleRow(results);
    if (!st.results.empty())
      s.chosen = tr("The smallest %1 among the variants that met the constraints: ").arg(q(st.results[0]));
  }
  if (s.chosenRow < 0 || size_t(s.chosenRow) >= points.size()) {
    s.chosenRow = -1;
    s.chosen = tr("No variant met the constraints.");
    return s;
  }
  s.chosen += variantText(setup, points[size_t(s.chosenRow)], s.chosenRow);
  return s;
}

}  // namespace pm::gui
