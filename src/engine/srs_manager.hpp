// The SRS manager: finds Groth16 parameter files by circuit id, checks their BLAKE2b digest once
// (remembered across restarts, verified_digests.hpp), keeps them in tiers and hands out counted
// references to running partitions. It knows nothing of gRPC, TOML or JSON, and nothing of what a
// loaded SRS looks like: each circuit's srs_source says where its file is, what digest it must
// have and how to decode it.
//
// Tiers (values equal cuzk.v1.SRSStatus.Tier):
//   COLD  the file is on disk (known, maybe verified), nothing mapped, no memory charged
//   WARM  the file is mmap'd read-only: its pages live in the page cache, which the kernel may
//         reclaim, so nothing is charged to the host budget; re-decoding it is a memory copy
//         plus decode, not a disk read
//   HOT   decoded into the representation the prover uses (host memory today; pinned host or
//         GPU-resident memory for a CUDA prover): charged to the host memory budget
//
// Loads: the first acquire() of an id prepares the file (a source may generate it: the test
// circuits), checks its digest (skipped when the remembered record matches the file's size and
// mtime), maps it, reserves the estimated HOT size from the budget (waiting at most
// max_budget_wait; memory held by idle SRS entries is evicted first), decodes, then charges the
// decoded size. Loads of different ids run in parallel; loads of one id are serialised, and
// everyone asking meanwhile gets the same result.
//
// Eviction: only entries nobody references (refs == 0). Under budget pressure (the budget's
// evictor hook), HOT entries idle for at least eviction_min_idle go back to WARM, least recently
// used first. evict() (the EvictSRS RPC) drops an unreferenced entry to COLD at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "engine/memory_budget.hpp"
#include "engine/result.hpp"
#include "engine/verified_digests.hpp"

namespace cuzk::engine {

enum class log_level;

enum class srs_tier : std::uint32_t { hot = 0, warm = 1, cold = 2 };
constexpr std::string_view to_string(srs_tier t) {
  switch (t) {
    case srs_tier::hot: return "hot";
    case srs_tier::warm: return "warm";
    case srs_tier::cold: return "cold";
  }
  return "unknown";
}

// A decoded SRS: prover-defined value and the host bytes it occupies.
struct srs_payload {
  std::shared_ptr<const void> value;
  std::uint64_t bytes = 0;
};

// How to find and load one circuit's parameters.
struct srs_source {
  std::string path;    // the .params file
  // Expected BLAKE2b-512 in hex: the first 32 digits (parameters.json) or all 128 (a .b2sum
  // file). Empty: no digest is known; the file is used unchecked (logged as a warning).
  std::string digest;
  // Optional; runs before the first load (and again after reset()): makes sure the file exists
  // (may generate it) and may return the digest to expect (non-empty overrides `digest`).
  std::function<result<std::string>(std::stop_token)> prepare;
  // Decodes the mapped file. `verified` says the digest matched, so costly structural checks that
  // only guard against corruption (subgroup checks) may be skipped.
  std::function<result<srs_payload>(std::span<const std::uint8_t> file, bool verified, std::stop_token)> decode;
  // HOT bytes to reserve before decoding, from the file size (default: the file size).
  std::function<std::uint64_t(std::uint64_t file_bytes)> hot_bytes;
};

// Maps circuit ids the manager does not know yet to sources; nullopt = not this resolver's id.
using srs_resolver = std::function<std::optional<srs_source>(std::string_view circuit_id)>;

struct srs_entry_info {
  std::string circuit_id;
  std::string path;
  srs_tier tier = srs_tier::cold;
  std::uint64_t file_bytes = 0;  // 0 while the file is missing
  std::uint64_t hot_bytes = 0;   // charged to the budget while HOT
  std::uint32_t refs = 0;
  bool verified = false;         // the digest matched (now or remembered)
  std::uint64_t loads = 0;       // HOT loads so far
  std::chrono::milliseconds idle{0};  // since the last reference was dropped
};

struct srs_manager_options {
  std::string cache_dir;                    // holds the verified-digests record ("" = memory only)
  std::shared_ptr<memory_budget> budget;    // HOT entries are charged here (required)
  std::chrono::milliseconds eviction_min_idle{std::chrono::minutes(5)};
  std::chrono::milliseconds max_budget_wait{std::chrono::minutes(5)};
  std::function<void(log_level, const std::string&)> log;
};

class srs_manager;
struct srs_entry;

// A counted reference to a HOT entry; the entry cannot be evicted while one exists.
class srs_handle {
 public:
  srs_handle() = default;
  srs_handle(srs_handle&& o) noexcept = default;
  srs_handle& operator=(srs_handle&& o) noexcept;
  srs_handle(const srs_handle&) = delete;
  srs_handle& operator=(const srs_handle&) = delete;
  ~srs_handle() { reset(); }

  template <class T>
  const T& get() const { return *static_cast<const T*>(value_.get()); }
  explicit operator bool() const { return value_ != nullptr; }
  void reset();

 private:
  friend class srs_manager;
  srs_manager* manager_ = nullptr;
  std::shared_ptr<srs_entry> entry_;
  std::shared_ptr<const void> value_;
};

struct srs_acquire_info {
  bool already_hot = false;
  std::chrono::milliseconds load_time{0};  // wait for the load (0 when already hot)
};

struct srs_evict_info {
  bool was_loaded = false;       // it was HOT or WARM
  std::uint64_t freed_bytes = 0; // host budget bytes given back
};

class srs_manager {
 public:
  explicit srs_manager(srs_manager_options opts);
  ~srs_manager();
  srs_manager(const srs_manager&) = delete;
  srs_manager& operator=(const srs_manager&) = delete;

  // Resolvers are asked in the order they were added.
  void add_resolver(srs_resolver r);
  // Registers (resolves) ids up front so that status lists their files as COLD. Unknown ids and
  // missing files are skipped.
  void discover(const std::vector<std::string>& ids);

  // A HOT reference to `id`, loading it if needed. Errors: not_found (unknown id, missing file),
  // data_loss (digest mismatch or undecodable file; the message names the file),
  // resource_exhausted (larger than the whole budget, or no room within max_budget_wait),
  // cancelled (stop requested while waiting).
  result<srs_handle> acquire(std::string_view id, std::stop_token stop = {}, srs_acquire_info* info = nullptr);

  // Drops an unreferenced entry to COLD. Errors: not_found (unknown id), failed_precondition
  // (in use by running partitions, or being loaded).
  result<srs_evict_info> evict(std::string_view id);

  // The budget's evictor: HOT entries unreferenced and idle >= eviction_min_idle go to WARM, least
  // recently used first, until `needed` bytes are freed. Returns the bytes freed.
  std::uint64_t evict_idle(std::uint64_t needed);

  // Forgets what is known about id's file (verification, mapping, decoded value when unreferenced):
  // for a source that has just rewritten it.
  void reset(std::string_view id);

  bool knows(std::string_view id);
  std::vector<srs_entry_info> entries() const;
  memory_budget& budget() { return *opts_.budget; }

 private:
  friend class srs_handle;
  std::shared_ptr<srs_entry> find_or_resolve(std::string_view id);
  void release(srs_entry& e);
  void log(log_level lvl, const std::string& msg) const;

  srs_manager_options opts_;
  verified_digests verified_;
  mutable std::mutex mu_;
  std::vector<srs_resolver> resolvers_;
  std::map<std::string, std::shared_ptr<srs_entry>, std::less<>> entries_;
};

}  // namespace cuzk::engine
