#include "study_mpi.h"

#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace pm::cli {

namespace {

void put(std::vector<char>& b, const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  b.insert(b.end(), c, c + n);
}

template <class T>
T take(const char*& p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

// index, ok, feasible, message, results: raw bytes, so nothing is rounded.
void serialise(std::vector<char>& b, std::uint64_t index, const studies::VariantResult& r) {
  put(b, &index, sizeof index);
  const std::uint8_t flags = (r.ok ? 1 : 0) | (r.feasible ? 2 : 0);
  put(b, &flags, 1);
  const std::uint64_t len = r.message.size(), n = r.results.size();
  put(b, &len, sizeof len);
  put(b, r.message.data(), len);
  put(b, &n, sizeof n);
  put(b, r.results.data(), n * sizeof(double));
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

}  // namespace

bool launchedByMpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
}

MpiEvaluator::MpiEvaluator(int& argc, char**& argv, const studies::StudySetup& setup, int jobs,
                           studies::VariantDone done)
    : setup_(setup), jobs_(jobs), done_(std::move(done)) {
  int provided = 0;
  // Only the main thread calls MPI; the variants' threads never do.
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiEvaluator::~MpiEvaluator() {
  if (rank_ == 0 && !finished_) finish();
  MPI_Finalize();
}

void MpiEvaluator::finish() {
  std::int64_t head[2] = {-1, 0};
  MPI_Bcast(head, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
  finished_ = true;
}

std::vector<studies::VariantResult> MpiEvaluator::evaluate(const std::vector<std::vector<double>>& points) {
  if (rank_ != 0) throw std::logic_error("MpiEvaluator::evaluate on a rank other than 0");
  if (points.empty()) return {};
  return batch(points);
}

void MpiEvaluator::serve() {
  while (!finished_) batch({});
}

// Rank 0 passes the batch; the others receive it (an empty vector in).
// Returns the whole batch's results on rank 0 (nothing on the others).
std::vector<studies::VariantResult> MpiEvaluator::batch(std::vector<std::vector<double>> points) {
  const std::int64_t d = static_cast<std::int64_t>(setup_.study.parameters.size());
  std::int64_t head[2] = {static_cast<std::int64_t>(points.size()), next_};  // size, first row
  check(MPI_Bcast(head, 2, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  const std::int64_t n = head[0];
  if (n < 0) {
    finished_ = true;
    return {};
  }
  std::vector<double> flat(static_cast<size_t>(n * d));
  if (rank_ == 0)
    for (std::int64_t i = 0; i < n; ++i) std::copy(points[i].begin(), points[i].end(), flat.begin() + i * d);
  check(MPI_Bcast(flat.data(), static_cast<int>(flat.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Bcast");
  if (rank_ == 0) next_ += n;
  std::vector<std::vector<double>> mine;
  std::vector<std::uint64_t> index;
  std::vector<size_t> rows;
  for (std::int64_t i = rank_; i < n; i += size_) {
    mine.emplace_back(flat.begin() + i * d, flat.begin() + (i + 1) * d);
    index.push_back(static_cast<std::uint64_t>(i));
    rows.push_back(static_cast<size_t>(head[1] + i));
  }
  studies::VariantDone done;
  if (done_) done = [&](size_t k, const studies::VariantResult& r) { done_(index[k], r); };
  const std::vector<studies::VariantResult> results = studies::evaluateLocally(setup_, mine, jobs_, done, rows);
  std::vector<char> bytes;
  for (size_t k = 0; k < results.size(); ++k) serialise(bytes, index[k], results[k]);
  int size = static_cast<int>(bytes.size());
  std::vector<int> sizes(rank_ == 0 ? size_ : 0), offsets(rank_ == 0 ? size_ : 0);
  check(MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
  std::vector<char> all;
  if (rank_ == 0) {
    long long total = 0;
    for (int r = 0; r < size_; ++r) offsets[r] = static_cast<int>(total), total += sizes[r];
    if (total > INT32_MAX) throw std::runtime_error("MPI: a batch's results exceed 2 GB");
    all.resize(static_cast<size_t>(total));
  }
  check(MPI_Gatherv(bytes.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD),
        "MPI_Gatherv");
  if (rank_ != 0) return {};
  std::vector<studies::VariantResult> out(static_cast<size_t>(n));
  for (const char* p = all.data(); p < all.data() + all.size();) {
    const auto i = take<std::uint64_t>(p);
    const auto flags = take<std::uint8_t>(p);
    studies::VariantResult& r = out.at(i);
    r.ok = flags & 1;
    r.feasible = flags & 2;
    const auto len = take<std::uint64_t>(p);
    r.message.assign(p, len);
    p += len;
    const auto m = take<std::uint64_t>(p);
    r.results.resize(m);
    std::memcpy(r.results.data(), p, m * sizeof(double));
    p += m * sizeof(double);
  }
  return out;
}

}  // namespace pm::cli
