// The test-circuit prover: an engine::partition_prover that proves TEST_CIRCUIT jobs (the MiMC
// chain family of mimc_chain.hpp) with the Groth16 prover on the CPU backend, against development
// parameters from param_store.hpp. Every other proof kind is rejected with errc::unsupported (the
// daemon routes Filecoin kinds elsewhere).
//
//   plan        k in [min_log2, max_log2] and partitions in [1, max_partitions], else
//               invalid_argument naming the field; the k-shape (recorded once, cached); one
//               partition per requested partition with x_0 = partition_start(seed, index) and
//               host_bytes = witness + the prover's peak buffers (see host_bytes_for)
//   synthesize  witness_builder -> inputs (ONE, x_0, y) and aux; y is kept for finalize
//   prove       parameters through the SRS manager as circuit "test-circuit-k<k>" (first use:
//               generated into the cache and written with a .b2sum; then digest-checked, mapped,
//               decoded and kept HOT, referenced while the partition proves; the wait is reported
//               as srs_load and is part of the device stage's time; a corrupt file is regenerated
//               once with a warning), r and s from the OS RNG,
//               groth16::prove on the device worker's backend (prover_options::backend_for:
//               the GPU worker's cuda_backend in the daemon), else on a pooled CPU backend
//               -> 192 bytes
//   finalize    every partition proof decoded and verified against the prepared verifying key
//               with public inputs (x_0, y); a failure is errc::internal and no proof is returned;
//               else the concatenation in partition order
//
// Thread-safe: the stages of many jobs and partitions may run at once (CPU backends are pooled,
// one per concurrent prove; the executor is shared).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/prover.hpp"
#include "engine/srs_manager.hpp"
#include "groth16/prover_backend.hpp"
#include "testcircuit/mimc_chain.hpp"
#include "testcircuit/param_store.hpp"

namespace cuzk::testcircuit {

struct prover_options {
  std::string param_cache;  // directory of the cached parameters (created if missing)
  unsigned threads = 0;     // prover and setup threads (0 = all hardware threads)
  log_fn log;               // may be empty
  // The SRS manager the parameters are loaded through (the daemon's, shared with Filecoin
  // circuits and charged to its host budget). Empty: the prover makes a private one with an
  // unlimited budget. The prover adds a resolver for "test-circuit-k<k>" ids to it.
  std::shared_ptr<engine::srs_manager> srs;
  // GPU workers: the backend that engine device worker `w` owns (engine::current_device_worker()
  // on the proving thread), used by prove() in place of the pooled CPU backends; nullptr for a
  // worker without one. Empty: CPU backends only. `backend_name` then names the prover
  // ("groth16-cuda").
  std::function<groth16::prover_backend*(int device_worker)> backend_for = nullptr;
  std::string backend_name = "cpu";
};

// Adds the resolver of "test-circuit-k<k>" ids (files in store.dir(), generated on first use) to
// `m`. The store must outlive the manager's use of it.
void add_test_circuit_resolver(engine::srs_manager& m, param_store& store);

// Host memory one partition holds from synthesize until prove returns, from the sizes:
// witness 32 (inputs + aux) B; the prover's a, b, c (3 x 32 m B, m = 2^k) and, while the H MSM
// runs, its canonical scalars and signed digits (~32 + 80 B per scalar) next to the h
// coefficients: 160 m B; plus the MSM's endomorphism split (msm.hpp), which holds [X^2]P for
// every base of the MSM running (104 B per G1 point, 200 B per G2 point; the MSMs run one at a
// time, at most m bases each): 200 m B more; plus 16 MiB for buckets and plans.
std::uint64_t host_bytes_for(const chain_layout& l);

std::unique_ptr<engine::partition_prover> make_prover(prover_options opts);

}  // namespace cuzk::testcircuit
