#include "result_buffer.h"

#include "units.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace pm::gui {

namespace {

// The k-th channel of the name `name` (k from 1): "tank.p [bar (g)]", "tank.p (2) [bar (g)]".
QString uniqueLabel(const std::string& name, const std::string& unit, int k) {
  const QString label = channelLabel(name, unit);
  if (k <= 1) return label;
  return QString("%1 (%2)%3").arg(QString::fromStdString(name)).arg(k).arg(label.mid(int(name.size())));
}

}  // namespace

QString channelLabel(const std::string& name, const std::string& unit) {
  if (unit.empty() || unit == "1") return QString::fromStdString(name);  // dimensionless
  return QString("%1 [%2]").arg(QString::fromStdString(name), units::forChannel(name, unit).unit);
}

ResultBuffer::ResultBuffer(QObject* parent) : QObject(parent) {
  connect(&units::UnitSettings::instance(), &units::UnitSettings::changed, this, &ResultBuffer::relabel);
}

void ResultBuffer::relabel() {
  std::map<std::string, int> seen;
  for (Channel& c : channels_) c.label = uniqueLabel(c.name, c.unit, ++seen[c.name]);
  emit relabelled();
}

void ResultBuffer::clear() {
  store_.reset();
  channels_.clear();
  t_.clear();
  cols_.clear();
  emit reset();
}

size_t ResultBuffer::pull(const std::shared_ptr<const ResultStore>& store) {
  if (!store) return 0;
  if (store != store_) {
    store_ = store;
    channels_.clear();
    t_.clear();
    cols_.clear();
  }
  if (channels_.empty()) {
    const auto ch = store->channels();
    if (ch.empty()) return 0;  // still compiling
    // A name given twice by the engine (an element channel and a node channel
    // of the same id) gets " (2)" so both stay distinguishable.
    std::map<std::string, int> seen;
    for (const auto& c : ch) {
      const QString label = uniqueLabel(c.name, c.unit, ++seen[c.name]);
      // Group by object: nets ("n:v1.4.p") by their net name, everything
      // else by the id before the first dot ("cyl1.A.p" -> cyl1).
      const std::string& n = c.name;
      size_t cut = n.rfind("n:", 0) == 0 ? n.rfind('.') : n.find('.');
      if (cut == std::string::npos) cut = n.size();
      channels_.push_back({c.name, c.unit, label, QString::fromStdString(n.substr(0, cut)),
                           QString::fromStdString(cut < n.size() ? n.substr(cut + 1) : n)});
    }
    cols_.assign(channels_.size(), {});
    emit reset();
  }
  std::vector<double> t;
  std::vector<std::vector<double>> cols;
  store->copyRows(t_.size(), t, cols);
  if (t.empty() || cols.size() != cols_.size()) return 0;
  t_.insert(t_.end(), t.begin(), t.end());
  for (size_t i = 0; i < cols.size(); ++i) cols_[i].insert(cols_[i].end(), cols[i].begin(), cols[i].end());
  emit appended();
  return t.size();
}

int ResultBuffer::find(const std::string& name) const {
  for (size_t i = 0; i < channels_.size(); ++i)
    if (channels_[i].name == name) return static_cast<int>(i);
  return -1;
}

size_t ResultBuffer::rowAt(double t) const {
  if (t_.empty()) return 0;
  const auto it = std::upper_bound(t_.begin(), t_.end(), t);
  return it == t_.begin() ? 0 : static_cast<size_t>(it - t_.begin()) - 1;
}

size_t ResultBuffer::nearestRow(double t) const {
  const size_t r = rowAt(t);
  if (r + 1 < t_.size() && t_[r + 1] - t <= t - t_[r]) return r + 1;
  return r;
}

double ResultBuffer::valueAt(int ch, double t) const {
  if (ch < 0 || ch >= static_cast<int>(cols_.size())) return NAN;
  const auto& c = cols_[static_cast<size_t>(ch)];
  const size_t n = std::min(c.size(), t_.size());
  if (n == 0) return NAN;
  const size_t r = rowAt(t);
  if (r + 1 >= n || t <= t_[r]) return c[std::min(r, n - 1)];
  const double w = (t - t_[r]) / (t_[r + 1] - t_[r]);
  return c[r] + w * (c[r + 1] - c[r]);
}

}  // namespace pm::gui
