// The device-memory arbiter and the pinned host pool (backend/cuda/device_memory.hpp), on the
// CPU: the CUDA calls are behind device_memory_info / pinned_allocator, replaced here by fakes.
// Covers: accounting and RAII, impossible requests (at once, also beside what the caller
// holds), timeouts (with the sizes in the
// message), waiting until memory comes back, strict arrival order (no overtaking, a timed-out
// head unblocks those behind), try_reserve, capacity from the device minus a margin; the pool's
// reuse, smallest fit, bound, eviction of idle buffers, waiting, allocation failure, cleanup;
// the device fault state (device_fault.hpp): the first of racing reasons is the one kept, and
// its listeners run once.
// Threads synchronise on the objects' own counters (waiting()), never on sleeps alone; the
// timeouts used are short (tens of ms), so the whole file runs in well under a second.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "backend/cuda/device_fault.hpp"
#include "backend/cuda/device_memory.hpp"

namespace cuzk::cuda {
namespace {

using namespace std::chrono_literals;
using kind = device_memory_error::kind;
constexpr auto forever = std::chrono::milliseconds(std::chrono::minutes(1));

// Spins until pred() holds (at most 10 s, then fails the test).
template <class Pred>
void wait_for(Pred pred) {
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (!pred()) {
    ASSERT_LT(std::chrono::steady_clock::now(), end) << "condition not reached";
    std::this_thread::sleep_for(1ms);
  }
}

template <class F>
kind error_kind_of(F f) {
  try {
    f();
  } catch (const device_memory_error& e) {
    return e.reason();
  }
  ADD_FAILURE() << "no device_memory_error thrown";
  return kind::allocation_failed;
}

TEST(DeviceMemoryArbiter, AccountsAndReleasesOnDestruction) {
  device_memory_arbiter arb(1000);
  {
    auto r1 = arb.reserve(300, "r1", forever);
    auto r2 = arb.reserve(700, "r2", forever);
    EXPECT_EQ(r1.bytes(), 300u);
    EXPECT_EQ(arb.in_use(), 1000u);
    auto moved = std::move(r1);
    EXPECT_FALSE(r1);
    EXPECT_TRUE(moved);
    EXPECT_EQ(arb.in_use(), 1000u);
    moved.release();
    EXPECT_EQ(arb.in_use(), 700u);
    moved.release();  // idempotent
    EXPECT_EQ(arb.in_use(), 700u);
  }
  EXPECT_EQ(arb.in_use(), 0u);
  auto empty = arb.reserve(0, "nothing", 0ms);
  EXPECT_FALSE(empty);
  EXPECT_EQ(arb.in_use(), 0u);
}

TEST(DeviceMemoryArbiter, ImpossibleRequestFailsAtOnce) {
  device_memory_arbiter arb(1000);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    (void)arb.reserve(1001, "H bases", forever);
    FAIL() << "expected an error";
  } catch (const device_memory_error& e) {
    EXPECT_EQ(e.reason(), kind::impossible);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("H bases"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1001 B"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1000 B"), std::string::npos) << msg;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
  EXPECT_EQ(arb.waiting(), 0u);
}

TEST(DeviceMemoryArbiter, RequestThatCannotFitBesideTheCallersOwnFailsAtOnce) {
  device_memory_arbiter arb(100);
  auto mine = arb.reserve(50, "resident", forever);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    (void)arb.reserve(60, "buffers", forever, mine.bytes());
    FAIL() << "expected an error";
  } catch (const device_memory_error& e) {
    EXPECT_EQ(e.reason(), kind::impossible);
    EXPECT_NE(std::string(e.what()).find("on top of the 50 B it holds"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
  // 50 beside the caller's 50 fits exactly.
  EXPECT_EQ(arb.reserve(50, "buffers", forever, mine.bytes()).bytes(), 50u);
}

TEST(DeviceMemoryArbiter, TimesOutWithSizesInTheMessage) {
  device_memory_arbiter arb(100);
  auto held = arb.reserve(80, "held", forever);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    (void)arb.reserve(30, "buffers", 40ms);
    FAIL() << "expected a timeout";
  } catch (const device_memory_error& e) {
    EXPECT_EQ(e.reason(), kind::timeout);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("buffers"), std::string::npos) << msg;
    EXPECT_NE(msg.find("30 B"), std::string::npos) << msg;
    EXPECT_NE(msg.find("reserved 80 B"), std::string::npos) << msg;
  }
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 40ms);
  EXPECT_EQ(arb.waiting(), 0u);
  EXPECT_EQ(arb.in_use(), 80u);
}

TEST(DeviceMemoryArbiter, WaiterProceedsWhenMemoryComesBack) {
  device_memory_arbiter arb(100);
  auto held = arb.reserve(80, "held", forever);
  std::atomic<bool> got{false};
  std::thread t([&] {
    auto r = arb.reserve(50, "waiter", forever);
    got = true;
  });
  wait_for([&] { return arb.waiting() == 1; });
  EXPECT_FALSE(got);
  held.release();
  t.join();
  EXPECT_TRUE(got);
  EXPECT_EQ(arb.in_use(), 0u);
}

TEST(DeviceMemoryArbiter, ServesInArrivalOrderWithoutOvertaking) {
  device_memory_arbiter arb(100);
  auto held = arb.reserve(50, "held", forever);
  std::mutex m;
  std::vector<std::string> order;
  std::atomic<bool> big_done{false}, small_done{false};
  device_memory_arbiter::reservation small_r;
  // The small request does not fit beside the big one, so the order in which the threads record
  // their grants is the order of the grants (with a small request that fits beside the big one,
  // both are granted at once and the threads may record in either order).
  std::thread big([&] {
    auto r = arb.reserve(80, "big", forever);  // does not fit while 50 is held
    {
      std::lock_guard<std::mutex> lock(m);
      order.push_back("big");
    }
    big_done = true;
  });  // r released here: only then can the small request be served
  wait_for([&] { return arb.waiting() == 1; });
  std::thread small([&] {
    auto r = arb.reserve(25, "small", forever);  // fits now (50 + 25), but arrived second
    std::lock_guard<std::mutex> lock(m);
    order.push_back("small");
    small_r = std::move(r);
    small_done = true;
  });
  wait_for([&] { return arb.waiting() == 2; });
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(small_done) << "the small request overtook the large one";
  EXPECT_EQ(arb.try_reserve(10).bytes(), 0u) << "try_reserve must not overtake waiters";
  held.release();
  big.join();
  small.join();
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], "big");
  EXPECT_EQ(order[1], "small");
  EXPECT_EQ(arb.in_use(), 25u);
}

TEST(DeviceMemoryArbiter, TimedOutHeadUnblocksThoseBehind) {
  device_memory_arbiter arb(100);
  auto held = arb.reserve(50, "held", forever);
  std::atomic<int> head_kind{-1};
  std::thread head([&] { head_kind = static_cast<int>(error_kind_of([&] { (void)arb.reserve(80, "head", 50ms); })); });
  wait_for([&] { return arb.waiting() == 1; });
  std::atomic<bool> got{false};
  std::thread behind([&] {
    auto r = arb.reserve(40, "behind", forever);
    got = true;
  });
  head.join();
  behind.join();  // served once the head left, with the 50 still held
  EXPECT_EQ(head_kind.load(), static_cast<int>(kind::timeout));
  EXPECT_TRUE(got);
}

TEST(DeviceMemoryArbiter, ManyWorkersNeverExceedCapacity) {
  device_memory_arbiter arb(1000);
  std::atomic<std::size_t> peak{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < 6; ++w) {
    workers.emplace_back([&, w] {
      for (int i = 0; i < 50; ++i) {
        auto r = arb.reserve(static_cast<std::size_t>(150 + 100 * ((w + i) % 5)), "worker", forever);
        const std::size_t now = arb.in_use();
        std::size_t p = peak.load();
        while (now > p && !peak.compare_exchange_weak(p, now)) {
        }
      }
    });
  }
  for (auto& t : workers) t.join();
  EXPECT_LE(peak.load(), 1000u);
  EXPECT_EQ(arb.in_use(), 0u);
}

struct fake_info : device_memory_info {
  bool fine = true;
  std::size_t free_b = 0, total_b = 0;
  bool query(std::size_t& f, std::size_t& t, std::string& error) override {
    if (!fine) {
      error = "no device";
      return false;
    }
    f = free_b;
    t = total_b;
    return true;
  }
};

TEST(DeviceMemoryArbiter, CapacityFromDeviceMinusMargin) {
  fake_info info;
  info.free_b = 10000;
  info.total_b = 12000;
  EXPECT_EQ(device_memory_arbiter::from_device(info, 1500)->capacity(), 8500u);
  EXPECT_EQ(device_memory_arbiter::from_device(info, 20000)->capacity(), 0u);
  info.fine = false;
  EXPECT_EQ(error_kind_of([&] { (void)device_memory_arbiter::from_device(info, 0); }), kind::allocation_failed);
}

// A pinned allocator over malloc that records what is outstanding.
struct fake_pinned : pinned_allocator {
  std::mutex m;
  std::map<void*, std::size_t> live;
  std::size_t calls = 0;
  bool fail = false;
  void* allocate(std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(m);
    if (fail) return nullptr;
    ++calls;
    void* p = ::operator new(bytes);
    live[p] = bytes;
    return p;
  }
  void deallocate(void* p, std::size_t bytes) override {
    std::lock_guard<std::mutex> lock(m);
    EXPECT_EQ(live.at(p), bytes);
    live.erase(p);
    ::operator delete(p);
  }
};

TEST(PinnedHostPool, ReusesTheSmallestIdleBufferThatFits) {
  fake_pinned alloc;
  {
    pinned_host_pool pool(alloc, 1000);
    void* p100 = nullptr;
    void* p300 = nullptr;
    {
      auto a = pool.acquire(100, forever);
      auto b = pool.acquire(300, forever);
      p100 = a.data();
      p300 = b.data();
      EXPECT_GE(a.size(), 100u);
      EXPECT_EQ(pool.allocated_bytes(), 400u);
    }
    auto c = pool.acquire(80, forever);
    EXPECT_EQ(c.data(), p100);
    auto d = pool.acquire(250, forever);
    EXPECT_EQ(d.data(), p300);
    EXPECT_EQ(pool.allocations(), 2u);
    EXPECT_EQ(alloc.calls, 2u);
  }
  EXPECT_TRUE(alloc.live.empty()) << "the pool leaked pinned buffers";
}

TEST(PinnedHostPool, BoundedEvictsIdleWaitsAndTimesOut) {
  fake_pinned alloc;
  pinned_host_pool pool(alloc, 200);
  EXPECT_EQ(error_kind_of([&] { (void)pool.acquire(201, forever); }), kind::impossible);
  {
    auto a = pool.acquire(150, forever);
  }
  // 150 idle + 180 > 200: the idle buffer is freed to make room.
  auto b = pool.acquire(180, forever);
  EXPECT_EQ(pool.allocated_bytes(), 180u);
  EXPECT_EQ(alloc.live.size(), 1u);
  // 180 leased: 50 more cannot be had until it comes back.
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(error_kind_of([&] { (void)pool.acquire(50, 30ms); }), kind::timeout);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 30ms);
  std::atomic<bool> got{false};
  std::thread t([&] {
    auto c = pool.acquire(50, forever);
    got = c.size() >= 50;
  });
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(got);
  b.release();
  t.join();
  EXPECT_TRUE(got);
  EXPECT_LE(pool.allocated_bytes(), 200u);
}

TEST(PinnedHostPool, AllocationFailureIsReported) {
  fake_pinned alloc;
  alloc.fail = true;
  pinned_host_pool pool(alloc, 1000);
  EXPECT_EQ(error_kind_of([&] { (void)pool.acquire(10, forever); }), kind::allocation_failed);
  EXPECT_EQ(pool.allocated_bytes(), 0u);
}

// Eight threads record different faults at once: exactly one call records, its reason is the one
// kept, and every thread sees the state faulted afterwards.
TEST(DeviceFaultState, FirstRecordedReasonIsKept) {
  device_fault_state f;
  EXPECT_FALSE(f.faulted());
  EXPECT_EQ(f.reason(), "");
  std::atomic<int> recorded{0}, winner{-1};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      if (f.record("fault " + std::to_string(t))) {
        recorded.fetch_add(1);
        winner.store(t);
      }
      EXPECT_TRUE(f.faulted());
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(recorded.load(), 1);
  ASSERT_GE(winner.load(), 0);
  EXPECT_EQ(f.reason(), "fault " + std::to_string(winner.load()));
  EXPECT_FALSE(f.record("later"));
  EXPECT_EQ(f.reason(), "fault " + std::to_string(winner.load()));
}

// Listeners run once, with the first reason: those registered before the fault when it is
// recorded, one registered after it at once.
TEST(DeviceFaultState, ListenersRunOnceWithTheFirstReason) {
  device_fault_state f;
  std::vector<std::string> heard;
  f.on_fault([&](const std::string& r) { heard.push_back("early " + r); });
  EXPECT_TRUE(heard.empty());
  EXPECT_TRUE(f.record("cudaErrorIllegalAddress"));
  EXPECT_FALSE(f.record("cudaErrorLaunchFailure"));
  f.on_fault([&](const std::string& r) { heard.push_back("late " + r); });
  EXPECT_EQ(heard, (std::vector<std::string>{"early cudaErrorIllegalAddress", "late cudaErrorIllegalAddress"}));
}

}  // namespace
}  // namespace cuzk::cuda
