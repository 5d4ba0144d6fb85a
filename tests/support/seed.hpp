// Seeds for randomised tests: fresh each run unless CUZK_TEST_SEED is set, and always printed
// so that a failure can be replayed with CUZK_TEST_SEED=<seed>.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace cuzk::test {

inline uint64_t test_seed() {
  uint64_t seed;
  if (const char* env = std::getenv("CUZK_TEST_SEED")) {
    seed = std::strtoull(env, nullptr, 0);
  } else {
    std::random_device rd;
    seed = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::printf("[ seed     ] %s.%s: CUZK_TEST_SEED=%llu\n", info ? info->test_suite_name() : "?",
              info ? info->name() : "?", static_cast<unsigned long long>(seed));
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

// A 64-bit generator seeded from test_seed(); pass it to F::random(rng) and friends.
struct seeded_rng {
  std::mt19937_64 engine{test_seed()};
  uint64_t operator()() { return engine(); }
};

}  // namespace cuzk::test
