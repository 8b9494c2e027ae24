#include "solver/output_pipeline.h"

#include <exception>
#include <stdexcept>

namespace pm {

OutputPipeline::OutputPipeline(std::function<std::unique_ptr<System>()> compile, RowConsumer& out, int N, int channels,
                               bool threaded)
    : out_(out), N_(N), channels_(channels), threaded_(threaded) {
  if (threaded_)
    worker_ = std::thread([this, c = std::move(compile)]() mutable { run(std::move(c)); });
  else if (!build(compile))
    failed_ = true;
}

OutputPipeline::~OutputPipeline() {
  {
    std::lock_guard<std::mutex> lock(m_);
    done_ = true;
    queue_.clear();
  }
  cv_.notify_one();
  if (worker_.joinable()) worker_.join();
}

bool OutputPipeline::build(const std::function<std::unique_ptr<System>()>& compile) {
  try {
    sys_ = compile();
    if (sys_->size() != N_ || static_cast<int>(sys_->channels().size()) != channels_)
      throw std::logic_error("the copy of the system differs from the solver's");
  } catch (const std::exception& e) {
    error_ = std::string("result rows: ") + e.what();
    return false;
  }
  row_.resize(static_cast<size_t>(channels_));
  return true;
}

bool OutputPipeline::process(const Batch& b) {
  try {
    const double* p = b.data.data();
    for (int r = 0; r < b.rows; ++r) {
      const double t = p[0];
      const double* y = p + 1;
      const double* yp = y + N_;
      const double n = yp[N_];
      p = yp + N_ + 1;
      if (n >= 0.0) {
        loaded_.assign(p, p + static_cast<size_t>(n));
        sys_->loadDiscrete(p);
        p += static_cast<size_t>(n);
      }
      if (taskPending_.load(std::memory_order_relaxed)) runTask();
      sys_->outputs(t, y, yp, row_.data());
      out_.append(t, row_.data());
    }
  } catch (const std::exception& e) {
    error_ = std::string("result rows: ") + e.what();
    return false;
  }
  return true;
}

void OutputPipeline::push(double t, const double* y, const double* yp, const std::vector<double>* discrete) {
  auto& d = filling_.data;
  d.push_back(t);
  d.insert(d.end(), y, y + N_);
  d.insert(d.end(), yp, yp + N_);
  d.push_back(discrete ? static_cast<double>(discrete->size()) : -1.0);
  if (discrete) d.insert(d.end(), discrete->begin(), discrete->end());
  ++filling_.rows;
  if (!threaded_) {
    if (!failed_ && !process(filling_)) failed_ = true;
    filling_.data.clear();
    filling_.rows = 0;
    return;
  }
  if (filling_.rows >= kBatchRows) handOver();
}

void OutputPipeline::flush() {
  if (threaded_ && filling_.rows > 0) handOver();
}

void OutputPipeline::aside(std::function<void(System&)> task) {
  if (!threaded_) return;
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(m_);
    task_ = std::move(task);
    taskPending_.store(true, std::memory_order_relaxed);
    wake = idle_;
  }
  if (wake) cv_.notify_one();
}

void OutputPipeline::runTask() {
  std::function<void(System&)> task;
  {
    std::lock_guard<std::mutex> lock(m_);
    task = std::move(task_);
    task_ = nullptr;
    taskPending_.store(false, std::memory_order_relaxed);
  }
  if (!task || !sys_ || failed_) return;
  task(*sys_);
  if (!loaded_.empty()) sys_->loadDiscrete(loaded_.data());  // the rows' own again
}

void OutputPipeline::handOver() {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(m_);
    queue_.push_back(std::move(filling_));
    filling_ = Batch{};
    if (!spare_.empty()) {
      filling_ = std::move(spare_.back());
      spare_.pop_back();
    }
    wake = idle_;
  }
  if (wake) cv_.notify_one();
}

std::string OutputPipeline::finish() {
  flush();
  {
    std::lock_guard<std::mutex> lock(m_);
    done_ = true;
  }
  cv_.notify_one();
  if (worker_.joinable()) worker_.join();
  return error_;
}

void OutputPipeline::run(std::function<std::unique_ptr<System>()> compile) {
  if (!build(compile)) failed_ = true;
  for (;;) {
    if (taskPending_.load(std::memory_order_relaxed)) runTask();
    Batch b;
    {
      std::unique_lock<std::mutex> lock(m_);
      // Nothing to do: the copy's idle work (a mechanism's table ahead),
      // a piece at a time, so that rows are not kept waiting.
      if (queue_.empty() && !done_ && sys_ && !failed_) {
        lock.unlock();
        bool worked = false;
        try {
          worked = sys_->idleWork();
        } catch (const std::exception&) {
          worked = false;  // only ahead of time: the rows will meet it themselves
        }
        if (worked) continue;
        lock.lock();
      }
      idle_ = true;
      cv_.wait(lock, [&] { return !queue_.empty() || done_ || taskPending_.load(std::memory_order_relaxed); });
      idle_ = false;
      if (taskPending_.load(std::memory_order_relaxed)) {
        lock.unlock();
        runTask();
        continue;
      }
      if (queue_.empty()) return;  // done, nothing left
      b = std::move(queue_.front());
      queue_.pop_front();
    }
    if (!failed_ && !process(b)) failed_ = true;
    b.data.clear();
    b.rows = 0;
    std::lock_guard<std::mutex> lock(m_);
    spare_.push_back(std::move(b));
  }
}

}  // namespace pm
