// cuzk-bench's reports: one record per Prove call, the summary table (throughput, latency
// percentiles, per-stage medians, per proof kind and overall) and its JSON form.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::bench {

struct partition_span {
  std::uint32_t index = 0;
  std::uint32_t witness_worker = 0, device_worker = 0;
  std::uint64_t synth_start_us = 0, synth_end_us = 0, device_start_us = 0, device_end_us = 0;
};

struct record {
  std::string label;          // the load's name for this request ("test-k10x2", "porep")
  std::string job_id;
  std::string status;         // COMPLETED, FAILED, CANCELLED, TIMEOUT, or "RPC_ERROR"
  std::string error;
  double wall_ms = 0;         // client-side latency of the Prove call
  double queue_ms = 0, srs_ms = 0, synth_ms = 0, gpu_ms = 0, total_ms = 0;  // server-side
  std::uint64_t submitted_us = 0;
  std::vector<partition_span> partitions;
  bool completed() const { return status == "COMPLETED"; }
};

// Nearest-rank percentile (p in 0..100) of unsorted values; 0 for none.
double percentile(std::vector<double> v, double p);

struct run_info {
  std::string mode;        // "batch" or "stress"
  double wall_s = 0;       // first submit to last reply
  std::uint32_t concurrency = 0;  // batch: -j; stress: max in flight
  double duration_s = 0;   // stress: submission window
};

// A fixed-width table: one row per label and an "all" row: proofs completed/failed/errors,
// s/proof (wall / completed), latency p50/p95/max, median queue/srs/synth/gpu/total ms.
std::string summary_table(const std::vector<record>& records, const run_info& info);
std::string summary_json(const std::vector<record>& records, const run_info& info);

}  // namespace cuzk::bench
