// IDA's dense linear solver (LU with partial pivoting, factors in place in
// the SUNDenseMatrix), written so that the compiler vectorises its column
// loops: the same operations in the same order as SUNDIALS' own dense solver,
// so results are bit for bit the same, in fewer instructions (the library's
// loops are scalar and built without optimisation).
#pragma once

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>

namespace pm {

SUNLinearSolver makeDenseLu(int n, SUNContext ctx);

}  // namespace pm
