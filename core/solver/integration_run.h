// One monolithic integration of a compiled System from 0 to t_end with
// SUNDIALS IDA (variable-order BDF): set up the integrator, make the start
// consistent, then step from output row to output row, handling the events
// (roots, clock instants, hand operations) between steps, and gather the
// statistics. Simulation::run (analyses/simulation.h) makes one per run.
#pragma once

#include "model/project.h"
#include "solver/row_consumer.h"
#include "solver/run_control.h"
#include "solver/run_result.h"
#include "solver/system.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pm {

class OutputPipeline;

// IDA's name of a return flag ("IDA_CONV_FAIL"). IDAGetReturnFlagName
// returns a malloc'd string the caller frees: this frees it.
std::string idaFlagName(long flag);

class IntegrationRun {
 public:
  // Compiles another copy of the System (for the output rows).
  using CopyMaker = std::function<std::unique_ptr<System>()>;

  IntegrationRun(System& sys, const SimulationSettings& settings, RowConsumer& out, const std::atomic<bool>* cancel,
                 RunControl* control, OutputRows outputRows, CopyMaker makeCopy);
  ~IntegrationRun();
  IntegrationRun(const IntegrationRun&) = delete;
  IntegrationRun& operator=(const IntegrationRun&) = delete;

  // The whole run (once).
  RunResult run();

  struct Solver;  // IDA's objects and callbacks (integration_run.cpp)

 private:
  // The steps of a run, in their order.
  void outputTimeAlone();  // nothing to integrate: rows of time alone
  void setUp();            // states, output rows, IDA and its linear solver
  void setUpOutputRows();
  void setUpLinearSolver();
  void consistentStart(double at);
  void advance();  // one call into IDA, then what it returned at
  int step(double tout, double tClock);
  void restart();  // after a failed step IDA may recover from
  [[noreturn]] void fail(int flag);
  void event(int flag, double tout);
  bool handOperations(double at);
  bool carryOn(double at);
  void emit(double at, const double* y, const double* yp);
  void write(double at, const double* y, const double* yp);
  void accumulateStats();
  RunResult finish();

  double outputTime(long i) const { return std::min(t0_ + double(i) * dt_, tEnd_); }
  double operationTime(double upTo) const;
  bool noRootAtZero(double at);

  System& sys_;
  const SimulationSettings& settings_;
  RowConsumer& out_;
  const std::atomic<bool>* cancel_;
  RunControl* control_;
  OutputRows outputRows_;
  CopyMaker makeCopy_;
  const std::chrono::steady_clock::time_point wall0_;
  const int N_;
  const double t0_, tEnd_, dt_;

  RunResult result_;
  std::unique_ptr<Solver> ida_;
  double* y_ = nullptr;
  double* yp_ = nullptr;
  double t_;
  double tWritten_;  // the time of the last row written
  double tInterp_;   // IDA's last step reaches back to here (IDAGetDky is valid from here on)

  // The result rows, by a copy of the System when there is one.
  std::vector<double> row_;
  std::unique_ptr<OutputPipeline> pipe_;
  std::vector<double> discrete_;
  unsigned long sentVersion_ = 0;  // sys_.discreteVersion() of the copy's discrete state

  bool sparse_ = false, colored_ = false, clocked_ = false;
  double icStep_ = 0.0;
  std::vector<double> r_, ySave_, ypSave_;  // consistentStart()'s
  std::vector<double> rBefore_, rAfter_;    // the residuals around an event
  std::vector<double> g_;                   // root functions
  long nOut_ = 0;
  long k_ = 1;  // the next output
  long stepsSinceOutput_ = 0;
  int restarts_ = 0;
};

}  // namespace pm
