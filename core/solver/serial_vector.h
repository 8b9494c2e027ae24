// IDA's state vectors: SUNDIALS' serial N_Vector with its arithmetic
// operations replaced by ones compiled here. Debian's SUNDIALS library is
// built without optimisation (every loop keeps its counters on the stack),
// and IDA spends most of its own time in these element-wise loops, a large
// share of a small circuit's run. Each operation does the
// same floating-point operations in the same order as SUNDIALS' serial
// vector (the same special cases of a linear sum, reductions summed in
// index order), so every result stays bit for bit the same; only the loops
// are optimised and vectorised.
#pragma once

#include <sundials/sundials_context.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

namespace pm {

// A serial vector of length n with the operations above. Vectors IDA
// clones from it inherit them.
N_Vector newSerialVector(long n, SUNContext ctx);

// The same for the one matrix operation IDA calls per Jacobian on a dense
// or sparse (CSC) matrix, zeroing it before the Jacobian is filled
// (SUNMatZero).
void useOptimisedZero(SUNMatrix matrix);

}  // namespace pm
