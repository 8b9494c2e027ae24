// `mpirun -np N pneumech study P`: the variants spread over the MPI ranks.
// Rank 0 reads the study, hands every batch to all ranks (variant i to rank
// i mod N), gathers the rows and writes the table; the other ranks only
// evaluate. A row is computed the same on any rank (studies/study_runner.h),
// and travels as raw doubles, so the table is the local run's, bit for bit.
// Compiled where Open MPI is found (PM_HAVE_MPI).
#pragma once

#include "engine/engine.h"

#include <cstdint>

namespace pm::cli {

// True when started by mpirun / mpiexec (Open MPI's or a PMI launcher's
// variables are set): only then is MPI initialised.
bool launchedByMpi();

class MpiEvaluator : public studies::Evaluator {
 public:
  // Initialises MPI; `jobs` threads per rank.
  MpiEvaluator(int& argc, char**& argv, const studies::StudySetup& setup, int jobs, studies::VariantDone done);
  ~MpiEvaluator() override;  // finalises MPI
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Rank 0: one batch on every rank.
  std::vector<studies::VariantResult> evaluate(const std::vector<std::vector<double>>& points) override;
  // Ranks > 0: evaluate the batches rank 0 sends until it calls finish().
  void serve();
  // Rank 0: lets the other ranks' serve() return.
  void finish();

 private:
  std::vector<studies::VariantResult> batch(std::vector<std::vector<double>> points);
  const studies::StudySetup& setup_;
  int jobs_;
  studies::VariantDone done_;
  int rank_ = 0, size_ = 1;
  bool finished_ = false;
  std::int64_t next_ = 0;  // rank 0: the next batch's first row in the table
};

}  // namespace pm::cli
