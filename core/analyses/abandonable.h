// A computation that cannot look at a cancel flag itself (Eigen's dense
// eigensolver and LU: n^3 steps with no hook), run on a thread of its own
// while the caller looks at the flag every few milliseconds. Cancelled,
// the caller returns at once and leaves the thread behind: the thread owns
// the work (with everything it captured, by value) and the result in one
// shared block, finishes alone and frees it. The caller touches nothing
// of the block after it has given up, so there is no race and no leak;
// what the abandoned thread still computes is wasted CPU, bounded by the
// one step it was in.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace pm {

// How often the waiting caller looks at the flag.
inline constexpr std::chrono::milliseconds kAbandonPoll{5};

// work() on its own thread; its result, or std::nullopt once *cancel is
// set (the thread is then abandoned). `work` must own what it reads
// (capture by value): it may outlive the caller's frame. Without a flag,
// or when no thread can be started, work() runs here. An exception of
// work() is rethrown here.
template <class Work>
auto runAbandonable(Work work, const std::atomic<bool>* cancel) -> std::optional<decltype(work())> {
  using Result = decltype(work());
  if (!cancel) return work();
  struct Shared {
    explicit Shared(Work w) : work(std::move(w)) {}
    Work work;
    std::optional<Result> result;
    std::exception_ptr error;
    std::mutex mutex;
    std::condition_variable done;
    bool finished = false;
  };
  auto shared = std::make_shared<Shared>(std::move(work));
  try {
    std::thread([shared] {
      try {
        shared->result.emplace(shared->work());
      } catch (...) {
        shared->error = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(shared->mutex);
      shared->finished = true;
      shared->done.notify_all();
    }).detach();
  } catch (const std::system_error&) {
    return shared->work();
  }
  std::unique_lock<std::mutex> lock(shared->mutex);
  while (!shared->done.wait_for(lock, kAbandonPoll, [&] { return shared->finished; }))
    if (cancel->load(std::memory_order_relaxed)) return std::nullopt;
  if (shared->error) std::rethrow_exception(shared->error);
  return std::move(shared->result);
}

}  // namespace pm
