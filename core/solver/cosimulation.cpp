#include "solver/cosimulation.h"
#include "solver/run_control.h"

#include "model/message_text.h"
#include "model/project_error.h"
#include "solver/colored_jacobian.h"
#include "solver/dense_lu.h"
#include "solver/integration_run.h"
#include "solver/matched_klu.h"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

namespace pm {

namespace {

void check(int flag, const char* what) {
  if (flag < 0) throw std::runtime_error(std::string(what) + " failed: " + idaFlagName(flag));
}

// One IDA instance over one System, set up as IntegrationRun does (same
// tolerances, Newton limit, Jacobian, consistent start, restarts after a
// lost junction solution, events), but advanced piecewise by the backplane.
class Integrator {
 public:
  Integrator(System& sys, const SimulationSettings& s) : sys_(sys), set_(s), N_(sys.size()) {}
  ~Integrator() {
    if (mem_) IDAFree(&mem_);
    if (LS_) SUNLinSolFree(LS_);
    if (A_) SUNMatDestroy(A_);
    for (N_Vector v : {y_, yp_, atol_, id_})
      if (v) N_VDestroy(v);
    if (ctx_) SUNContext_Free(&ctx_);
  }
  Integrator(const Integrator&) = delete;
  Integrator& operator=(const Integrator&) = delete;

  double* y() { return N_VGetArrayPointer(y_); }
  double* yp() { return N_VGetArrayPointer(yp_); }
  double t() const { return t_; }
  long steps() const { return steps_ + counter(IDAGetNumSteps); }
  long residualEvals() const { return res_ + counter(IDAGetNumResEvals); }
  long jacobianEvals() const { return jac_ + counter(IDAGetNumJacEvals); }
  long events() const { return events_; }

  void start(double t0) {
    check(SUNContext_Create(nullptr, &ctx_), "SUNContext_Create");
    y_ = N_VNew_Serial(N_, ctx_);
    yp_ = N_VNew_Serial(N_, ctx_);
    atol_ = N_VNew_Serial(N_, ctx_);
    id_ = N_VNew_Serial(N_, ctx_);
    const auto y0 = sys_.initialState();
    for (int i = 0; i < N_; ++i) {
      y()[i] = y0[i];
      yp()[i] = 0.0;
      N_VGetArrayPointer(atol_)[i] = sys_.states()[i].atol;
      N_VGetArrayPointer(id_)[i] = sys_.states()[i].kind == StateKind::Differential ? 1.0 : 0.0;
    }
    sys_.updateDiscrete(t0, y(), yp(), true);
    mem_ = IDACreate(ctx_);
    if (!mem_) throw std::runtime_error("IDACreate failed");
    check(IDAInit(mem_, residualFn, t0, y_, yp_), "IDAInit");
    check(IDASVtolerances(mem_, set_.rel_tol, atol_), "IDASVtolerances");
    check(IDASetUserData(mem_, this), "IDASetUserData");
    // Kept, not printed (as in IntegrationRun): most are recovered from.
    check(IDASetErrHandlerFn(
              mem_, [](int, const char*, const char*, char* msg, void* self) {
                static_cast<Integrator*>(self)->idaMessage_ = msg ? msg : "";
              },
              this),
          "IDASetErrHandlerFn");
    check(IDASetId(mem_, id_), "IDASetId");
    check(IDASetMaxNumSteps(mem_, 200000), "IDASetMaxNumSteps");
    check(IDASetMaxNonlinIters(mem_, 10), "IDASetMaxNonlinIters");
    check(IDASetSuppressAlg(mem_, sys_.highIndex() ? SUNTRUE : SUNFALSE), "IDASetSuppressAlg");
    if (set_.max_step > 0) check(IDASetMaxStep(mem_, set_.max_step), "IDASetMaxStep");
    sparse_ = sys_.sparseJacobian(N_);
    if (sparse_) {
      sys_.presolveJunctions(t0, y(), yp());
      sys_.makeConsistent(t0, y(), yp());
      jac_fn_ = std::make_unique<ColoredJacobian>(sys_, t0, y(), yp());
      A_ = SUNSparseMatrix(N_, N_, static_cast<sunindextype>(jac_fn_->nonZeros()), CSC_MAT, ctx_);
      LS_ = makeMatchedKlu(ctx_);
    } else {
      A_ = SUNDenseMatrix(N_, N_, ctx_);
      LS_ = makeDenseLu(N_, ctx_);
    }
    check(IDASetLinearSolver(mem_, LS_, A_), "IDASetLinearSolver");
    if (sys_.numRoots() > 0) check(IDARootInit(mem_, sys_.numRoots(), rootFn), "IDARootInit");
    icStep_ = std::min(set_.output_interval, 1e-4);
    consistentStart(t0);
    if (!sparse_) jac_fn_ = std::make_unique<ColoredJacobian>(sys_, t0, y(), yp());
    colored_ = !sparse_ && jac_fn_->colors() < N_;
    check(IDASetJacFn(mem_, jacobianFn), "IDASetJacFn");
    t_ = t0;
  }

  // Consistent state at t from the current differential states (after a
  // change of the inputs the backplane gives, at an event, after a lost
  // Newton iteration): junctions by bisection, y' from the residuals, then
  // IDACalcIC; IDA restarts at order 1.
  void restart(double t) {
    accumulate();
    consistentStart(t);
    check(IDASetInitStep(mem_, 0.0), "IDASetInitStep");  // IDA's own (cautious) first step
    t_ = t;
  }
  // Restart after the backplane changed the inputs at an exchange: no
  // discontinuity of the circuit's own, so the first step is the last one
  // taken (IDA's default, 1e-3 of the way to the stop time, would creep up
  // to it again at every exchange). The error test cuts it if it is too big.
  void restartAtExchange(double t) {
    double h = 0.0;
    IDAGetLastStep(mem_, &h);
    accumulate();
    consistentStart(t);
    check(IDASetInitStep(mem_, h > 0.0 ? h : 0.0), "IDASetInitStep");
    t_ = t;
  }

  // Integrates to `tout`, never past `tstop` (the end of the exchange
  // interval: the backplane's lines are not known beyond it).
  void advanceTo(double tout, double tstop) {
    check(IDASetStopTime(mem_, tstop), "IDASetStopTime");
    constexpr int kMaxRestarts = 50;
    while (true) {
      if (t_ >= tout - 1e-12 * std::max(1.0, std::abs(tout))) return;  // an event landed on tout
      const int flag = IDASolve(mem_, tout, &t_, y_, yp_, IDA_NORMAL);
      if ((flag == IDA_CONV_FAIL || flag == IDA_ERR_FAIL) && restarts_ < kMaxRestarts && error_.empty()) {
        ++restarts_;
        if (colored_) {
          jac_fn_->makeDense();
          colored_ = false;
        }
        restart(t_);
        continue;
      }
      if (flag < 0)
        throw std::runtime_error(std::string("integration failed at t = ") + numberText(t_) + " s: " +
                                 idaFlagName(flag) +
                                 (!error_.empty() ? " (" + error_ + ")" : idaMessage_.empty() ? "" : " (" + idaMessage_ + ")"));
      if (flag == IDA_ROOT_RETURN) {
        ++events_;
        sys_.updateDiscrete(t_, y(), yp(), false);
        restart(t_);
        check(IDASetStopTime(mem_, tstop), "IDASetStopTime");
        continue;
      }
      return;  // tout (or tstop == tout) reached
    }
  }

  void outputs(double t, double* row) {
    sys_.checkStates(t, y(), yp());
    sys_.outputs(t, y(), yp(), row);
  }

 private:
  long counter(int (*get)(void*, long*)) const {
    long v = 0;
    if (mem_) get(mem_, &v);
    return v;
  }
  void accumulate() {
    steps_ += counter(IDAGetNumSteps);
    res_ += counter(IDAGetNumResEvals);
    jac_ += counter(IDAGetNumJacEvals);
  }
  void consistentStart(double at) {
    double* yy = y();
    double* yyp = yp();
    sys_.presolveJunctions(at, yy, yyp);
    sys_.makeConsistent(at, yy, yyp);
    r_.resize(N_);
    for (int pass = 0; pass < 2; ++pass) {
      if (sys_.residual(at, yy, yyp, r_.data()) != 0) break;
      for (int i = 0; i < N_; ++i)
        if (sys_.states()[i].kind == StateKind::Differential) yyp[i] -= r_[i];
    }
    ySave_.assign(yy, yy + N_);
    ypSave_.assign(yyp, yyp + N_);
    check(IDAReInit(mem_, at, y_, yp_), "IDAReInit");
    if (sys_.highIndex()) return;
    const int flag = IDACalcIC(mem_, IDA_YA_YDP_INIT, at + icStep_);
    if (flag >= 0) {
      check(IDAGetConsistentIC(mem_, y_, yp_), "IDAGetConsistentIC");
      return;
    }
    if (!error_.empty()) throw std::runtime_error("no consistent state at t = " + numberText(at) + " s: " + error_);
    std::copy(ySave_.begin(), ySave_.end(), yy);
    std::copy(ypSave_.begin(), ypSave_.end(), yyp);
    check(IDAReInit(mem_, at, y_, yp_), "IDAReInit");
  }

  static int residualFn(realtype t, N_Vector y, N_Vector yp, N_Vector r, void* user) {
    auto* self = static_cast<Integrator*>(user);
    try {
      return self->sys_.residual(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r));
    } catch (const std::exception& e) {
      self->error_ = e.what();
      return -1;
    }
  }
  static int rootFn(realtype t, N_Vector y, N_Vector yp, realtype* g, void* user) {
    auto* self = static_cast<Integrator*>(user);
    try {
      return self->sys_.roots(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), g) == 0 ? 0 : -1;
    } catch (const std::exception& e) {
      self->error_ = e.what();
      return -1;
    }
  }
  static int jacobianFn(realtype t, realtype cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J, void* user,
                        N_Vector ewt, N_Vector, N_Vector) {
    auto* self = static_cast<Integrator*>(user);
    try {
      double h = 0.0;
      IDAGetCurrentStep(self->mem_, &h);
      IDAGetErrWeights(self->mem_, ewt);
      if (SUNMatGetID(J) == SUNMATRIX_SPARSE)
        return self->jac_fn_->fillSparse(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r),
                                         N_VGetArrayPointer(ewt), h,
                                         reinterpret_cast<long*>(SUNSparseMatrix_IndexPointers(J)),
                                         reinterpret_cast<long*>(SUNSparseMatrix_IndexValues(J)), SUNSparseMatrix_Data(J));
      return self->jac_fn_->fill(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r),
                                 N_VGetArrayPointer(ewt), h, SUNDenseMatrix_Data(J));
    } catch (const std::exception& e) {
      self->error_ = e.what();
      return -1;
    }
  }

  System& sys_;
  const SimulationSettings& set_;
  const int N_;
  SUNContext ctx_ = nullptr;
  void* mem_ = nullptr;
  N_Vector y_ = nullptr, yp_ = nullptr, atol_ = nullptr, id_ = nullptr;
  SUNMatrix A_ = nullptr;
  SUNLinearSolver LS_ = nullptr;
  std::unique_ptr<ColoredJacobian> jac_fn_;
  bool sparse_ = false, colored_ = false;
  double t_ = 0.0, icStep_ = 1e-4;
  int restarts_ = 0;
  long steps_ = 0, res_ = 0, jac_ = 0, events_ = 0;
  std::string error_;
  std::string idaMessage_;  // IDA's last error text
  std::vector<double> r_, ySave_, ypSave_;
};

// The two integrators' work, summed (and the steps of each).
void countWork(const Integrator& pn, const Integrator& me, RunStats& stats) {
  stats.steps = pn.steps() + me.steps();
  stats.stepsPneumatic = pn.steps();
  stats.stepsMechanical = me.steps();
  stats.residualEvals = pn.residualEvals() + me.residualEvals();
  stats.jacobianEvals = pn.jacobianEvals() + me.jacobianEvals();
  stats.events = pn.events() + me.events();
}

// The output times from row k on (of nOut, every dt up to tEnd) that fall
// within an exchange interval ending at t1.
std::vector<double> outputTimes(long k, long nOut, double dt, double tEnd, double t1) {
  std::vector<double> touts;
  for (long kk = k; kk <= nOut; ++kk) {
    const double to = std::min(kk * dt, tEnd);
    if (to > t1 + 1e-12 * std::max(1.0, t1)) break;
    touts.push_back(to);
  }
  return touts;
}

// Mechanism quantities read by circuit elements: value at t0, mean rate
// over the previous interval (zero at the start; always for a step
// signal). True when a step signal changed: the circuit's elements that
// read it (a valve's solenoid) then decide anew at t0, as they would at
// the mechanics' event in a monolithic run (decision 0014).
bool readMechanismSignals(Backplane& bp, System& mech, double t0, const double* y, const double* yp,
                          double previousInterval) {
  bool stepped = false;
  mech.withEval(t0, y, yp, [&](Eval& e) {
    for (Backplane::Signal& s : bp.mechanismSignals()) {
      const double v = s.read(e);
      stepped = stepped || (s.step && v != s.v0);
      s.rate = previousInterval > 0.0 && !s.step ? (v - s.v0) / previousInterval : 0.0;
      s.v0 = v;
    }
  });
  return stepped;
}

}  // namespace

CoSimulation::CoSimulation(const SimulationSettings& settings, const std::string& file, const SideMaker& makeSide)
    : settings_(settings) {
  pneu_ = makeSide(CouplingRole::Pneumatic, &bp_);
  mech_ = makeSide(CouplingRole::Mechanical, &bp_);
  if (bp_.actuators().empty())
    throw ProjectError(file, "simulation", "coupling",
                       "co-simulation needs an actuator attached to the mechanism (data.attach); none is");
}

CoSimulation::~CoSimulation() = default;

std::vector<ChannelInfo> CoSimulation::channels() const {
  // The pneumatic System's channels, then the mechanical System's new ones
  // (a name both have takes the mechanics' value in run()); last the exchange
  // interval, so a result file says how it was made.
  std::vector<ChannelInfo> channels = pneu_->channels();
  for (const ChannelInfo& c : mech_->channels())
    if (std::none_of(channels.begin(), channels.end(), [&](const ChannelInfo& k) { return k.name == c.name; }))
      channels.push_back(c);
  channels.push_back({"simulation.exchange_interval", "s"});
  return channels;
}

RunResult CoSimulation::run(RowConsumer& out, const std::atomic<bool>* cancel, RunControl* control) {
  const auto wall0 = std::chrono::steady_clock::now();
  RunResult result;
  result.stats.coupling = "cosimulation";
  result.stats.exchangeInterval = settings_.exchange_interval;
  const std::vector<ChannelInfo> channels = this->channels();
  std::map<std::string, int> byName;
  for (size_t i = 0; i < channels.size(); ++i) byName[channels[i].name] = static_cast<int>(i);
  std::vector<int> mechColumn;
  for (const ChannelInfo& c : mech_->channels()) mechColumn.push_back(byName.at(c.name));
  const int hColumn = static_cast<int>(channels.size()) - 1;
  out.setChannels(channels);
  out.expectRows(outputRowCount(settings_.t_end, settings_.output_interval));
  std::vector<double> row(channels.size()), pRow(pneu_->channels().size()), mRow(mech_->channels().size());
  auto merge = [&](double t) {
    std::copy(pRow.begin(), pRow.end(), row.begin());
    for (size_t j = 0; j < mRow.size(); ++j) row[mechColumn[j]] = mRow[j];
    row[hColumn] = settings_.exchange_interval;
    out.append(t, row.data());
  };

  Integrator pn(*pneu_, settings_), me(*mech_, settings_);
  const double tEnd = settings_.t_end, dt = settings_.output_interval, H = settings_.exchange_interval;
  double tReached = 0.0;
  auto& acts = bp_.actuators();
  auto exchangeKinematics = [&](double t, const double* y, const double* yp, std::vector<double>& x,
                                std::vector<double>& v) {
    mech_->withEval(t, y, yp, [&](Eval& e) {
      for (size_t i = 0; i < acts.size(); ++i) acts[i].kinematics(e, x[i], v[i]);
    });
  };
  auto pressureForces = [&](double t, bool atStart) {
    pneu_->withEval(t, pn.y(), pn.yp(), [&](Eval& e) {
      for (Backplane::Actuator& a : acts) {
        (atStart ? a.F0 : a.F1) = a.pressureForce(e);
        if (!a.circuitValues) continue;
        std::vector<double>& c = atStart ? a.c0 : a.c1;
        c.resize(static_cast<size_t>(a.nValues));
        a.circuitValues(e, c.data());
      }
    });
  };
  auto mechanismSignals = [&](double t0, double previousInterval) {
    return readMechanismSignals(bp_, *mech_, t0, me.y(), me.yp(), previousInterval);
  };
  std::vector<double> vOld, vNew, res(pneu_->size());
  auto chamberVolumes = [&](double t, std::vector<double>& V) {
    pneu_->residual(t, pn.y(), pn.yp(), res.data());  // fills each node's V
    V.clear();
    for (const Node& n : pneu_->nodes()) V.push_back(n.V);
  };
  try {
    for (const Backplane::Actuator& a : acts)
      if (!a.pressureForce || !a.kinematics)
        throw std::logic_error("actuator '" + a.id + "' is not on both sides of the co-simulation");
    // Start: the mechanism's assembled state gives the actuators' motion,
    // the pneumatics starts from it, and the mechanics' consistent start
    // (accelerations, reactions) sees the pressure force at t = 0.
    std::vector<double> x(acts.size()), v(acts.size()), vPrev(acts.size());
    const std::vector<double> m0 = mech_->initialState(), m0p(m0.size(), 0.0);
    exchangeKinematics(0.0, m0.data(), m0p.data(), x, v);
    bp_.setInterval(0.0, std::min(H, tEnd));
    for (size_t i = 0; i < acts.size(); ++i) acts[i].x0 = x[i], acts[i].v0 = v[i], acts[i].a0 = 0.0;
    mech_->withEval(0.0, m0.data(), m0p.data(), [&](Eval& e) {
      for (Backplane::Signal& s : bp_.mechanismSignals()) s.v0 = s.read(e), s.rate = 0.0;
    });
    pn.start(0.0);
    pressureForces(0.0, true);
    for (Backplane::Actuator& a : acts) a.F1 = a.F0, a.c1 = a.c0;
    me.start(0.0);
    pn.outputs(0.0, pRow.data());
    me.outputs(0.0, mRow.data());
    merge(0.0);

    const long nOut = std::lround(std::ceil(tEnd / dt - 1e-9));
    const long nEx = std::lround(std::ceil(tEnd / H - 1e-9));
    long k = 1;  // next output
    double tPrev = 0.0;
    for (long j = 0; j < nEx; ++j) {
      if ((cancel && cancel->load()) || (control && !control->proceed(j * H))) {
        result.status = RunStatus::Cancelled;
        result.message = "cancelled at t = " + numberText(tReached) + " s";
        break;
      }
      const double t0 = j * H, t1 = std::min((j + 1) * H, tEnd);
      // Hand operations act on the circuit at the exchange (its integrator
      // restarts there anyway): within H of the click.
      const bool operated = control && control->hasOperations() && applyOperations(*pneu_, control->takeOperations());
      if (operated) pneu_->updateDiscrete(t0, pn.y(), pn.yp(), false);
      if (j > 0) {
        // The chambers' volumes as the pneumatics had them at t0 ...
        chamberVolumes(t0, vOld);
        // ... then the mechanics' consistent values at t0 start the
        // interval; the acceleration is its mean over the last one.
        bp_.setInterval(t0, t1);
        vPrev = v;
        exchangeKinematics(t0, me.y(), me.yp(), x, v);
        for (size_t i = 0; i < acts.size(); ++i)
          acts[i].x0 = x[i], acts[i].v0 = v[i], acts[i].a0 = (v[i] - vPrev[i]) / (t0 - tPrev);
        // The stroke jumps by the extrapolation error: keep each chamber's
        // mass and temperature (so its energy) across the jump, p V = const,
        // or every exchange would create or destroy a little air.
        chamberVolumes(t0, vNew);
        for (size_t n = 0; n < pneu_->nodes().size(); ++n) {
          const Node& node = pneu_->nodes()[n];
          if (node.kind == NodeKind::Capacity && vNew[n] > 0.0) pn.y()[node.slotP] *= vOld[n] / vNew[n];
        }
        if (mechanismSignals(t0, t0 - tPrev)) pneu_->updateDiscrete(t0, pn.y(), pn.yp(), false);
        pn.restartAtExchange(t0);
      } else {
        bp_.setInterval(t0, t1);
        if (operated) pn.restartAtExchange(t0);
      }
      tPrev = t0;
      pressureForces(t0, true);
      // Outputs inside the interval: both sides record theirs, then merge.
      const std::vector<double> touts = outputTimes(k, nOut, dt, tEnd, t1);
      std::vector<std::vector<double>> pRows;
      for (double to : touts) {
        pn.advanceTo(to, t1);
        pn.outputs(to, pRow.data());
        pRows.push_back(pRow);
      }
      pn.advanceTo(t1, t1);
      pressureForces(t1, false);
      for (size_t r = 0; r < touts.size(); ++r) {
        me.advanceTo(touts[r], t1);
        me.outputs(touts[r], mRow.data());
        pRow = pRows[r];
        merge(touts[r]);
      }
      me.advanceTo(t1, t1);
      k += static_cast<long>(touts.size());
      tReached = t1;
      ++result.stats.exchanges;
    }
  } catch (const ProjectError&) {
    throw;
  } catch (const std::exception& e) {
    result.status = RunStatus::Failed;
    result.message = e.what();
  }
  countWork(pn, me, result.stats);
  result.stats.tReached = tReached;
  result.stats.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return result;
}

}  // namespace pm
