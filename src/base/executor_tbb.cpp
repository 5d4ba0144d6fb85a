#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "base/executor.hpp"

namespace cuzk::base {

namespace {

class tbb_executor final : public executor {
 public:
  explicit tbb_executor(std::size_t threads)
      : arena_(threads ? static_cast<int>(threads) : tbb::task_arena::automatic) {}

  std::size_t concurrency() const override { return static_cast<std::size_t>(arena_.max_concurrency()); }

  void parallel_for(std::size_t n, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)>& body) override {
    if (n == 0) return;
    arena_.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain ? grain : 1),
                        [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); });
    });
  }

 private:
  tbb::task_arena arena_;
};

}  // namespace

std::unique_ptr<executor> make_thread_pool_executor(std::size_t threads) {
  return std::make_unique<tbb_executor>(threads);
}

}  // namespace cuzk::base
