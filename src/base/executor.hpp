// Executors: how the math layers (poly, msm, r1cs products) run work in parallel without
// starting threads themselves (DESIGN.md §2 rule 1). Callers own an executor and pass it in;
// the math code only splits [0, n) into chunks.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace cuzk::base {

class executor {
 public:
  virtual ~executor() = default;
  // Number of chunks worth making for one parallel_for (the worker count).
  virtual std::size_t concurrency() const = 0;
  // Calls body(begin, end) on disjoint ranges that cover [0, n), each at least `grain` long
  // (except the last), possibly concurrently; returns when every call has returned. An
  // exception thrown by body is rethrown here (others may still have run).
  virtual void parallel_for(std::size_t n, std::size_t grain,
                            const std::function<void(std::size_t, std::size_t)>& body) = 0;
};

// Runs everything on the calling thread, as one range: the reference for tests.
class serial_executor final : public executor {
 public:
  std::size_t concurrency() const override { return 1; }
  void parallel_for(std::size_t n, std::size_t,
                    const std::function<void(std::size_t, std::size_t)>& body) override {
    if (n) body(0, n);
  }
};

// A oneTBB task arena of `threads` workers (0 = all hardware threads).
std::unique_ptr<executor> make_thread_pool_executor(std::size_t threads);

}  // namespace cuzk::base
