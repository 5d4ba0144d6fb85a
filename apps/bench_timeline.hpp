// cuzk-bench --timeline: each partition's witness and device stages over time, one row per
// pipeline worker, as an SVG picture; and the figure the picture is for: how much of the time
// between the first and the last device-stage call the device workers sat idle.
#pragma once

#include <string>
#include <vector>

#include "bench_report.hpp"

namespace cuzk::bench {

struct device_utilisation {
  unsigned workers = 0;        // device workers seen
  double span_s = 0;           // first device start to last device end
  double busy_s = 0;           // union of each worker's device intervals, summed over workers
  double idle_fraction = 0;    // 1 - busy / (span x workers); 0 when nothing ran
};

device_utilisation device_busy(const std::vector<record>& records);

// The SVG document (self-contained; a <title> on every bar names job, partition and duration).
std::string timeline_svg(const std::vector<record>& records);

}  // namespace cuzk::bench
