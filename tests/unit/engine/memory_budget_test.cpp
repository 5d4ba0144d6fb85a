#include "engine/memory_budget.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

TEST(memory_budget, reserve_and_release) {
  memory_budget b(100);
  auto r1 = b.try_reserve(60);
  ASSERT_TRUE(r1);
  EXPECT_EQ(b.reserved(), 60u);
  EXPECT_FALSE(b.try_reserve(41));
  auto r2 = b.try_reserve(40);
  EXPECT_TRUE(r2);
  r1.release();
  EXPECT_EQ(b.reserved(), 40u);
  {
    auto moved = std::move(r2);
    EXPECT_EQ(moved.bytes(), 40u);
  }
  EXPECT_EQ(b.reserved(), 0u);
}

TEST(memory_budget, more_than_the_total_fails_at_once) {
  memory_budget b(1 << 20);
  auto r = b.reserve(2 << 20, 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::resource_exhausted);
  EXPECT_NE(r.error().message.find("2MiB"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("1MiB"), std::string::npos) << r.error().message;
}

TEST(memory_budget, waiters_are_served_most_urgent_first) {
  memory_budget b(100);
  auto hold = b.try_reserve(100);
  std::mutex mu;
  std::vector<int> order;
  std::vector<std::thread> ts;
  for (std::uint32_t urgency : {1u, 3u, 2u}) {
    ts.emplace_back([&, urgency] {
      auto r = b.reserve(100, urgency);
      ASSERT_TRUE(r);
      std::lock_guard l(mu);
      order.push_back(static_cast<int>(urgency));
    });
    while (b.waiting() < ts.size()) std::this_thread::sleep_for(1ms);
  }
  EXPECT_FALSE(b.try_reserve(1, 2));  // a more urgent waiter is queued
  hold.release();
  for (auto& t : ts) t.join();
  EXPECT_EQ(order, (std::vector<int>{3, 2, 1}));
  EXPECT_EQ(b.reserved(), 0u);
}

TEST(memory_budget, stop_token_cancels_a_wait) {
  memory_budget b(10);
  auto hold = b.try_reserve(10);
  std::stop_source stop;
  std::thread t([&] {
    auto r = b.reserve(5, 0, stop.get_token());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, errc::cancelled);
  });
  while (b.waiting() == 0) std::this_thread::sleep_for(1ms);
  stop.request_stop();
  t.join();
  EXPECT_EQ(b.waiting(), 0u);
}

TEST(memory_budget, release_listener_runs) {
  memory_budget b(10);
  int calls = 0;
  b.set_release_listener([&] { ++calls; });
  b.try_reserve(5).release();
  EXPECT_EQ(calls, 1);
}

TEST(memory_budget, evictor_frees_room_for_try_reserve_and_for_a_waiting_reserve) {
  memory_budget b(100);
  reservation held = b.try_reserve(80);
  ASSERT_TRUE(held);
  std::vector<std::uint64_t> asked;
  b.set_evictor([&](std::uint64_t shortfall) {
    asked.push_back(shortfall);
    const std::uint64_t freed = held.bytes();
    held.release();
    return freed;
  });
  auto r = b.try_reserve(50);  // 20 free: asks for the 30 missing, gets 80
  EXPECT_TRUE(r);
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], 30u);
  EXPECT_EQ(b.reserved(), 50u);
  // Nothing left to evict: try_reserve asks once and gives up; reserve asks while it waits.
  EXPECT_FALSE(b.try_reserve(60));
  EXPECT_EQ(asked.size(), 2u);
  held = b.try_reserve(40);  // budget full again: 50 + 40 + 10 free
  ASSERT_TRUE(held);
  auto w = b.reserve(30, 0);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  EXPECT_EQ(b.reserved(), 80u);
  EXPECT_GE(asked.size(), 3u);
  b.set_evictor({});
}

}  // namespace
}  // namespace cuzk::engine
