#include "solver/simulation.h"

#include "build/compiler.h"
#include "mechanics/mechanism_element.h"
#include "model/message_text.h"
#include "model/project_error.h"
#include "solver/colored_jacobian.h"
#include "solver/cosimulation.h"
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
#include <chrono>
#include <cmath>
#include <functional>
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

void check(int flag, const char* what) {
  if (flag < 0) throw std::runtime_error(std::string(what) + " failed: " + IDAGetReturnFlagName(flag));
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

// The model object a state belongs to: a part or joint for the mechanism's
// states ("<mechanism>.<part>.rx"), else the owner (component or net).
std::string stateObject(const System& sys, const StateInfo& s) {
  const Element* mech = sys.mechanism();
  if (mech && s.owner == mech->id() && s.name.rfind(s.owner + ".", 0) == 0) {
    const std::string rest = s.name.substr(s.owner.size() + 1);
    return rest.substr(0, rest.find('.'));
  }
  return s.owner;
}

}  // namespace

Simulation::Simulation(const Project& project, const std::string& file)
    : project_(project),
      file_(file),
      tables_(std::make_shared<mb::ReducedCoordinates::Tables>()),
      system_([&] {
        const mb::ReducedCoordinates::ShareTables share(tables_, true);
        return Compiler::compile(project, file);
      }()),
      settings_(project.simulation) {
  // A run integrates the dynamics: a part without mass is a bad project here
  // (the compiler leaves it to the runs, as the analyses accept it).
  if (MechanismElement* me = system_->mechanism()) {
    try {
      me->multibody().requireMass();
    } catch (const std::runtime_error& e) {
      throwMechanismError(file, e.what());
    }
  }
  if (settings_.coupling == "cosimulation") cosim_ = std::make_unique<CoSimulation>(project, file);
}

Simulation::~Simulation() = default;

std::vector<ChannelInfo> Simulation::channels() const {
  return cosim_ ? cosim_->channels() : system_->channels();
}

RunResult Simulation::run(ResultStore& out, const std::atomic<bool>* cancel, RunControl* control) {
  const WallTimeLimit limit(settings_.wall_time_limit, cancel, control);
  RunResult r = cosim_ ? cosim_->run(out, limit.stop(), control) : runMonolithic(out, limit.stop(), control);
  if (limit.exceeded() && r.status != RunStatus::Completed) {
    r.status = RunStatus::Failed;
    r.message = limit.message(r.stats.tReached);
    r.object.clear();
  }
  return r;
}

RunResult Simulation::runMonolithic(ResultStore& out, const std::atomic<bool>* cancel, RunControl* control) {
  const auto wall0 = std::chrono::steady_clock::now();
  System& sys = *system_;
  const int N = sys.size();
  RunResult result;
  out.setChannels(sys.channels());
  std::vector<double> row(sys.channels().size());
  Callbacks cb;
  cb.sys = &sys;
  cb.stop = cancel;
  sys.setStopsAtTimeEvents(true);  // every step ends at the next clock instant (tStop below)
  Ida ida;
  const double t0 = 0.0, tEnd = settings_.t_end, dt = settings_.output_interval;
  double t = t0;
  std::unique_ptr<OutputPipeline> pipe;
  std::vector<double> discrete;
  unsigned long sentVersion = 0;  // sys.discreteVersion() of the copy's discrete state
  std::function<void(double, const double*, const double*)> emit;
  double tWritten = t0;  // the time of the last row written
  try {
    if (N == 0) {
      // Nothing to integrate (a mechanism welded to the ground, lumped into
      // it): the rows are functions of time alone, unless there are none or
      // something discrete could happen (that needs the integrator's events).
      if (sys.channels().empty() || sys.numRoots() > 0 || std::isfinite(sys.nextTimeEvent()))
        throw std::runtime_error("the project has nothing to simulate");
      const long rows = std::lround(std::ceil(tEnd / dt - 1e-9));
      for (long i = 0; i <= rows; ++i) {
        t = std::min(t0 + double(i) * dt, tEnd);
        if (i > 0 && ((cancel && cancel->load()) || (control && !control->proceed(t)))) {
          result.status = RunStatus::Cancelled;
          result.message = "cancelled at t = " + numberText(t) + " s";
          break;
        }
        sys.outputs(t, nullptr, nullptr, row.data());
        out.append(t, row.data());
      }
      result.stats.tReached = t;
      result.stats.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
      return result;
    }
    check(SUNContext_Create(nullptr, &ida.ctx), "SUNContext_Create");
    ida.y = newSerialVector(N, ida.ctx);
    ida.yp = newSerialVector(N, ida.ctx);
    ida.atol = newSerialVector(N, ida.ctx);
    ida.id = newSerialVector(N, ida.ctx);
    double* y = N_VGetArrayPointer(ida.y);
    double* yp = N_VGetArrayPointer(ida.yp);
    const auto y0 = sys.initialState();
    for (int i = 0; i < N; ++i) {
      y[i] = y0[i];
      yp[i] = 0.0;
      N_VGetArrayPointer(ida.atol)[i] = sys.states()[i].atol;
      N_VGetArrayPointer(ida.id)[i] = sys.states()[i].kind == StateKind::Differential ? 1.0 : 0.0;
    }
    sys.updateDiscrete(t0, y, yp, true);
    // Circuits keep their rows on the solver's own System by default: a
    // row is one evaluation, cheaper than the hand-over; a mechanism's rows
    // solve for the reactions and pay for the thread.
    const bool copy = outputRows_ != OutputRows::Auto || sys.mechanism();
    if (copy && sys.saveDiscrete(discrete)) {
      sentVersion = sys.discreteVersion() - 1;  // the first row sends it
      const bool threaded = outputRows_ == OutputRows::Thread ||
                            (outputRows_ == OutputRows::Auto && std::thread::hardware_concurrency() > 1);
      pipe = std::make_unique<OutputPipeline>(
          [this] {
            const mb::ReducedCoordinates::ShareTables share(tables_, false);
            return Compiler::compile(project_, file_);
          },
          out, N, static_cast<int>(row.size()), threaded);
      result.stats.outputCopy = true;
      result.stats.outputThread = threaded;
    }
    // A result row, by the copy when there is one (interactive runs hand
    // each over at once, for the live plots).
    emit = [&](double at, const double* ya, const double* ypa) {
      if (!pipe) {
        sys.outputs(at, ya, ypa, row.data());
        out.append(at, row.data());
        return;
      }
      if (pipe->failed()) throw std::runtime_error("result rows failed");  // finish() below has the message
      const bool changed = sys.discreteVersion() != sentVersion;
      if (changed) {
        sys.saveDiscrete(discrete);
        sentVersion = sys.discreteVersion();
      }
      pipe->push(at, ya, ypa, changed ? &discrete : nullptr);
      if (control) pipe->flush();
    };
    // Runs with sampled controllers or a mechanism reuse Jacobians (see
    // jacobianFn): there cj changes at most steps and a fresh difference
    // quotient costs tens of residuals (one per colour). Pure
    // circuits keep IDA's own updates (the cushioned seed 003's end-stop
    // contact speed, sampled at the outputs, rose above its test bound of
    // 0.02 m/s to 0.028 with reuse).
    cb.reuse = std::isfinite(sys.nextTimeEvent()) || sys.mechanism() != nullptr;

    ida.mem = IDACreate(ida.ctx);
    if (!ida.mem) throw std::runtime_error("IDACreate failed");
    check(IDAInit(ida.mem, residualFn, t0, ida.y, ida.yp), "IDAInit");
    check(IDASVtolerances(ida.mem, settings_.rel_tol, ida.atol), "IDASVtolerances");
    check(IDASetUserData(ida.mem, &cb), "IDASetUserData");
    check(IDASetErrHandlerFn(ida.mem, idaErrors, &cb), "IDASetErrHandlerFn");
    check(IDASetId(ida.mem, ida.id), "IDASetId");
    check(IDASetMaxNumSteps(ida.mem, kMaxSteps), "IDASetMaxNumSteps");
    // IDA's default of 4 Newton iterations per step gave up on a converging
    // iteration (a valve switching at rel_tol 1e-4 failed at h = 4e-10);
    // 10 lets the slow, linear convergence of a stale Jacobian finish.
    check(IDASetMaxNonlinIters(ida.mem, 10), "IDASetMaxNonlinIters");
    check(IDASetStopTime(ida.mem, tEnd), "IDASetStopTime");
    // Junction states are algebraic and jump when valves switch; keep them
    // out of the local error test (they follow the differential states).
    // A mechanism's Lagrange multipliers are index-2 variables: they must
    // stay out of the error test (Brenan, Campbell, Petzold), so then all
    // algebraic states do. In the reduced formulation the algebraic states
    // left (an attached cylinder's x and v) are functions of the independent
    // coordinates the test already weighs: testing them again only adds
    // steps.
    check(IDASetSuppressAlg(ida.mem, sys.mechanism() ? SUNTRUE : SUNFALSE), "IDASetSuppressAlg");
    if (settings_.max_step > 0) check(IDASetMaxStep(ida.mem, settings_.max_step), "IDASetMaxStep");
    // Large systems (long mechanisms, big circuits) factorise a sparse
    // Jacobian with KLU (rows matched first, see matched_klu.h): its cost
    // grows about linearly with the size where dense LU grows with the cube. The pattern must exist before the
    // matrix does, so it is sampled here at the pre-solved start.
    const bool sparse = N >= kSparseFrom;
    if (sparse) {
      sys.presolveJunctions(t0, y, yp);
      sys.makeConsistent(t0, y, yp);
      cb.jac = std::make_unique<ColoredJacobian>(sys, t0, y, yp);
      // The output thread's copy takes colours of each fresh difference
      // quotient in turn with the solver (it is idle most of the time). Not with reduced coordinates: their
      // Newton expansions start from an anchor that follows the motion, so
      // the copy's residual could differ from the solver's in the last bits.
      if (pipe && pipe->threaded() && !(sys.mechanism() && sys.mechanism()->reduced()))
        cb.jac->setAside(
            [&pipe](ColoredJacobian::Task task) { pipe->aside(std::move(task)); },
            [&sys](std::vector<double>& d) { return sys.saveDiscrete(d); });
      ida.A = SUNSparseMatrix(N, N, static_cast<sunindextype>(cb.jac->nonZeros()), CSC_MAT, ida.ctx);
      useOptimisedZero(ida.A);
      ida.LS = makeMatchedKlu(ida.ctx);
    } else {
      ida.A = SUNDenseMatrix(N, N, ida.ctx);
      useOptimisedZero(ida.A);
      ida.LS = makeDenseLu(N, ida.ctx);
    }
    check(IDASetLinearSolver(ida.mem, ida.LS, ida.A), "IDASetLinearSolver");
    if (sparse) check(IDASetJacFn(ida.mem, jacobianFn), "IDASetJacFn");
    cb.mem = ida.mem;
    if (sys.numRoots() > 0) check(IDARootInit(ida.mem, sys.numRoots(), rootFn), "IDARootInit");

    // IDAReInit restarts IDA's counters: keep the totals.
    auto accumulateStats = [&] {
      long v = 0;
      IDAGetNumSteps(ida.mem, &v);
      result.stats.steps += v;
      IDAGetNumResEvals(ida.mem, &v);
      result.stats.residualEvals += v;
      IDAGetNumJacEvals(ida.mem, &v);
      result.stats.jacobianEvals += v;
    };
    const double icStep = std::min(dt, 1e-4);
    // Consistent start (at t0 and after every event): junction pressures by
    // bisection, then y' of the differential states from their residuals
    // (exact for the explicit form y' - f(y) our elements write), then IDA's
    // own IDACalcIC to polish. If IDACalcIC's Newton fails from there, the
    // pre-solved point is consistent to the residual shown and IDA starts
    // from it; its first step corrects the rest.
    std::vector<double> r(N), ySave(N), ypSave(N);
    double tInterp = t0;  // IDA's last step reaches back to here (IDAGetDky is valid from here on)
    auto consistentStart = [&](double at) {
      tInterp = at;
      cb.lastFillValid = false;  // the discrete state changed the equations
      if (cb.jac) cb.jac->dropMass();
      sys.presolveJunctions(at, y, yp);
      sys.makeConsistent(at, y, yp);
      for (int pass = 0; pass < 2; ++pass) {
        if (sys.residual(at, y, yp, r.data()) != 0) break;
        for (int i = 0; i < N; ++i)
          if (sys.states()[i].kind == StateKind::Differential) yp[i] -= r[i];
      }
      std::copy(y, y + N, ySave.begin());
      std::copy(yp, yp + N, ypSave.begin());
      check(IDAReInit(ida.mem, at, ida.y, ida.yp), "IDAReInit");
      // IDACalcIC solves for algebraic states from their own equations,
      // which index-2 constraints do not have; the elements did it instead.
      if (sys.highIndex()) return;
      const int flag = IDACalcIC(ida.mem, IDA_YA_YDP_INIT, at + icStep);
      if (flag >= 0) {
        check(IDAGetConsistentIC(ida.mem, ida.y, ida.yp), "IDAGetConsistentIC");
        return;
      }
      if (!cb.error.empty()) throw std::runtime_error("no consistent state at t = " + numberText(at) + " s: " + cb.error);
      std::copy(ySave.begin(), ySave.end(), y);
      std::copy(ypSave.begin(), ypSave.end(), yp);
      check(IDAReInit(ida.mem, at, ida.y, ida.yp), "IDAReInit");
    };
    consistentStart(t0);
    // Coloured difference quotients pay off once columns can share residuals.
    if (!sparse) cb.jac = std::make_unique<ColoredJacobian>(sys, t0, y, yp);
    bool colored = !sparse && cb.jac->colors() < N;
    check(IDASetJacFn(ida.mem, jacobianFn), "IDASetJacFn");
    emit(t0, y, yp);

    // An event lets IDA go on without a restart when the update there
    // changes nothing, or, at the end of a step (a clock instant, see
    // Element::nextTimeEvent), leaves every algebraic equation as it was:
    // the states are continuous and at most derivatives jump (a held valve
    // command drives the spool's acceleration; a spool crossing its overlap
    // edge changes nothing discrete at all), which IDA's error test meets by
    // shortening the next steps. A restart would begin again at order 1 with
    // a tiny step and a fresh Jacobian, and climb back over many steps after
    // every controller sample.
    // The residuals before and after the update are updateDiscrete's own
    // evaluations (two residuals fewer per controller sample).
    std::vector<double> rBefore(N), rAfter(N);
    auto algebraicUnchanged = [&](const System::EventResiduals& r) {
      if (!r.beforeOk || !r.afterOk) return false;
      for (int i = 0; i < N; ++i)
        if (sys.states()[i].kind == StateKind::Algebraic && rAfter[i] != rBefore[i]) return false;
      return true;
    };

    // IDA, going on, stops with "root found at and very near t" when a root
    // function stays exactly zero (a piston resting at its stop); a restart
    // sets such roots aside until they leave zero.
    std::vector<double> g(sys.numRoots());
    const bool clocked = std::isfinite(sys.nextTimeEvent());
    auto noRootAtZero = [&](double at) {
      if (g.empty()) return true;
      if (sys.roots(at, y, yp, g.data()) != 0) return false;
      return std::none_of(g.begin(), g.end(), [](double v) { return v == 0.0; });
    };

    const long nOut = std::lround(std::ceil(tEnd / dt - 1e-9));
    constexpr int kMaxRestarts = 50;
    int restarts = 0;
    long k = 1;  // the next output
    long stepsSinceOutput = 0;
    auto outputTime = [&](long i) { return std::min(t0 + double(i) * dt, tEnd); };
    auto write = [&](double at, const double* ya, const double* ypa) {
      emit(at, ya, ypa);
      tWritten = at;
      stepsSinceOutput = 0;
      ++k;
    };
    // Stop and pause (blocks in proceed(); paced runs wait for the wall
    // clock there); false: the run ends, cancelled.
    auto carryOn = [&](double at) {
      if ((cancel && cancel->load()) || (control && !control->proceed(at))) {
        result.status = RunStatus::Cancelled;
        result.message = "cancelled at t = " + numberText(tWritten) + " s";
        t = tWritten;  // what the results hold
        return false;
      }
      return true;
    };
    // Where a hand operation takes effect: in a paced run the simulated time
    // the wall clock has reached (what the user saw when clicking), within
    // what the last step can interpolate and not before the last row; else `upTo`.
    auto operationTime = [&](double upTo) {
      return std::clamp(control->pacedTime(), std::max(tWritten, tInterp), upTo);
    };
    // A hand operation is an event at `at` (t or inside the last step).
    auto handOperations = [&](double at) {
      if (!control || !control->hasOperations() || !applyOperations(sys, control->takeOperations())) return false;
      if (at < t) {
        check(IDAGetDky(ida.mem, at, 0, ida.y), "IDAGetDky");
        check(IDAGetDky(ida.mem, at, 1, ida.yp), "IDAGetDky");
      }
      ++result.stats.events;
      sys.updateDiscrete(at, y, yp, false);
      accumulateStats();
      consistentStart(at);
      t = at;
      return true;
    };
    if (carryOn(t0)) handOperations(t0);
    while (k <= nOut && result.status != RunStatus::Cancelled) {
      const double tout = outputTime(k);
      // With a RunControl, IDASolve returns after about every step (its
      // next step ends at tn + h), so that stop, pause and hand operations
      // act between solver steps, not only at output rows. Still IDA_NORMAL
      // mode: it checks the root functions at every return point as well
      // as at step ends (IDA_ONE_STEP checks only step ends and missed a
      // comparator's switching inside one long step). Right after a
      // (re)start, one step in IDA_ONE_STEP mode: IDA picks its first step
      // from tout as without control, and returns after it.
      // Steps end on clock instants (controller samples), see above.
      const double tClock = sys.nextTimeEvent();
      double tStop = std::min(tEnd, tClock);
      if (!(tStop > t)) tStop = tEnd;
      check(IDASetStopTime(ida.mem, tStop), "IDASetStopTime");
      long nst = 0;
      double tn = t, hn = 0.0;
      int flag = 0;
      // About one step per call (with a RunControl, or towards the next
      // clock instant): IDA's next step ends at tn + hn.
      const bool stepwise = (clocked || control) && IDAGetNumSteps(ida.mem, &nst) >= 0 && nst > 0 &&
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
        const bool split = clocked && pieces >= 2.0;
        if (split) check(IDASetStopTime(ida.mem, tn + rest / pieces), "IDASetStopTime");
        flag = IDASolve(ida.mem, std::min(tout, std::max(t, tn) + hn), &t, ida.y, ida.yp, IDA_NORMAL);
        if (split && flag == IDA_TSTOP_RETURN) flag = IDA_SUCCESS;  // not an event
      } else if (!control) {
        flag = IDASolve(ida.mem, tout, &t, ida.y, ida.yp, IDA_NORMAL);
      } else {
        flag = IDASolve(ida.mem, tout, &t, ida.y, ida.yp, IDA_ONE_STEP);
        if (flag == IDA_SUCCESS && t > tout) flag = IDASolve(ida.mem, tout, &t, ida.y, ida.yp, IDA_NORMAL);
      }
      if ((flag == IDA_CONV_FAIL || flag == IDA_ERR_FAIL) && restarts < kMaxRestarts && cb.error.empty()) {
        // Newton lost a junction (algebraic) solution far from its start, as
        // happens at loose tolerances where pressure-flow curves bend sharply:
        // restart from the last accepted point, junctions solved by bisection.
        // y, yp hold that point (IDA returns it on failure).
        ++restarts;
        accumulateStats();
        if (colored) {  // a coupling the pattern missed is the likelier cause: use the full quotient
          cb.jac->makeDense();
          colored = false;
        }
        consistentStart(t);
        continue;
      }
      // IDA's limit of kMaxSteps per call, kept per output row when the
      // calls are per step.
      if (flag >= 0 && ++stepsSinceOutput > kMaxSteps) flag = IDA_TOO_MUCH_WORK;
      if (flag < 0) {
        int worst = suspectState(ida.mem, N);
        std::string why = worst < 0 ? "" : "; largest local error in ";
        if (worst < 0) {
          try {
            worst = stiffestState(sys, t, y, yp);
          } catch (const std::exception&) {
            worst = -1;
          }
          if (worst >= 0)
            why = "; likely cause: a parameter at the end of its range (a tiny volume, mass or inertia makes the "
                  "equations too stiff to step); the stiffest state is in ";
        }
        if (worst >= 0) result.object = stateObject(sys, sys.states()[worst]);
        throw std::runtime_error(std::string("integration failed at t = ") + numberText(t) + " s: " +
                                 IDAGetReturnFlagName(flag) +
                                 (!cb.error.empty() ? " (" + cb.error + ")" : cb.idaMessage.empty() ? "" : " (" + cb.idaMessage + ")") +
                                 (worst < 0 ? "" : why + result.object + " (state " + sys.states()[worst].name + ")"));
      }
      double hLast = 0.0;
      if (control && IDAGetLastStep(ida.mem, &hLast) >= 0 && IDAGetCurrentTime(ida.mem, &tn) >= 0)
        tInterp = tn - std::abs(hLast);
      // A clock instant is an event however IDA got there: its stop time,
      // or an output time on the instant (the clocks have no roots), the
      // end of the run included.
      const bool atClock = flag >= 0 && std::isfinite(tClock) && t >= tClock - 1e-12 * std::max(1.0, tClock);
      if (flag == IDA_ROOT_RETURN || (flag == IDA_TSTOP_RETURN && t < tEnd) || atClock) {
        // A root inside a step: IDA has integrated on to the step's end with
        // the equations as they were, right only if nothing changed. Only
        // runs with a sample clock go on there (in a pure circuit the restart
        // at a piston's contact root is kept: going on moved the cushioned
        // seed 003's sampled contact speed from below to above its test
        // bound of 0.02 m/s, to 0.026).
        double tStep = t;
        IDAGetCurrentTime(ida.mem, &tStep);
        const bool atStepEnd = std::abs(tStep - t) <= 1e-12 * std::max(1.0, std::abs(t));
        System::EventResiduals r;
        if (atStepEnd) r.before = rBefore.data(), r.after = rAfter.data();
        const bool changed = sys.updateDiscrete(t, y, yp, false, &r);
        if (flag == IDA_ROOT_RETURN || changed) ++result.stats.events;
        const bool smooth =
            (atStepEnd ? !changed || algebraicUnchanged(r) : clocked && !changed) && noRootAtZero(t);
        if (!smooth) {
          accumulateStats();
          consistentStart(t);
        }
        if (t >= tout - 1e-12 * std::max(1.0, tout)) write(tout, y, yp);
      } else if (t >= tout - 1e-12 * std::max(1.0, tout)) {
        write(tout, y, yp);
      }
      // Between solver steps: stop, pause and hand operations act here.
      if (k <= nOut && carryOn(t) && control && control->hasOperations()) handOperations(operationTime(t));
    }
  } catch (const std::exception& e) {
    result.status = RunStatus::Failed;
    result.message = e.what();
  }
  if (cancel && cancel->load() && result.status == RunStatus::Failed) {
    // Stopped inside a step (the residual fails then): the rows hold up to the last one written.
    result.status = RunStatus::Cancelled;
    result.message = "cancelled at t = " + numberText(tWritten) + " s";
    result.object.clear();
    t = tWritten;
  }
  if (ida.mem) {
    long v = 0;
    IDAGetNumSteps(ida.mem, &v);
    result.stats.steps += v;
    IDAGetNumResEvals(ida.mem, &v);
    result.stats.residualEvals += v;
    IDAGetNumJacEvals(ida.mem, &v);
    result.stats.jacobianEvals += v;
  }
  if (pipe) {
    const std::string error = pipe->finish();
    if (!error.empty()) {
      result.status = RunStatus::Failed;
      result.message = error;
    }
  }
  result.stats.tReached = t;
  result.stats.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return result;
}

}  // namespace pm
