// The study dialog's plot: one point per finished variant, a result (or
// parameter) against another; feasible variants filled, infeasible hollow,
// failed ones left out. With "Pareto" on, both axes are objectives to
// minimise and the non-dominated variants are marked and joined.
#pragma once

#include <QString>
#include <QWidget>

#include <vector>

namespace pm::gui {

// Indices of the points no other point dominates (<= in both, < in one),
// minimising x and y, in increasing x. NaN points take no part.
std::vector<size_t> paretoFront(const std::vector<double>& x, const std::vector<double>& y);

class StudyPlot : public QWidget {
  Q_OBJECT
 public:
  explicit StudyPlot(QWidget* parent = nullptr);
  void setData(std::vector<double> x, std::vector<double> y, std::vector<bool> feasible, const QString& xLabel,
               const QString& yLabel);
  void setPareto(bool on);
  const std::vector<size_t>& front() const { return front_; }  // empty unless Pareto is on
  size_t pointCount() const;                                    // finite points drawn
  QSize sizeHint() const override { return {420, 260}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  std::vector<double> x_, y_;
  std::vector<bool> feasible_;
  QString xLabel_, yLabel_;
  bool pareto_ = false;
  std::vector<size_t> front_;
};

}  // namespace pm::gui
