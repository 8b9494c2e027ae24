#include "solver/integration_run.h"

#include "model/message_text.h"
#include "solver/colored_jacobian.h"
#include "solver/dense_lu.h"
#include "solver/matched_klu.h"
#include "solver/output_pipeline.h"
#include "solver/serial_vector.h"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace pm {

namespace {

struct Callbacks {
  System* sys = nullptr;
  // Stop and the wall-time limit act within a step too: the residual
  // fails once this is set (an output interval may take many steps).
  const std::atomic<bool>* stop = nullptr;
  std::string error;
  void* mem = nullptr;
  std::unique_ptr<ColoredJacobian> jac;
  // Reuse of the last difference quotient when IDA asks for a matrix only
  // because cj changed (see jacobianFn).
  bool reuse = false, lastFillValid = false;
  long stepsAtFill = 0, convFailsSeen = 0;
  double resT = -1.0;  // time of the latest residual call and their number there
  int resCount = 0;
  std::string idaMessage;  // IDA's last error text (a run that fails quotes it)
};

// IDA's errors are kept, not printed: most are recovered from (a restart
// from the last accepted point), and one that is not reaches the user in
// the run's message with the object and state named.
void idaErrors(int, const char*, const char*, char* msg, void* user) {
  static_cast<Callbacks*>(user)->idaMessage = msg ? msg : "";
}

// Steps after which the reused dF/dy is filled afresh.
constexpr long kReuseSteps = 20;

int residualFn(realtype t, N_Vector y, N_Vector yp, N_Vector r, void* user) {
  auto* cb = static_cast<Callbacks*>(user);
  if (t == cb->resT)
    ++cb->resCount;
  else
    cb->resT = t, cb->resCount = 1;
  if (cb->stop && cb->stop->load(std::memory_order_relaxed)) {
    cb->error = "stopped";
    return -1;
  }
  try {
    return cb->sys->residual(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r));
  } catch (const std::exception& e) {
    cb->error = e.what();
    return -1;
  }
}

int rootFn(realtype t, N_Vector y, N_Vector yp, realtype* g, void* user) {
  auto* cb = static_cast<Callbacks*>(user);
  try {
    return cb->sys->roots(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), g) == 0 ? 0 : -1;
  } catch (const std::exception& e) {
    cb->error = e.what();
    return -1;
  }
}

int jacobianFn(realtype t, realtype cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J, void* user, N_Vector ewt,
               N_Vector, N_Vector) {
  auto* cb = static_cast<Callbacks*>(user);
  try {
    // IDA asks for a new matrix when cj = alpha/h leaves [0.6, 1.67] times
    // the cj of the last one (every step-size change after a controller
    // sample), and after a failed Newton iteration. In the first case the last difference quotient
    // shifted by (cj' - cj) dF/dy' is as good as IDA's own reuse between
    // updates and costs no residual; a fresh one is filled after a Newton
    // failure (counted by IDA, or a second setup at the same time: residuals
    // there beyond the predictor's), every kReuseSteps steps, and after a restart.
    const bool sparse = SUNMatGetID(J) == SUNMATRIX_SPARSE;
    static_assert(sizeof(sunindextype) == sizeof(long), "KLU index type");
    long* colPtr = sparse ? reinterpret_cast<long*>(SUNSparseMatrix_IndexPointers(J)) : nullptr;
    long* rowIdx = sparse ? reinterpret_cast<long*>(SUNSparseMatrix_IndexValues(J)) : nullptr;
    long steps = 0, convFails = 0;
    IDAGetNumSteps(cb->mem, &steps);
    IDAGetNumNonlinSolvConvFails(cb->mem, &convFails);
    const bool retry = t == cb->resT && cb->resCount > 1;
    if (cb->reuse && cb->lastFillValid && cb->jac->hasMass() && !retry && convFails == cb->convFailsSeen &&
        steps >= cb->stepsAtFill && steps - cb->stepsAtFill < kReuseSteps) {
      if (sparse)
        cb->jac->refillSparse(cj, colPtr, rowIdx, SUNSparseMatrix_Data(J));
      else
        cb->jac->refill(cj, SUNDenseMatrix_Data(J));
      return 0;
    }
    double h = 0.0;
    IDAGetCurrentStep(cb->mem, &h);
    IDAGetErrWeights(cb->mem, ewt);
    const double* yv = N_VGetArrayPointer(y);
    const double* ypv = N_VGetArrayPointer(yp);
    const double* rv = N_VGetArrayPointer(r);
    const double* w = N_VGetArrayPointer(ewt);
    int status = sparse ? cb->jac->fillSparse(t, cj, yv, ypv, rv, w, h, colPtr, rowIdx, SUNSparseMatrix_Data(J))
                        : cb->jac->fill(t, cj, yv, ypv, rv, w, h, SUNDenseMatrix_Data(J));
    if (status == 0 && cb->reuse && !cb->jac->hasMass()) status = cb->jac->fillMass(t, cj, yv, ypv, rv, w, h);
    cb->lastFillValid = status == 0;
    cb->stepsAtFill = steps;
    cb->convFailsSeen = convFails;
    return status;
  } catch (const std::exception& e) {
    cb->error = e.what();
    return -1;
  }
}

// Owns the SUNDIALS objects of one run.
struct Ida {
  SUNContext ctx = nullptr;
  void* mem = nullptr;
  N_Vector y = nullptr, yp = nullptr, atol = nullptr, id = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  ~Ida() {
    if (mem) IDAFree(&mem);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    for (N_Vector v : {y, yp, atol, id})
      if (v) N_VDestroy(v);
    if (ctx) SUNContext_Free(&ctx);
  }
};

// Solver steps allowed within one output interval.
constexpr long kMaxSteps = 200000;
// Restarts after failed steps allowed in one run.
constexpr int kMaxRestarts = 50;

void check(int flag, const char* what) {
  if (flag < 0) throw std::runtime_error(std::string(what) + " failed: " + idaFlagName(flag));
}

// The state IDA's local error test weighs most (-1 when unknown).
int suspectState(void* mem, int N) {
  if (!mem || N == 0) return -1;
  SUNContext ctx = nullptr;
  if (SUNContext_Create(nullptr, &ctx) < 0) return -1;
  N_Vector ele = N_VNew_Serial(N, ctx), ewt = N_VNew_Serial(N, ctx);
  int worst = -1;
  if (IDAGetEstLocalErrors(mem, ele) >= 0 && IDAGetErrWeights(mem, ewt) >= 0) {
    double big = 0.0;
    for (int i = 0; i < N; ++i) {
      const double e = std::abs(N_VGetArrayPointer(ele)[i] * N_VGetArrayPointer(ewt)[i]);
      if (std::isfinite(e) && e > big) big = e, worst = i;
    }
  }
  N_VDestroy(ele);
  N_VDestroy(ewt);
  SUNContext_Free(&ctx);
  return worst;
}

// Where IDA has no local errors to point at (it failed on its first
// steps): a state that is not finite, else the differential state with the
// shortest time constant, |d(residual)/dy| on its own row (-1 when none).
int stiffestState(System& sys, double t, const double* y, const double* yp) {
  const int n = sys.size();
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(y[i]) || !std::isfinite(yp[i])) return i;
  std::vector<double> yy(y, y + n), r0(n), r1(n);
  if (sys.residual(t, yy.data(), yp, r0.data()) != 0) return -1;
  int worst = -1;
  double big = 0.0;
  for (int i = 0; i < n; ++i) {
    if (sys.states()[i].kind != StateKind::Differential) continue;
    const double h = 1e-7 * std::max(std::abs(y[i]), 1e3 * sys.states()[i].atol);
    yy[i] = y[i] + h;
    const bool ok = sys.residual(t, yy.data(), yp, r1.data()) == 0;
    yy[i] = y[i];
    const double rate = std::abs(r1[i] - r0[i]) / h;
    if (ok && std::isfinite(rate) && rate > big) big = rate, worst = i;
  }
  return worst;
}

}  // namespace

struct IntegrationRun::Solver {
  Callbacks cb;
  Ida ida;  // freed before cb
};

IntegrationRun::IntegrationRun(System& sys, const SimulationSettings& settings, RowConsumer& out,
                               const std::atomic<bool>* cancel, RunControl* control,
                               OutputRows outputRows, CopyMaker makeCopy)
    : sys_(sys),
      settings_(settings),
      out_(out),
      cancel_(cancel),
      control_(control),
      outputRows_(outputRows),
      makeCopy_(std::move(makeCopy)),
      wall0_(std::chrono::steady_clock::now()),
      N_(sys.size()),
      t0_(0.0),
      tEnd_(settings.t_end),
      dt_(settings.output_interval),
      ida_(std::make_unique<Solver>()),
      t_(t0_),
      tWritten_(t0_),
      tInterp_(t0_) {}

IntegrationRun::~IntegrationRun() = default;

RunResult IntegrationRun::run() {
  out_.setChannels(sys_.channels());
  out_.expectRows(outputRowCount(tEnd_, dt_));
  row_.assign(sys_.channels().size(), 0.0);
  ida_->cb.sys = &sys_;
  ida_->cb.stop = cancel_;
  sys_.setStopsAtTimeEvents(true);  // every step ends at the next clock instant (see step())
  try {
    if (N_ == 0) {
      outputTimeAlone();
    } else {
      setUp();
      consistentStart(t0_);
      // Coloured difference quotients pay off once columns can share residuals.
      if (!sparse_) ida_->cb.jac = std::make_unique<ColoredJacobian>(sys_, t0_, y_, yp_);
      colored_ = !sparse_ && ida_->cb.jac->colors() < N_;
      check(IDASetJacFn(ida_->ida.mem, jacobianFn), "IDASetJacFn");
      emit(t0_, y_, yp_);
      clocked_ = std::isfinite(sys_.nextTimeEvent());
      if (carryOn(t0_)) handOperations(t0_);
      while (k_ <= nOut_ && result_.status != RunStatus::Cancelled) advance();
    }
  } catch (const std::exception& e) {
    result_.status = RunStatus::Failed;
    result_.message = e.what();
  }
  return finish();
}

// Nothing to integrate (a mechanism welded to the ground, lumped into it):
// the rows are functions of time alone, unless there are none or something
// discrete could happen (that needs the integrator's events).
void IntegrationRun::outputTimeAlone() {
  if (sys_.channels().empty() || sys_.numRoots() > 0 || std::isfinite(sys_.nextTimeEvent()))
    throw std::runtime_error("the project has nothing to simulate");
  const long rows = std::lround(std::ceil(tEnd_ / dt_ - 1e-9));
  for (long i = 0; i <= rows; ++i) {
    t_ = outputTime(i);
    if (i > 0 && ((cancel_ && cancel_->load()) || (control_ && !control_->proceed(t_)))) {
      result_.status = RunStatus::Cancelled;
      result_.message = "cancelled at t = " + numberText(t_) + " s";
      break;
    }
    sys_.outputs(t_, nullptr, nullptr, row_.data());
    out_.append(t_, row_.data());
  }
}

void IntegrationRun::setUp() {
  Ida& ida = ida_->ida;
  Callbacks& cb = ida_->cb;
  check(SUNContext_Create(nullptr, &ida.ctx), "SUNContext_Create");
  ida.y = newSerialVector(N_, ida.ctx);
  ida.yp = newSerialVector(N_, ida.ctx);
  ida.atol = newSerialVector(N_, ida.ctx);
  ida.id = newSerialVector(N_, ida.ctx);
  y_ = N_VGetArrayPointer(ida.y);
  yp_ = N_VGetArrayPointer(ida.yp);
  const auto y0 = sys_.initialState();
  for (int i = 0; i < N_; ++i) {
    y_[i] = y0[i];
    yp_[i] = 0.0;
    N_VGetArrayPointer(ida.atol)[i] = sys_.states()[i].atol;
    N_VGetArrayPointer(ida.id)[i] = sys_.states()[i].kind == StateKind::Differential ? 1.0 : 0.0;
  }
  sys_.updateDiscrete(t0_, y_, yp_, true);
  setUpOutputRows();
  // Runs with sampled controllers or second-order dynamics reuse Jacobians
  // (see jacobianFn): there cj changes at most steps and a fresh difference
  // quotient costs tens of residuals (one per colour). Pure
  // circuits keep IDA's own updates (the cushioned seed 003's end-stop
  // contact speed, sampled at the outputs, rose above its test bound of
  // 0.02 m/s to 0.028 with reuse).
  cb.reuse = std::isfinite(sys_.nextTimeEvent()) || sys_.secondOrder();

  ida.mem = IDACreate(ida.ctx);
  if (!ida.mem) throw std::runtime_error("IDACreate failed");
  check(IDAInit(ida.mem, residualFn, t0_, ida.y, ida.yp), "IDAInit");
  check(IDASVtolerances(ida.mem, settings_.rel_tol, ida.atol), "IDASVtolerances");
  check(IDASetUserData(ida.mem, &cb), "IDASetUserData");
  check(IDASetErrHandlerFn(ida.mem, idaErrors, &cb), "IDASetErrHandlerFn");
  check(IDASetId(ida.mem, ida.id), "IDASetId");
  check(IDASetMaxNumSteps(ida.mem, kMaxSteps), "IDASetMaxNumSteps");
  // IDA's default of 4 Newton iterations per step gave up on a converging
  // iteration (a valve switching at rel_tol 1e-4 failed at h = 4e-10);
  // 10 lets the slow, linear convergence of a stale Jacobian finish.
  check(IDASetMaxNonlinIters(ida.mem, 10), "IDASetMaxNonlinIters");
  check(IDASetStopTime(ida.mem, tEnd_), "IDASetStopTime");
  // Algebraic states stay out of the local error test: they follow the
  // differential states. A junction's temperature mixes its neighbours',
  // which no conduction evens out (decision 0003): when a valve switches it
  // jumps from one neighbour's to another's, faster than the test can
  // follow (a valve circuit failed at h = 4e-12 s). A mechanism's Lagrange
  // multipliers are index-2 variables: they must stay out of the error test
  // (Brenan, Campbell, Petzold). In the reduced formulation the algebraic
  // states left (an attached cylinder's x and v) are functions of the
  // independent coordinates the test already weighs.
  check(IDASetSuppressAlg(ida.mem, SUNTRUE), "IDASetSuppressAlg");
  if (settings_.max_step > 0) check(IDASetMaxStep(ida.mem, settings_.max_step), "IDASetMaxStep");
  setUpLinearSolver();
  cb.mem = ida.mem;
  if (sys_.numRoots() > 0) check(IDARootInit(ida.mem, sys_.numRoots(), rootFn), "IDARootInit");

  icStep_ = std::min(dt_, 1e-4);
  r_.resize(N_), ySave_.resize(N_), ypSave_.resize(N_);
  rBefore_.resize(N_), rAfter_.resize(N_);
  g_.resize(sys_.numRoots());
  nOut_ = std::lround(std::ceil(tEnd_ / dt_ - 1e-9));
}

// Circuits keep their rows on the solver's own System by default: a row is
// one evaluation, cheaper than the hand-over; second-order dynamics' rows
// solve for the reactions and pay for the thread.
void IntegrationRun::setUpOutputRows() {
  const bool copy = outputRows_ != OutputRows::Auto || sys_.secondOrder();
  if (!copy || !sys_.saveDiscrete(discrete_)) return;
  sentVersion_ = sys_.discreteVersion() - 1;  // the first row sends it
  const bool threaded = outputRows_ == OutputRows::Thread ||
                        (outputRows_ == OutputRows::Auto && std::thread::hardware_concurrency() > 1);
  pipe_ = std::make_unique<OutputPipeline>(makeCopy_, out_, N_, static_cast<int>(row_.size()), threaded);
  result_.stats.outputCopy = true;
  result_.stats.outputThread = threaded;
}

// Large systems (long mechanisms, big circuits) factorise a sparse Jacobian
// with KLU (rows matched first, see matched_klu.h): its cost grows about
// linearly with the size where dense LU grows with the cube. The pattern
// must exist before the matrix does, so it is sampled here at the
// pre-solved start.
void IntegrationRun::setUpLinearSolver() {
  Ida& ida = ida_->ida;
  Callbacks& cb = ida_->cb;
  sparse_ = sys_.sparseJacobian(N_);
  result_.stats.sparseJacobian = sparse_;
  if (sparse_) {
    sys_.presolveJunctions(t0_, y_, yp_);
    sys_.makeConsistent(t0_, y_, yp_);
    cb.jac = std::make_unique<ColoredJacobian>(sys_, t0_, y_, yp_);
    // The output thread's copy takes colours of each fresh difference
    // quotient in turn with the solver (it is idle most of the time). Not
    // where an element's residual has a history
    // (IntegrationNeeds::residualHasHistory): the copy's residual could
    // differ from the solver's in the last bits.
    if (pipe_ && pipe_->threaded() && !sys_.residualHasHistory())
      cb.jac->setAside([this](ColoredJacobian::Task task) { pipe_->aside(std::move(task)); },
                       [this](std::vector<double>& d) { return sys_.saveDiscrete(d); });
    ida.A = SUNSparseMatrix(N_, N_, static_cast<sunindextype>(cb.jac->nonZeros()), CSC_MAT, ida.ctx);
    useOptimisedZero(ida.A);
    ida.LS = makeMatchedKlu(ida.ctx);
  } else {
    ida.A = SUNDenseMatrix(N_, N_, ida.ctx);
    useOptimisedZero(ida.A);
    ida.LS = makeDenseLu(N_, ida.ctx);
  }
  check(IDASetLinearSolver(ida.mem, ida.LS, ida.A), "IDASetLinearSolver");
  if (sparse_) check(IDASetJacFn(ida.mem, jacobianFn), "IDASetJacFn");
}

// Consistent start (at t0 and after every event): junction pressures by
// bisection, then y' of the differential states from their residuals
// (exact for the explicit form y' - f(y) our elements write), then IDA's
// own IDACalcIC to polish. If IDACalcIC's Newton fails from there, the
// pre-solved point is consistent to the residual shown and IDA starts
// from it; its first step corrects the rest.
void IntegrationRun::consistentStart(double at) {
  Ida& ida = ida_->ida;
  Callbacks& cb = ida_->cb;
  tInterp_ = at;
  cb.lastFillValid = false;  // the discrete state changed the equations
  if (cb.jac) cb.jac->dropMass();
  sys_.presolveJunctions(at, y_, yp_);
  sys_.makeConsistent(at, y_, yp_);
  for (int pass = 0; pass < 2; ++pass) {
    if (sys_.residual(at, y_, yp_, r_.data()) != 0) break;
    for (int i = 0; i < N_; ++i)
      if (sys_.states()[i].kind == StateKind::Differential) yp_[i] -= r_[i];
  }
  std::copy(y_, y_ + N_, ySave_.begin());
  std::copy(yp_, yp_ + N_, ypSave_.begin());
  check(IDAReInit(ida.mem, at, ida.y, ida.yp), "IDAReInit");
  // IDACalcIC solves for algebraic states from their own equations,
  // which index-2 constraints do not have; the elements did it instead.
  if (sys_.highIndex()) return;
  const int flag = IDACalcIC(ida.mem, IDA_YA_YDP_INIT, at + icStep_);
  if (flag >= 0) {
    check(IDAGetConsistentIC(ida.mem, ida.y, ida.yp), "IDAGetConsistentIC");
    return;
  }
  if (!cb.error.empty()) throw std::runtime_error("no consistent state at t = " + numberText(at) + " s: " + cb.error);
  std::copy(ySave_.begin(), ySave_.end(), y_);
  std::copy(ypSave_.begin(), ypSave_.end(), yp_);
  check(IDAReInit(ida.mem, at, ida.y, ida.yp), "IDAReInit");
}

void IntegrationRun::advance() {
  const double tout = outputTime(k_);
  const double tClock = sys_.nextTimeEvent();
  int flag = step(tout, tClock);
  if ((flag == IDA_CONV_FAIL || flag == IDA_ERR_FAIL) && restarts_ < kMaxRestarts && ida_->cb.error.empty()) {
    restart();
    return;
  }
  // IDA's limit of kMaxSteps per call, kept per output row when the
  // calls are per step.
  if (flag >= 0 && ++stepsSinceOutput_ > kMaxSteps) flag = IDA_TOO_MUCH_WORK;
  if (flag < 0) fail(flag);
  double hLast = 0.0, tn = 0.0;
  if (control_ && IDAGetLastStep(ida_->ida.mem, &hLast) >= 0 && IDAGetCurrentTime(ida_->ida.mem, &tn) >= 0)
    tInterp_ = tn - std::abs(hLast);
  // A clock instant is an event however IDA got there: its stop time,
  // or an output time on the instant (the clocks have no roots), the
  // end of the run included.
  const bool atClock = flag >= 0 && std::isfinite(tClock) && t_ >= tClock - 1e-12 * std::max(1.0, tClock);
  if (flag == IDA_ROOT_RETURN || (flag == IDA_TSTOP_RETURN && t_ < tEnd_) || atClock)
    event(flag, tout);
  else if (t_ >= tout - 1e-12 * std::max(1.0, tout))
    write(tout, y_, yp_);
  // Between solver steps: stop, pause and hand operations act here.
  if (k_ <= nOut_ && carryOn(t_) && control_ && control_->hasOperations()) handOperations(operationTime(t_));
}

// One call into IDA towards tout. With a RunControl, IDASolve returns after
// about every step (its next step ends at tn + h), so that stop, pause and
// hand operations act between solver steps, not only at output rows. Still
// IDA_NORMAL mode: it checks the root functions at every return point as
// well as at step ends (IDA_ONE_STEP checks only step ends and missed a
// comparator's switching inside one long step). Right after a (re)start,
// one step in IDA_ONE_STEP mode: IDA picks its first step from tout as
// without control, and returns after it. Steps end on clock instants
// (controller samples, tClock).
int IntegrationRun::step(double tout, double tClock) {
  Ida& ida = ida_->ida;
  double tStop = std::min(tEnd_, tClock);
  if (!(tStop > t_)) tStop = tEnd_;
  check(IDASetStopTime(ida.mem, tStop), "IDASetStopTime");
  long nst = 0;
  double tn = t_, hn = 0.0;
  int flag = 0;
  // About one step per call (with a RunControl, or towards the next
  // clock instant): IDA's next step ends at tn + hn.
  const bool stepwise = (clocked_ || control_) && IDAGetNumSteps(ida.mem, &nst) >= 0 && nst > 0 &&
                        IDAGetCurrentStep(ida.mem, &hn) >= 0 && hn > 0 && IDAGetCurrentTime(ida.mem, &tn) >= 0;
  if (stepwise) {
    // IDA cuts the step that would pass a clock instant to the rest,
    // which may be tiny; the step after the instant may then grow only
    // to twice that, and cj swings with it (each swing a Jacobian).
    // Instead the rest is cut into k equal steps, k the fewest of IDA's
    // next steps that cover it, through intermediate stops (fewer
    // Jacobians than halving only a rest of one to two steps).
    const double rest = tStop - tn;
    const double pieces = std::ceil(rest / hn - 1e-6);
    const bool split = clocked_ && pieces >= 2.0;
    if (split) check(IDASetStopTime(ida.mem, tn + rest / pieces), "IDASetStopTime");
    flag = IDASolve(ida.mem, std::min(tout, std::max(t_, tn) + hn), &t_, ida.y, ida.yp, IDA_NORMAL);
    if (split && flag == IDA_TSTOP_RETURN) flag = IDA_SUCCESS;  // not an event
  } else if (!control_) {
    flag = IDASolve(ida.mem, tout, &t_, ida.y, ida.yp, IDA_NORMAL);
  } else {
    flag = IDASolve(ida.mem, tout, &t_, ida.y, ida.yp, IDA_ONE_STEP);
    if (flag == IDA_SUCCESS && t_ > tout) flag = IDASolve(ida.mem, tout, &t_, ida.y, ida.yp, IDA_NORMAL);
  }
  return flag;
}

// Newton lost a junction (algebraic) solution far from its start, as
// happens at loose tolerances where pressure-flow curves bend sharply:
// restart from the last accepted point, junctions solved by bisection.
// y, yp hold that point (IDA returns it on failure).
void IntegrationRun::restart() {
  ++restarts_;
  accumulateStats();
  if (colored_) {  // a coupling the pattern missed is the likelier cause: use the full quotient
    ida_->cb.jac->makeDense();
    colored_ = false;
  }
  consistentStart(t_);
}

// The run fails at t_, naming the state (and its object) that most likely
// made IDA give up.
void IntegrationRun::fail(int flag) {
  const Callbacks& cb = ida_->cb;
  int worst = suspectState(ida_->ida.mem, N_);
  std::string why = worst < 0 ? "" : "; largest local error in ";
  if (worst < 0) {
    try {
      worst = stiffestState(sys_, t_, y_, yp_);
    } catch (const std::exception&) {
      worst = -1;
    }
    if (worst >= 0)
      why = "; likely cause: a parameter at the end of its range (a tiny volume, mass or inertia makes the "
            "equations too stiff to step); the stiffest state is in ";
  }
  if (worst >= 0) result_.object = sys_.stateObject(worst);
  throw std::runtime_error(std::string("integration failed at t = ") + numberText(t_) + " s: " +
                           idaFlagName(flag) +
                           (!cb.error.empty() ? " (" + cb.error + ")" : cb.idaMessage.empty() ? "" : " (" + cb.idaMessage + ")") +
                           (worst < 0 ? "" : why + result_.object + " (state " + sys_.states()[worst].name + ")") +
                           (sys_.lastRefusalTime() > t_ ? "; every step beyond failed: " + sys_.lastRefusal() : ""));
}

// A root, a stop time or a clock instant at t_. An event lets IDA go on
// without a restart when the update there changes nothing, or, at the end
// of a step (a clock instant, see Element::nextTimeEvent), leaves every
// algebraic equation as it was: the states are continuous and at most
// derivatives jump (a held valve command drives the spool's acceleration; a
// spool crossing its overlap edge changes nothing discrete at all), which
// IDA's error test meets by shortening the next steps. A restart would
// begin again at order 1 with a tiny step and a fresh Jacobian, and climb
// back over many steps after every controller sample. The residuals before
// and after the update are updateDiscrete's own evaluations (two residuals
// fewer per controller sample).
//
// A root inside a step: IDA has integrated on to the step's end with the
// equations as they were, right only if nothing changed. Only runs with a
// sample clock go on there (in a pure circuit the restart at a piston's
// contact root is kept: going on moved the cushioned seed 003's sampled
// contact speed from below to above its test bound of 0.02 m/s, to 0.026).
void IntegrationRun::event(int flag, double tout) {
  double tStep = t_;
  IDAGetCurrentTime(ida_->ida.mem, &tStep);
  const bool atStepEnd = std::abs(tStep - t_) <= 1e-12 * std::max(1.0, std::abs(t_));
  System::EventResiduals r;
  if (atStepEnd) r.before = rBefore_.data(), r.after = rAfter_.data();
  const bool changed = sys_.updateDiscrete(t_, y_, yp_, false, &r);
  if (flag == IDA_ROOT_RETURN || changed) ++result_.stats.events;
  auto algebraicUnchanged = [&] {
    if (!r.beforeOk || !r.afterOk) return false;
    for (int i = 0; i < N_; ++i)
      if (sys_.states()[i].kind == StateKind::Algebraic && rAfter_[i] != rBefore_[i]) return false;
    return true;
  };
  const bool smooth = (atStepEnd ? !changed || algebraicUnchanged() : clocked_ && !changed) && noRootAtZero(t_);
  if (!smooth) {
    accumulateStats();
    consistentStart(t_);
  }
  if (t_ >= tout - 1e-12 * std::max(1.0, tout)) write(tout, y_, yp_);
}

// IDA, going on, stops with "root found at and very near t" when a root
// function stays exactly zero (a piston resting at its stop); a restart
// sets such roots aside until they leave zero.
bool IntegrationRun::noRootAtZero(double at) {
  if (g_.empty()) return true;
  if (sys_.roots(at, y_, yp_, g_.data()) != 0) return false;
  return std::none_of(g_.begin(), g_.end(), [](double v) { return v == 0.0; });
}

// Where a hand operation takes effect: in a paced run the simulated time
// the wall clock has reached (what the user saw when clicking), within
// what the last step can interpolate and not before the last row; else `upTo`.
double IntegrationRun::operationTime(double upTo) const {
  return std::clamp(control_->pacedTime(), std::max(tWritten_, tInterp_), upTo);
}

// A hand operation is an event at `at` (t_ or inside the last step).
bool IntegrationRun::handOperations(double at) {
  if (!control_ || !control_->hasOperations() || !applyOperations(sys_, control_->takeOperations())) return false;
  Ida& ida = ida_->ida;
  if (at < t_) {
    check(IDAGetDky(ida.mem, at, 0, ida.y), "IDAGetDky");
    check(IDAGetDky(ida.mem, at, 1, ida.yp), "IDAGetDky");
  }
  ++result_.stats.events;
  sys_.updateDiscrete(at, y_, yp_, false);
  accumulateStats();
  consistentStart(at);
  t_ = at;
  return true;
}

// Stop and pause (blocks in proceed(); paced runs wait for the wall
// clock there); false: the run ends, cancelled.
bool IntegrationRun::carryOn(double at) {
  if ((cancel_ && cancel_->load()) || (control_ && !control_->proceed(at))) {
    result_.status = RunStatus::Cancelled;
    result_.message = "cancelled at t = " + numberText(tWritten_) + " s";
    t_ = tWritten_;  // what the results hold
    return false;
  }
  return true;
}

// A result row, by the copy when there is one (interactive runs hand
// each over at once, for the live plots).
void IntegrationRun::emit(double at, const double* y, const double* yp) {
  if (!pipe_) {
    sys_.outputs(at, y, yp, row_.data());
    out_.append(at, row_.data());
    return;
  }
  if (pipe_->failed()) throw std::runtime_error("result rows failed");  // finish() has the message
  const bool changed = sys_.discreteVersion() != sentVersion_;
  if (changed) {
    sys_.saveDiscrete(discrete_);
    sentVersion_ = sys_.discreteVersion();
  }
  pipe_->push(at, y, yp, changed ? &discrete_ : nullptr);
  if (control_) pipe_->flush();
}

void IntegrationRun::write(double at, const double* y, const double* yp) {
  sys_.checkStates(at, y, yp);
  emit(at, y, yp);
  tWritten_ = at;
  stepsSinceOutput_ = 0;
  ++k_;
}

// IDAReInit restarts IDA's counters: keep the totals.
void IntegrationRun::accumulateStats() {
  void* mem = ida_->ida.mem;
  long v = 0;
  IDAGetNumSteps(mem, &v);
  result_.stats.steps += v;
  IDAGetNumResEvals(mem, &v);
  result_.stats.residualEvals += v;
  IDAGetNumJacEvals(mem, &v);
  result_.stats.jacobianEvals += v;
}

RunResult IntegrationRun::finish() {
  if (cancel_ && cancel_->load() && result_.status == RunStatus::Failed) {
    // Stopped inside a step (the residual fails then): the rows hold up to the last one written.
    result_.status = RunStatus::Cancelled;
    result_.message = "cancelled at t = " + numberText(tWritten_) + " s";
    result_.object.clear();
    t_ = tWritten_;
  }
  if (ida_->ida.mem) accumulateStats();
  if (pipe_) {
    const std::string error = pipe_->finish();
    if (!error.empty()) {
      result_.status = RunStatus::Failed;
      result_.message = error;
    }
  }
  result_.stats.tReached = t_;
  if (y_ && yp_) {
    result_.yEnd.assign(y_, y_ + N_);
    result_.ypEnd.assign(yp_, yp_ + N_);
  }
  result_.stats.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0_).count();
  return result_;
}

std::string idaFlagName(long flag) {
  char* name = IDAGetReturnFlagName(flag);
  std::string s = name ? name : "flag " + std::to_string(flag);
  std::free(name);
  return s;
}

}  // namespace pm
