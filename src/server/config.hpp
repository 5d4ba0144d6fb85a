// cuzk-daemon configuration: the TOML file (toml++) -> native types. Every key has a default, so
// the daemon runs without a file. Unknown keys, wrong types, malformed sizes/durations and
// impossible values are errors that name the key (the Rust cuzk ignored unknown keys and turned
// unparsable sizes into 50 GiB, rust-cuzk.md §8.1 item 11).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/result.hpp"

namespace cuzk::server {

enum class backend_kind { auto_select, cpu, cuda };
// Where a CUDA device keeps the SRS bases: in device memory, or in pinned host memory streamed to
// the device by every MSM; auto = in device memory when it holds them beside a partition.
enum class srs_residency_kind { auto_select, device, streamed };
enum class log_format { text, json };

struct daemon_config {
  struct {
    std::string listen = "unix:///run/curio/cuzk.sock";  // "host:port" or "unix:///path"
    std::string status_listen;                           // HTTP /status, /metrics; "" = off
    std::chrono::milliseconds shutdown_grace{std::chrono::seconds(30)};
    std::uint64_t max_message_size = 256ull << 20;       // gRPC, both directions
  } daemon;
  struct {
    std::string param_cache;  // default: $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters
    std::vector<std::string> preload;  // circuit ids to load at startup ("porep-32g", ...)
  } srs;
  struct {
    std::optional<std::uint64_t> total_budget;  // nullopt = "auto": MemTotal - safety_margin
    std::uint64_t safety_margin = 5ull << 30;
    std::chrono::milliseconds eviction_min_idle{std::chrono::minutes(5)};
  } memory;
  struct {
    backend_kind backend = backend_kind::auto_select;
    std::vector<std::uint32_t> devices;  // empty = "all" (every visible device)
    std::uint32_t gpu_workers_per_device = 2;
    std::uint32_t gpu_threads = 0;       // 0 = all cores
    srs_residency_kind srs_residency = srs_residency_kind::auto_select;
  } gpus;
  struct {
    std::uint32_t max_batch_size = 1;
    std::chrono::milliseconds max_batch_wait{10000};
    std::uint32_t max_pending_jobs = 1024;
    std::uint32_t witness_queue_depth = 0;  // 0 = 4 x synthesis.concurrency
    std::uint32_t device_queue_depth = 0;   // 0 = 2 x device workers
    std::uint32_t parse_workers = 1;
    std::chrono::milliseconds result_retention{std::chrono::minutes(10)};
    std::uint32_t max_retained_results = 4096;
  } scheduler;
  struct {
    std::uint32_t threads = 0;      // threads of one synthesis (0 = all cores)
    std::uint32_t concurrency = 2;  // partitions synthesized at once
  } synthesis;
  struct {
    std::string level = "info";     // trace, debug, info, warn, error
    log_format format = log_format::text;
  } logging;
};

// Parses TOML text; `origin` names the source in messages (a path or "<string>").
engine::result<daemon_config> parse_config(std::string_view toml_text, std::string_view origin);
// Reads and parses a file; a missing file is an error (the caller decides whether a file is needed).
engine::result<daemon_config> load_config_file(const std::string& path);
// Checks cross-key rules (called by parse_config, and again after command-line overrides).
engine::status validate_config(const daemon_config& cfg);

// The effective configuration as TOML that parse_config accepts (for --print-config).
std::string to_toml(const daemon_config& cfg);

// "auto" resolution: MemTotal from /proc/meminfo minus the safety margin.
engine::result<std::uint64_t> resolve_total_budget(const daemon_config& cfg);
// The backend a build can use at most: auto = cuda when built with CUDA, else cpu. The daemon
// decides at startup with choose_backend (gpu_workers.hpp), which also needs a device present.
backend_kind resolve_backend(const daemon_config& cfg);
std::string_view to_string(backend_kind b);
std::string_view to_string(srs_residency_kind k);
bool built_with_cuda();

}  // namespace cuzk::server
