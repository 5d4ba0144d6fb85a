// The engine's native vocabulary: proof kinds, priorities, a job's input (job_spec, filled by the
// server from cuzk.v1.SubmitProofRequest) and its outcome (job_result). No gRPC or protobuf here.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::engine {

// Binary payloads (vanilla proofs, proofs) are std::string so that protobuf `bytes` fields move in
// and out without copies (a PoRep C1 output is ~51 MB).
using bytes = std::string;

// Values equal cuzk.v1.ProofKind's.
enum class proof_kind : std::uint32_t {
  porep_seal_commit = 1,
  snap_deals_update = 2,
  window_post_partition = 3,
  winning_post = 4,
  test_circuit = 100,  // synthetic non-Filecoin circuit (cuzk-cpp addition)
};
inline constexpr proof_kind all_proof_kinds[] = {
    proof_kind::porep_seal_commit, proof_kind::snap_deals_update, proof_kind::window_post_partition,
    proof_kind::winning_post, proof_kind::test_circuit};

// The Rust cuzk's display names (used in GetStatus QueueStatus.proof_kind and in messages).
constexpr std::string_view to_string(proof_kind k) {
  switch (k) {
    case proof_kind::porep_seal_commit: return "porep-c2";
    case proof_kind::snap_deals_update: return "snap-update";
    case proof_kind::window_post_partition: return "window-post";
    case proof_kind::winning_post: return "winning-post";
    case proof_kind::test_circuit: return "test-circuit";
  }
  return "unknown";
}
// Prometheus label values (the Rust cuzk's: porep_c2, snap_update, ...).
constexpr std::string_view metric_label(proof_kind k) {
  switch (k) {
    case proof_kind::porep_seal_commit: return "porep_c2";
    case proof_kind::snap_deals_update: return "snap_update";
    case proof_kind::window_post_partition: return "window_post";
    case proof_kind::winning_post: return "winning_post";
    case proof_kind::test_circuit: return "test_circuit";
  }
  return "unknown";
}
constexpr bool is_filecoin(proof_kind k) { return k != proof_kind::test_circuit; }

// Values equal cuzk.v1.Priority's; larger is more urgent.
enum class priority : std::uint32_t { low = 1, normal = 2, high = 3, critical = 4 };

constexpr std::string_view to_string(priority p) {
  switch (p) {
    case priority::low: return "low";
    case priority::normal: return "normal";
    case priority::high: return "high";
    case priority::critical: return "critical";
  }
  return "unknown";
}

// Used when the request leaves priority unspecified (the Rust cuzk's Priority::default_for).
constexpr priority default_priority(proof_kind k) {
  switch (k) {
    case proof_kind::winning_post: return priority::critical;
    case proof_kind::window_post_partition: return priority::high;
    default: return priority::normal;
  }
}

struct test_circuit_spec {
  std::uint32_t log2_constraints = 0;
  std::uint32_t partitions = 0;
  std::uint64_t seed = 0;
};

// One proof request in native form. Field meanings as in cuzk.v1.SubmitProofRequest.
struct job_spec {
  std::string request_id;  // idempotency key; empty = the engine makes a fresh id
  proof_kind kind = proof_kind::porep_seal_commit;
  priority prio = priority::normal;
  std::uint64_t sector_size = 0;
  std::uint64_t registered_proof = 0;
  bytes vanilla_proof;                // PoRep: C1 output envelope (JSON)
  std::vector<bytes> vanilla_proofs;  // PoSt: per sector; SnapDeals: per partition
  std::uint64_t sector_number = 0;
  std::uint64_t miner_id = 0;
  bytes randomness;                   // 32 bytes for PoSt
  std::uint32_t partition_index = 0;  // WindowPoSt
  bytes comm_r_old, comm_r_new, comm_d_new;  // SnapDeals, 32 bytes each
  test_circuit_spec test_circuit;     // kind == test_circuit

  // Total payload size (used to recognise a different request reusing a request_id).
  std::uint64_t payload_bytes() const {
    std::uint64_t n = vanilla_proof.size();
    for (const auto& v : vanilla_proofs) n += v.size();
    return n;
  }
};

enum class job_status { completed, failed, cancelled, timeout };

constexpr std::string_view to_string(job_status s) {
  switch (s) {
    case job_status::completed: return "completed";
    case job_status::failed: return "failed";
    case job_status::cancelled: return "cancelled";
    case job_status::timeout: return "timeout";
  }
  return "unknown";
}

// Timings as reported in cuzk.v1.AwaitProofResponse.
struct job_timings {
  std::chrono::milliseconds queue_wait{0};   // submit -> parse stage start
  std::chrono::milliseconds srs_load{0};     // reported by the prover
  std::chrono::milliseconds synthesis{0};    // sum over partitions of the witness stage
  std::chrono::milliseconds gpu_compute{0};  // sum over partitions of the device stage
  std::chrono::milliseconds total{0};        // submit -> result
};

// When one partition went through the witness and device stages (completed jobs), for timelines.
// Times are microseconds since the Unix epoch (the daemon's clock), so jobs line up.
struct partition_timing {
  std::uint32_t index = 0;
  std::uint32_t witness_worker = 0;
  std::uint64_t synth_start_us = 0, synth_end_us = 0;
  std::uint32_t device_worker = 0;
  std::uint64_t device_start_us = 0, device_end_us = 0;
};

struct job_result {
  std::string job_id;
  job_status status = job_status::failed;
  bytes proof;            // completed: partition proofs concatenated in partition order
  std::string error;      // failed / cancelled / timeout: why
  job_timings timings;
  std::uint64_t submitted_us = 0;             // completed: submit time, us since the Unix epoch
  std::vector<partition_timing> partitions;   // completed: by partition index
};

}  // namespace cuzk::engine
