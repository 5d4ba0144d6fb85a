// Prometheus-style histograms of durations (seconds), for /metrics: per stage and proof kind.
// Buckets span 5 ms (a small test-circuit stage) to 10 min (a PoRep job waiting behind others);
// roughly x2.5 apart, so any duration lands within a factor of 2.5 of its bucket's bound.
#pragma once

#include <array>
#include <cstdint>

namespace cuzk::engine {

struct duration_histogram {
  static constexpr std::array<double, 16> bounds = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                                                    2.5,   5.0,  10.0,  25.0, 60.0, 120.0, 300.0, 600.0};
  std::array<std::uint64_t, bounds.size() + 1> buckets{};  // per bucket (not cumulative); last = +Inf
  double sum = 0;
  std::uint64_t count = 0;

  void observe(double seconds) {
    std::size_t i = 0;
    while (i < bounds.size() && seconds > bounds[i]) ++i;
    ++buckets[i];
    sum += seconds;
    ++count;
  }
  // Observations <= bounds[i] (i == bounds.size(): all of them), as Prometheus' le buckets.
  std::uint64_t cumulative(std::size_t i) const {
    std::uint64_t n = 0;
    for (std::size_t j = 0; j <= i && j < buckets.size(); ++j) n += buckets[j];
    return n;
  }
};

}  // namespace cuzk::engine
