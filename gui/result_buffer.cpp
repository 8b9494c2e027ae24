#include "result_buffer.h"

#include "units.h"

#include <QMetaObject>

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

ResultBuffer::~ResultBuffer() {
  if (reload_.joinable()) reload_.join();
}

void ResultBuffer::relabel() {
  std::map<std::string, int> seen;
  for (Channel& c : channels_) c.label = uniqueLabel(c.name, c.unit, ++seen[c.name]);
  emit relabelled();
}

void ResultBuffer::clear() {
  waitReload();  // the last run's views finish before they are emptied
  store_.reset();
  file_.reset();
  complete_ = false;
  channels_.clear();
  rows_.setChannels(0);
  generation_ = generation();
  emit reset();
}

void ResultBuffer::begin(const std::vector<ChannelInfo>& ch) {
  waitReload();
  channels_.clear();
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
  const size_t n = std::max<size_t>(ch.size(), 1);
  targetRows_ = std::clamp<size_t>(valueBudget_ / n, kMinRows, kMaxRows);
  generationBase_ = generation() + 1;  // a view of the old rows starts over
  rows_ = DecimatedRows(targetRows_);
  rows_.setChannels(ch.size());
  generation_ = generation();
  complete_ = false;
  store_ = std::make_shared<ResultStore>();
  store_->setChannels(ch);
  emit reset();
}

size_t ResultBuffer::append(const std::vector<double>& rows, size_t count) {
  if (!store_) return 0;  // begin() first
  const size_t width = channels_.size() + 1;
  if (count == 0 || rows.size() < count * width) return 0;
  rows_.append(rows.data(), count, width);
  syncStore(rows_.rows() - 1);  // the newest row may yet be replaced
  emit appended();
  return count;
}

void ResultBuffer::finish(std::shared_ptr<const RawResultFile> resultsFile, bool rowsLeftOut) {
  file_ = std::move(resultsFile);
  complete_ = true;
  if (store_) syncStore(rows_.rows());
  if (rowsLeftOut && file_ && store_) startReload();
}

// The copy made again from every row of the run, as append() would have
// made it had it been given them all: on a thread of its own, handed over
// in the GUI thread (applyReload). `this` outlives the thread (the
// destructor joins it); a call still queued when it is gone is dropped.
void ResultBuffer::startReload() {
  remade_ = std::make_shared<DecimatedRows>(targetRows_);
  reload_ = std::thread([this, file = file_, rows = remade_, n = channels_.size()] {
    const size_t width = n + 1, batchRows = 4096;
    rows->setChannels(n);
    std::vector<int> all(n);
    for (size_t c = 0; c < n; ++c) all[c] = int(c);
    std::vector<double> batch;
    batch.reserve(width * batchRows);
    try {
      file->forEachRow(all, [&](double t, const double* v) {
        batch.push_back(t);
        batch.insert(batch.end(), v, v + n);
        if (batch.size() < width * batchRows) return;
        rows->append(batch.data(), batchRows, width);
        batch.clear();
      });
      if (!batch.empty()) rows->append(batch.data(), batch.size() / width, width);
    } catch (const std::exception&) {
      rows->setChannels(n);  // unreadable: the rows that came stay
    }
    QMetaObject::invokeMethod(this, [this] { applyReload(); }, Qt::QueuedConnection);
  });
}

void ResultBuffer::waitReload() { applyReload(); }

void ResultBuffer::applyReload() {
  if (!reload_.joinable()) return;  // done already (waitReload() came first)
  reload_.join();
  const std::shared_ptr<DecimatedRows> remade = std::move(remade_);
  if (remade->rows() > 0) {
    generationBase_ = generation() + 1;  // every view copying rows starts over
    rows_ = std::move(*remade);
    syncStore(rows_.rows());
    emit appended();
  }
  emit rowsReplaced();
}

// The store holds the first `upTo` kept rows; a compaction starts it over.
void ResultBuffer::syncStore(size_t upTo) {
  if (!store_) return;
  size_t have = store_->rows();
  if (generation() != generation_ || have > upTo) {
    generation_ = generation();
    store_->setChannels(store_->channels());
    have = 0;
  }
  if (upTo <= have) return;
  // The new rows in one go: one lock, one copy per column.
  std::vector<const double*> cols(channels_.size());
  for (size_t c = 0; c < cols.size(); ++c) cols[c] = rows_.columns()[c].data() + have;
  store_->appendColumns(rows_.times().data() + have, cols, upTo - have);
}

void ResultBuffer::writeCsv(const std::string& path, const std::vector<std::string>& channels) const {
  if (complete_ && file_) file_->writeCsv(path, channels);
  else if (store_) store_->writeCsv(path, channels);
}

void ResultBuffer::forEachRow(const std::vector<int>& columns,
                              const std::function<void(double, const double*)>& row) const {
  if (complete_ && file_) {
    file_->forEachRow(columns, row);
    return;
  }
  std::vector<double> v(columns.size());
  for (size_t r = 0; r < rows_.rows(); ++r) {
    for (size_t c = 0; c < columns.size(); ++c) v[c] = rows_.columns()[size_t(columns[c])][r];
    row(rows_.times()[r], v.data());
  }
}

std::shared_ptr<const ResultStore> ResultBuffer::fullRows(const std::vector<std::string>& names) const {
  if (!complete_ || !file_) return store_;
  auto s = std::make_shared<ResultStore>();
  file_->load(*s, names);
  return s;
}

int ResultBuffer::find(const std::string& name) const {
  for (size_t i = 0; i < channels_.size(); ++i)
    if (channels_[i].name == name) return static_cast<int>(i);
  return -1;
}

size_t ResultBuffer::rowAt(double t) const {
  const auto& ts = rows_.times();
  if (ts.empty()) return 0;
  const auto it = std::upper_bound(ts.begin(), ts.end(), t);
  return it == ts.begin() ? 0 : static_cast<size_t>(it - rows_.times().begin()) - 1;
}

size_t ResultBuffer::nearestRow(double t) const {
  const size_t r = rowAt(t);
  if (r + 1 < rows_.times().size() && rows_.times()[r + 1] - t <= t - rows_.times()[r]) return r + 1;
  return r;
}

double ResultBuffer::valueAt(int ch, double t) const {
  if (ch < 0 || ch >= static_cast<int>(rows_.columns().size())) return NAN;
  const auto& c = rows_.columns()[static_cast<size_t>(ch)];
  const size_t n = std::min(c.size(), rows_.times().size());
  if (n == 0) return NAN;
  const size_t r = rowAt(t);
  if (r + 1 >= n || t <= rows_.times()[r]) return c[std::min(r, n - 1)];
  const double w = (t - rows_.times()[r]) / (rows_.times()[r + 1] - rows_.times()[r]);
  return c[r] + w * (c[r + 1] - c[r]);
}

}  // namespace pm::gui
