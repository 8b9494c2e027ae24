// The studio's copy of the results of the run shown: channels with their
// display labels and the SI columns, streamed from the run's ResultStore on
// the GUI thread (the plots, the schematic animation and the results tree all
// read this one copy). pull() is called about 30 times a second while a run
// is in progress and appends only the rows that are new.
#pragma once

#include "engine/engine.h"

#include <QObject>
#include <QString>

#include <memory>
#include <string>
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

  // Forgets everything (a new run starts); emits reset().
  void clear();
  // Copies the rows `store` gained since the last pull; the first pull that
  // sees channels sets them up (emits reset()). Emits appended() when rows
  // arrived; returns their number.
  size_t pull(const std::shared_ptr<const ResultStore>& store);

  const std::vector<Channel>& channels() const { return channels_; }
  int find(const std::string& name) const;  // -1 when absent
  const std::vector<double>& times() const { return t_; }
  const std::vector<std::vector<double>>& columns() const { return cols_; }
  size_t rows() const { return t_.size(); }
  // Row at or just before time t (0 when empty).
  size_t rowAt(double t) const;
  // Row whose time is nearest to t (the later one of a tie; 0 when empty).
  size_t nearestRow(double t) const;
  // The channels' labels anew in the studio's units (View > Pressure
  // Units changed); emits relabelled().
  void relabel();
  // SI value of channel `ch` at time t, linear between rows (NaN when empty).
  double valueAt(int ch, double t) const;
  // The store the rows come from (for its CSV writer); may be null.
  std::shared_ptr<const ResultStore> store() const { return store_; }

 signals:
  void reset();
  void appended();
  void relabelled();  // same channels and rows, labels and display units changed

 private:
  std::shared_ptr<const ResultStore> store_;
  std::vector<Channel> channels_;
  std::vector<double> t_;
  std::vector<std::vector<double>> cols_;
};

// "tank.p [bar (g)]" (display unit), or the bare name for dimensionless channels.
QString channelLabel(const std::string& name, const std::string& siUnit);

}  // namespace pm::gui
