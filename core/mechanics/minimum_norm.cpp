#include "mechanics/minimum_norm.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseLU>
#include <Eigen/SparseQR>

#include <stdexcept>

namespace pm::mb {

using SpMat = Eigen::SparseMatrix<double>;

Eigen::VectorXd minimumNorm(const SpMat& A, const Eigen::VectorXd& b) {
  const SpMat At = A.transpose();
  Eigen::SparseQR<SpMat, Eigen::NaturalOrdering<int>> qr;
  qr.setPivotThreshold(1e-12);
  qr.compute(At);
  if (qr.info() != Eigen::Success) throw std::runtime_error("mechanism: sparse QR of the constraint matrix failed");
  const Eigen::Index r = qr.rank();
  const Eigen::VectorXd pb = qr.colsPermutation().transpose() * b;
  const SpMat R11 = qr.matrixR().topLeftCorner(r, r);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(At.rows());
  w.head(r) = R11.transpose().triangularView<Eigen::Lower>().solve(pb.head(r));
  return qr.matrixQ() * w;
}

Eigen::VectorXd minimumNormSquare(const SpMat& A, const Eigen::VectorXd& b) {
  if (A.rows() == A.cols()) {
    Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu(A);
    if (lu.info() == Eigen::Success) {
      Eigen::VectorXd z = lu.solve(b);
      if (z.allFinite()) return z;
    }
  }
  return minimumNorm(A, b);
}

}  // namespace pm::mb
