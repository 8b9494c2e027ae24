// The studio's copy of the results of the run shown: channels with their
// display labels and the SI columns (the plots, the schematic animation, the
// results tree and the 3D view all read this one copy), handed over on the
// GUI thread by the run controller as the run's rows arrive. The copy is
// bounded (DecimatedRows: every row of a short run; of a long one every
// stride-th row, each channel's exact extremes and the newest row, within
// about `valueBudget` values), so a long run with many channels does not
// grow the studio's memory; the full rows are in the run's results file,
// which writeCsv(), forEachRow() and fullRows() read once the run is over.
#pragma once

#include "engine/engine.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace pm::gui {

class ResultBuffer : public QObject {
  Q_OBJECT
 public:
  struct Channel {
    std::string name, unit;  // engine name "<object>.<quantity>", SI unit
    QString label;           // "tank.p [bar (g)]"; a name given twice gets " (2)"
    QString object;          // what the results tree groups by
    QString quantity;        // the rest of the name
  };

  explicit ResultBuffer(QObject* parent = nullptr);
  ~ResultBuffer() override;  // waits for a copy being made from the file

  // Forgets everything (a new run starts); emits reset().
  void clear();
  // A run's channels came: sets them up (emits reset()).
  void begin(const std::vector<ChannelInfo>& channels);
  // `count` rows, row after row as [t, value per channel] (after begin()):
  // emits appended(); returns `count`. Decimating may drop rows kept before.
  size_t append(const std::vector<double>& rows, size_t count);
  // The run has ended: store() holds every row kept, and writeCsv(),
  // forEachRow() and fullRows() read `resultsFile` (every row of the run;
  // the kept rows when null). `rowsLeftOut`: append() was not given every
  // row (the GUI fell behind, SimulationRunner::rowsThinned): the copy is
  // made again from the file, so the plots show every channel's extremes,
  // on a thread of its own (a quarter of a second for TORX's 90 s); the
  // copy is replaced in the GUI thread when it is done (rowsReplaced()).
  void finish(std::shared_ptr<const RawResultFile> resultsFile, bool rowsLeftOut = false);
  // The copy is being made again from the results file.
  bool reloading() const { return reload_.joinable(); }
  // Waits for that copy and puts it in place now (emits rowsReplaced()).
  void waitReload();
  // Values (rows x channels) the copy aims to stay within, for runs begun
  // after the call.
  void setValueBudget(size_t values) { valueBudget_ = values; }
  // Changes when rows kept before were dropped (the copy thinned out): a
  // view copying rows incrementally starts over.
  uint64_t generation() const { return generationBase_ + rows_.generation(); }
  // Every `stride()` rows of the run one is kept (1: all of them).
  size_t stride() const { return rows_.stride(); }

  const std::vector<Channel>& channels() const { return channels_; }
  int find(const std::string& name) const;  // -1 when absent
  const std::vector<double>& times() const { return rows_.times(); }
  const std::vector<std::vector<double>>& columns() const { return rows_.columns(); }
  size_t rows() const { return rows_.rows(); }
  // Row at or just before time t (0 when empty).
  size_t rowAt(double t) const;
  // Row whose time is nearest to t (the later one of a tie; 0 when empty).
  size_t nearestRow(double t) const;
  // The channels' labels anew in the studio's units (View > Pressure
  // Units changed); emits relabelled().
  void relabel();
  // SI value of channel `ch` at time t, linear between rows (NaN when empty).
  double valueAt(int ch, double t) const;
  // The kept rows as a store (for the 3D view, the report, the
  // displacement-step diagram); null before a run. While the run goes on it
  // lacks the newest row; a view holding it starts over when generation()
  // changes.
  std::shared_ptr<const ResultStore> store() const { return store_; }
  // Writes "time [s]" and `channels` (all when empty) as CSV to `path`
  // atomically: every row of a finished run, from its results file (the
  // bytes `pneumech simulate -o` writes), else the rows kept. Throws naming
  // the file or the unknown channel.
  void writeCsv(const std::string& path, const std::vector<std::string>& channels) const;
  // Every row of a finished run (else the rows kept), in order, with the SI
  // values of the channels `columns` (indices into channels()).
  void forEachRow(const std::vector<int>& columns, const std::function<void(double, const double*)>& row) const;
  // Every row of a finished run (else the rows kept) of the channels
  // `names` as a store: what key results are computed from, whatever the
  // copy dropped.
  std::shared_ptr<const ResultStore> fullRows(const std::vector<std::string>& names) const;

 signals:
  void reset();
  void appended();
  void relabelled();  // same channels and rows, labels and display units changed
  void rowsReplaced();  // the copy made again from the results file is in place

 private:
  void syncStore(size_t upTo);
  void startReload();
  void applyReload();

  static constexpr size_t kMinRows = 2000, kMaxRows = 100000;  // DecimatedRows' target
  size_t valueBudget_ = 2000000;  // doubles; the rows kept: at most 2x that + 2 rows per channel
  std::shared_ptr<ResultStore> store_;
  std::vector<Channel> channels_;
  size_t targetRows_ = kMinRows;  // rows_' target
  DecimatedRows rows_;
  uint64_t generationBase_ = 0;  // rows_ made again from the file: its count goes on from here
  uint64_t generation_ = 0;      // generation() when store_ was last rebuilt
  std::shared_ptr<const RawResultFile> file_;
  bool complete_ = false;
  std::thread reload_;                     // making the copy again from file_
  std::shared_ptr<DecimatedRows> remade_;  // what it makes (read once it is joined)
};

// "tank.p [bar (g)]" (display unit), or the bare name for dimensionless channels.
QString channelLabel(const std::string& name, const std::string& siUnit);

}  // namespace pm::gui
