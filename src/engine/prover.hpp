// The prover interface: what the engine drives, and what the Groth16 / Filecoin layers implement.
//
// A job flows through four stages, each run by the engine on its own bounded, priority-ordered
// worker pool, with cancellation checked between stages (the stop_token is also passed in so
// long stages can stop early):
//
//   plan       (parse workers)    parse and validate the vanilla input, split it into partitions,
//                                 state each partition's host-memory need
//   synthesize (witness workers)  per partition: witness and a,b,c; runs only after the engine
//                                 reserved partition_work::host_bytes from the host budget
//   prove      (device workers)   per partition: NTT/MSM on the backend -> one Groth16 proof;
//                                 the reservation is released when it returns
//   finalize   (the worker that finished the last partition)  assemble partition proofs in
//                                 partition order and self-verify
//
// Every call may run concurrently with other calls (for other partitions and jobs); an
// implementation must be thread-safe. Errors: errc::invalid_argument for malformed input
// (garbled vanilla proof), errc::unsupported for valid requests the prover cannot do, errc::internal
// otherwise; the message reaches the client verbatim (AwaitProofResponse.error_message).
#pragma once

#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "engine/result.hpp"
#include "engine/types.hpp"

namespace cuzk::engine {

// One partition of a job, as planned by partition_prover::plan.
struct partition_work {
  std::uint32_t index = 0;       // position of this partition's proof in the final proof
  std::uint64_t host_bytes = 0;  // host memory held from synthesize() until prove() returns
  std::shared_ptr<const void> input;  // prover-defined per-partition input
};

// A planned job: its partitions and whatever parsed state they share (prover-defined).
struct job_plan {
  std::vector<partition_work> partitions;  // at least one
  std::shared_ptr<const void> context;     // e.g. parsed C1 output, circuit id, SRS handle
  std::string circuit_id;                  // for status/logs ("porep-32g"), may be empty
};

// The witness stage's output, handed to prove(). Prover-defined.
class witness_data {
 public:
  virtual ~witness_data() = default;
};

struct partition_proof {
  bytes proof;                               // 192 bytes for a Filecoin Groth16 proof
  std::chrono::milliseconds srs_load{0};     // time spent waiting for the SRS, if any
};

class partition_prover {
 public:
  virtual ~partition_prover() = default;

  // Short name for logs and GetVersion ("none", "groth16-cpu", "groth16-cuda").
  virtual std::string name() const = 0;
  // Whether `kind` can be proved at all (GetVersion's supported_kinds). plan() must still reject
  // what it cannot do; this is advisory.
  virtual bool supports(proof_kind kind) const = 0;

  virtual result<job_plan> plan(const job_spec& job, std::stop_token stop) = 0;
  virtual result<std::unique_ptr<witness_data>> synthesize(const job_spec& job, const job_plan& plan,
                                                           const partition_work& part,
                                                           std::stop_token stop) = 0;
  virtual result<partition_proof> prove(const job_spec& job, const job_plan& plan,
                                        const partition_work& part,
                                        std::unique_ptr<witness_data> witness,
                                        std::stop_token stop) = 0;
  // partition_proofs[i] belongs to plan.partitions[i].index == i order (sorted by index).
  virtual result<bytes> finalize(const job_spec& job, const job_plan& plan,
                                 std::vector<bytes> partition_proofs, std::stop_token stop) = 0;
};

// The prover the daemon has until a real one is plugged in: it proves nothing and says so.
// Filecoin kinds fail with "not yet supported: <kind>"; the test circuit with "prover not built in
// yet: test-circuit". It never produces a proof.
std::unique_ptr<partition_prover> make_unavailable_prover();

}  // namespace cuzk::engine
