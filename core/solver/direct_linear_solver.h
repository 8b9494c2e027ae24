// The SUNDIALS side of a direct linear solver written here (dense_lu.h,
// matched_klu.h): one table of operations for a content type C that
// has a public `long lastFlag`, `int setup(SUNMatrix)` and
// `int solve(SUNMatrix, N_Vector x, N_Vector b)` (SUNLS_* codes), and frees
// what it holds in its destructor.
#pragma once

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>

#include <memory>
#include <new>

namespace pm {

template <class C>
struct DirectLinearSolverOps {
  static C* content(SUNLinearSolver S) { return static_cast<C*>(S->content); }
  static SUNLinearSolver_Type type(SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; }
  static SUNLinearSolver_ID id(SUNLinearSolver) { return SUNLINEARSOLVER_CUSTOM; }
  static int initialize(SUNLinearSolver S) {
    content(S)->lastFlag = 0;
    return SUNLS_SUCCESS;
  }
  static int setup(SUNLinearSolver S, SUNMatrix A) { return content(S)->setup(A); }
  static int solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, realtype) {
    return content(S)->solve(A, x, b);
  }
  static sunindextype lastFlag(SUNLinearSolver S) { return content(S)->lastFlag; }
  static int free(SUNLinearSolver S) {
    if (!S) return SUNLS_SUCCESS;
    delete content(S);
    S->content = nullptr;
    SUNLinSolFreeEmpty(S);
    return SUNLS_SUCCESS;
  }
};

// A SUNLinearSolver that owns `c` (freed with the solver).
template <class C>
SUNLinearSolver makeDirectLinearSolver(SUNContext ctx, std::unique_ptr<C> c) {
  using Ops = DirectLinearSolverOps<C>;
  SUNLinearSolver S = SUNLinSolNewEmpty(ctx);
  if (!S) throw std::bad_alloc();
  S->ops->gettype = Ops::type;
  S->ops->getid = Ops::id;
  S->ops->initialize = Ops::initialize;
  S->ops->setup = Ops::setup;
  S->ops->solve = Ops::solve;
  S->ops->lastflag = Ops::lastFlag;
  S->ops->free = Ops::free;
  S->content = c.release();
  return S;
}

}  // namespace pm
