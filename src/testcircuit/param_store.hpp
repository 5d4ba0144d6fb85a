// Development Groth16 parameters for the test circuit family, generated on first use into the
// parameter cache directory and reused afterwards.
//
// Files, per k (in [srs] param_cache, default $FIL_PROOFS_PARAMETER_CACHE or
// /var/tmp/filecoin-proof-parameters):
//   cuzk-test-circuit-k<k>-v<version>.params   bellperson .params layout (groth16/params.hpp)
//   cuzk-test-circuit-k<k>-v<version>.vk       bellperson .vk layout
//   cuzk-test-circuit-k<k>-v<version>.b2sum    BLAKE2b-512 of both, in `b2sum` format (so
//                                              `cd DIR && b2sum -c NAME.b2sum` checks them)
//   cuzk-test-circuit-k<k>-v<version>.lock     flock(2) taken while checking or generating
//
// Generation: toxic waste from the OS RNG (getrandom), groth16::setup on the executor. Each file
// is written to a temporary name in the same directory, fsynced and renamed; the .b2sum file is
// renamed last and is the commit marker, so a crash or a concurrent daemon never leaves a file
// that is used half-written. Generation is serialised per k inside the process (a mutex per k)
// and across processes (the .lock file): a second daemon waits and then reads what the first one
// wrote.
//
// Reuse: the .params file is used only when the BLAKE2b digests of both files match the .b2sum
// file; it is then decoded with subgroup_check::skip (the digest guards against corruption, the
// directory is trusted as Filecoin's parameter cache is), and its sizes are checked against the
// circuit's shape. Anything else (a missing .b2sum, a digest mismatch, a truncated or undecodable
// file, sizes that do not match) is treated as a corrupt cache entry: a warning names the file
// and the reason and the parameters are generated again, replacing the files atomically.
// If the directory cannot be written, the generated parameters are used from memory (warning).
//
// Loaded parameters stay in memory for the life of the store (no eviction: test circuits only).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "base/executor.hpp"
#include "engine/engine.hpp"
#include "engine/result.hpp"
#include "groth16/params.hpp"
#include "groth16/verifier.hpp"
#include "testcircuit/mimc_chain.hpp"

namespace cuzk::testcircuit {

using log_fn = std::function<void(engine::log_level, const std::string&)>;

struct srs {
  groth16::parameters params;
  groth16::prepared_verifying_key pvk;
};

enum class srs_origin { memory, file, generated };

struct param_files {
  std::string params, vk, digests, lock;
};
// Paths of the k-circuit's files in dir.
param_files files_for(const std::string& dir, unsigned k);

// The SRS manager's circuit id for k ("test-circuit-k10") and back (nullopt: not a test-circuit id
// or k outside [min_log2, max_log2]).
std::string circuit_id_for(unsigned k);
std::optional<unsigned> k_of_circuit_id(std::string_view id);

// Decodes a mapped .params file of the k-circuit into an srs (checked against the circuit's
// shape; subgroup checks only when !verified). Errors: errc::data_loss naming the problem.
engine::result<std::shared_ptr<const srs>> decode_srs(std::span<const std::uint8_t> file, bool verified,
                                                      const compiled_circuit& circuit);

class param_store {
 public:
  param_store(std::string dir, base::executor& ex, log_fn log = {});

  // The parameters of `circuit`: from memory, else from the cache directory, else generated (and
  // written there). Thread-safe. Errors: errc::internal (setup failed, e.g. degenerate toxic
  // waste; the message says why).
  engine::result<std::shared_ptr<const srs>> get(const compiled_circuit& circuit, srs_origin* origin = nullptr);

  // Drops k's parameters from memory (the next get reads the files again). For tests.
  void forget(unsigned k);

  // For the daemon's SRS manager, which loads, verifies and caches the .params file itself:
  // makes sure the files exist (generating and writing them when absent, when the .b2sum file is
  // missing or when `regenerate` is set) and returns the .params file's BLAKE2b-512 from the
  // .b2sum file. Errors: errc::internal (setup failed, or the files cannot be written: the
  // manager needs them on disk).
  engine::result<std::string> ensure_files(const compiled_circuit& circuit, bool regenerate = false);

  const std::string& dir() const { return dir_; }

 private:
  struct entry {
    std::mutex mu;
    std::shared_ptr<const srs> value;
  };
  void log(engine::log_level lvl, const std::string& msg) const {
    if (log_) log_(lvl, msg);
  }

  // k's entry, created on first use (its own mutex serialises loads and generation of that k).
  std::shared_ptr<entry> entry_for(unsigned k);
  // Generates k's parameters and writes the files; empty string on success, else why not.
  std::string generate_locked(const compiled_circuit& circuit, const param_files& f, entry& e);

  std::string dir_;
  base::executor& ex_;
  log_fn log_;
  std::mutex mu_;
  std::map<unsigned, std::shared_ptr<entry>> entries_;
};

}  // namespace cuzk::testcircuit
