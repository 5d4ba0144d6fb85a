#include "engine/units.hpp"

#include <gtest/gtest.h>

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

TEST(parse_size, units) {
  EXPECT_EQ(parse_size("0").value(), 0u);
  EXPECT_EQ(parse_size("1073741824").value(), 1ull << 30);
  EXPECT_EQ(parse_size("256GiB").value(), 256ull << 30);
  EXPECT_EQ(parse_size("256 GiB").value(), 256ull << 30);
  EXPECT_EQ(parse_size("256gib").value(), 256ull << 30);
  EXPECT_EQ(parse_size("256G").value(), 256ull << 30);
  EXPECT_EQ(parse_size("1TiB").value(), 1ull << 40);
  EXPECT_EQ(parse_size("5MiB").value(), 5ull << 20);
  EXPECT_EQ(parse_size("64GB").value(), 64'000'000'000ull);
  EXPECT_EQ(parse_size("1.5 GB").value(), 1'500'000'000ull);
  EXPECT_EQ(parse_size("1.5GiB").value(), 3ull << 29);
  EXPECT_EQ(parse_size("12B").value(), 12u);
  EXPECT_EQ(parse_size(" 2KiB ").value(), 2048u);
}

TEST(parse_size, rejects_malformed) {
  for (const char* s : {"", "GiB", "-1GiB", "1.GiB", ".5GiB", "1e9", "5 giga", "256GiBs", "1,5GB",
                        "99999999999999999999", "17179869184GiB", "nan"}) {
    auto r = parse_size(s);
    EXPECT_FALSE(r) << s;
    if (!r) {
      EXPECT_NE(r.error().message.find(s), std::string::npos) << r.error().message;
    }
  }
}

TEST(parse_duration, units) {
  EXPECT_EQ(parse_duration("0").value(), 0ms);
  EXPECT_EQ(parse_duration("250ms").value(), 250ms);
  EXPECT_EQ(parse_duration("5s").value(), 5000ms);
  EXPECT_EQ(parse_duration("1.5s").value(), 1500ms);
  EXPECT_EQ(parse_duration("5m").value(), 300'000ms);
  EXPECT_EQ(parse_duration("2h").value(), 7'200'000ms);
  EXPECT_EQ(parse_duration(" 10 s").value(), 10'000ms);
}

TEST(parse_duration, rejects_malformed) {
  for (const char* s : {"", "5", "s", "-5s", "5sec", "1d", "5 minutes", "1e3ms", "99999999999999999999h"}) {
    EXPECT_FALSE(parse_duration(s)) << s;
  }
}

TEST(format, round_trips) {
  for (std::uint64_t v : {0ull, 17ull, 1024ull, 1536ull << 20, 256ull << 30, 1ull << 40}) {
    EXPECT_EQ(parse_size(format_size(v)).value(), v) << format_size(v);
  }
  EXPECT_EQ(format_size(256ull << 30), "256GiB");
  EXPECT_EQ(format_size(1536ull << 20), "1536MiB");
  for (auto d : {0ms, 250ms, 5000ms, 300'000ms, 7'200'000ms, 1500ms}) {
    EXPECT_EQ(parse_duration(format_duration(d)).value(), d) << format_duration(d);
  }
  EXPECT_EQ(format_duration(5000ms), "5s");
  EXPECT_EQ(format_duration(250ms), "250ms");
}

}  // namespace
}  // namespace cuzk::engine
