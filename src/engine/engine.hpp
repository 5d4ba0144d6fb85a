// The proving engine: jobs, priority scheduling over bounded pipeline stages, the host memory
// budget, cancellation, await with timeout, status, and graceful shutdown. It drives a
// partition_prover (prover.hpp) and knows nothing of gRPC, TOML or JSON.
//
// Scheduling: every stage queue is ordered by priority (critical > high > normal > low), then by
// submission order, then by partition index. Stages are bounded: the parse stage starts a job only
// while the witness queue has room, the witness stage starts a partition only while the device
// queue has room *and* the partition's host memory could be reserved, so a more urgent job that
// arrives later overtakes at every stage and nothing queues unboundedly in memory.
//
// Jobs: request_id is an idempotency key. Submitting an id that names an unfinished or completed
// job attaches to it (same result); an id whose job failed or was cancelled starts a new attempt;
// the same id with a different proof kind or input size is rejected. Finished results are kept for
// `result_retention` (and at most `max_retained_results`), then forgotten.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "engine/histogram.hpp"
#include "engine/memory_budget.hpp"
#include "engine/prover.hpp"
#include "engine/result.hpp"
#include "engine/srs_manager.hpp"
#include "engine/types.hpp"

namespace cuzk::engine {

enum class log_level { debug, info, warn, error };

// Per-device state the daemon reports next to the engine's own (GetStatus gpus, /status, /metrics).
// The engine only carries it: engine_options::gpu_status fills it at each status() call.
struct gpu_info {
  std::uint32_t ordinal = 0;              // the device's ordinal ([gpus] devices)
  std::string name;                       // "NVIDIA H200"
  std::vector<std::uint32_t> workers;     // engine device-worker indices that run on it
  std::uint64_t memory_capacity = 0;      // bytes the device-memory arbiter hands out
  std::uint64_t memory_reserved = 0;      // bytes reserved on it now (SRS, shapes, buffers)
  std::uint32_t memory_waiting = 0;       // reservations waiting for device memory
  double busy_seconds = 0;                // time its kernel-region lock was held
  std::uint64_t kernel_regions = 0;       // completed kernel regions (one per partition proved)
  std::string fault;                      // empty: usable; else the sticky device fault that ended its use
};

struct engine_options {
  std::uint64_t host_memory_bytes = 64ull << 30;  // the host budget stages reserve from
  // A budget shared with others (the SRS manager); when set, host_memory_bytes is ignored.
  std::shared_ptr<memory_budget> budget;
  // The SRS manager whose entries status() reports (may be empty).
  std::shared_ptr<srs_manager> srs;
  unsigned parse_workers = 1;
  unsigned witness_workers = 1;
  unsigned device_workers = 1;
  std::size_t witness_queue_capacity = 0;  // partitions waiting for synthesis; 0 = 4 x witness_workers
  std::size_t device_queue_capacity = 0;   // synthesized partitions waiting for a device; 0 = 2 x device_workers
  std::size_t max_unfinished_jobs = 1024;  // admission limit (queued + running)
  std::chrono::milliseconds result_retention{std::chrono::minutes(10)};
  std::size_t max_retained_results = 4096;
  // Log sink (the server wires spdlog); may be empty.
  std::function<void(log_level, const std::string&)> log;
  // Per-GPU state for status(); called outside the engine's lock. May be empty (no GPUs).
  std::function<std::vector<gpu_info>()> gpu_status;
};

// The index of the engine device worker running on the calling thread (0..device_workers-1),
// or -1 on any other thread. A prover's prove() uses it to pick the device and backend it owns
// for that worker (each device worker runs one prove() at a time).
int current_device_worker();

struct submit_options {
  // Cancel the job when its last waiter detaches (a Prove call whose client went away) before it
  // finished. Jobs started by SubmitProof keep running without waiters.
  bool cancel_when_orphaned = false;
};

struct submit_info {
  std::string job_id;
  std::uint32_t queue_position = 0;  // jobs ahead of it in the parse queue
  bool attached = false;             // an existing job with this request_id was reused
};

struct cancel_info {
  bool found = false;        // an unfinished job had this id
  bool was_running = false;  // it had left the parse queue
};

using waiter_id = std::uint64_t;
using completion = std::function<void(job_result)>;

struct status_snapshot {
  struct kind_counts {
    proof_kind kind;
    std::uint32_t pending = 0;      // jobs waiting for the parse stage
    std::uint32_t in_progress = 0;  // jobs in parse/witness/device/finalize
    std::uint64_t completed = 0, failed = 0, cancelled = 0;
  };
  struct stage_info {
    std::string stage;
    std::uint32_t queued = 0, capacity = 0, running = 0;
  };
  struct worker_info {
    std::string stage;
    std::uint32_t index = 0;
    bool busy = false;
    std::string job_id;
    proof_kind kind = proof_kind::porep_seal_commit;
    std::uint32_t partition = 0;
  };
  std::vector<kind_counts> kinds;  // every kind, in all_proof_kinds order
  std::vector<stage_info> stages;  // parse, witness, device
  std::vector<worker_info> workers;
  std::uint64_t budget_total = 0, budget_reserved = 0;
  std::uint32_t budget_waiting = 0;  // reservations waiting for memory (incl. the witness queue head)
  std::uint64_t completed = 0, failed = 0, cancelled = 0;
  std::uint32_t unfinished_jobs = 0, retained_results = 0;
  std::chrono::seconds uptime{0};
  bool accepting = true;
  std::string prover;
  std::vector<srs_entry_info> srs;
  std::vector<gpu_info> gpus;  // empty on the CPU backend
  // Durations per stage ("queue", "parse", "witness", "device", "finalize", "srs_load", "job")
  // and proof kind; "job" counts completed jobs only, the others every stage call that returned.
  struct histogram_info {
    std::string stage;
    proof_kind kind;
    duration_histogram h;
  };
  std::vector<histogram_info> histograms;
};

struct shutdown_report {
  std::uint32_t cancelled_queued = 0;   // jobs that had not started
  std::uint32_t finished_in_grace = 0;  // running jobs that finished within the grace period
  std::uint32_t cancelled_running = 0;  // running jobs still unfinished when the grace expired
};

class engine {
 public:
  engine(engine_options opts, std::shared_ptr<partition_prover> prover);
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;
  ~engine();  // shutdown(0) if not yet done, then joins the workers

  // Errors: unavailable (shutting down), already_exists (request_id reused for other input),
  // resource_exhausted (too many unfinished jobs), invalid_argument.
  result<submit_info> submit(job_spec spec, submit_options opts = {});

  // Calls `done` exactly once: with the job's result when it finishes (or at once if it already
  // has), with status timeout after `timeout` (0 = no timeout; the job keeps running), or with
  // status cancelled at shutdown. `done` runs on an engine thread or the caller's; it must not
  // block. Errors: not_found.
  result<waiter_id> await(std::string_view job_id, std::chrono::milliseconds timeout, completion done);
  // The waiter's caller went away: `done` will not be called (unless it is running already).
  void detach(waiter_id id);
  // Blocking convenience over await().
  result<job_result> await_blocking(std::string_view job_id, std::chrono::milliseconds timeout);

  cancel_info cancel(std::string_view job_id, std::string reason = "cancelled by client");

  status_snapshot status() const;

  // Graceful stop: stops accepting, cancels queued jobs, lets running ones finish for up to
  // `grace`, then cancels the rest (waiters get status cancelled) and stops the workers (a stage
  // call in progress is asked to stop through its stop_token). Idempotent.
  shutdown_report shutdown(std::chrono::milliseconds grace);
  // Ends the grace period now (a second SIGTERM): a shutdown() waiting for running jobs cancels
  // them at once; a later shutdown() does not wait. Safe from any thread.
  void expire_grace();
  // Waits for the worker threads to exit (after shutdown). True when all exited within `limit`;
  // false means a prover call is stuck (the threads are then left to the process exit).
  bool join(std::chrono::milliseconds limit);

  partition_prover& prover() { return *prover_; }

 private:
  struct job;
  struct waiter;
  struct item_key {
    std::uint32_t prio;
    std::uint64_t seq;
    std::uint32_t partition;
    bool operator<(const item_key& o) const {
      if (prio != o.prio) return prio > o.prio;
      if (seq != o.seq) return seq < o.seq;
      return partition < o.partition;
    }
  };
  struct witness_item {
    std::shared_ptr<job> j;
  };
  struct device_item {
    std::shared_ptr<job> j;
    std::unique_ptr<witness_data> witness;
    reservation memory;
  };
  using delivery = std::pair<completion, job_result>;
  using deliveries = std::vector<delivery>;
  using lock_t = std::unique_lock<std::mutex>;

  void parse_loop(unsigned index);
  void witness_loop(unsigned index);
  void device_loop(unsigned index);
  void timer_loop();
  void timer_entry(unsigned);

  void finish(const std::shared_ptr<job>& j, job_status st, std::string msg, bytes proof, deliveries& out);
  void fail(const std::shared_ptr<job>& j, const error& e, deliveries& out);
  void drop_queued_items(const job& j);
  void gc_results(std::chrono::steady_clock::time_point now);
  void log(log_level lvl, const std::string& msg) const;
  static void deliver(deliveries& d);
  std::size_t witness_capacity() const;
  std::size_t device_capacity() const;
  std::string new_job_id();

  engine_options opts_;
  std::shared_ptr<partition_prover> prover_;
  std::shared_ptr<memory_budget> budget_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  const std::chrono::system_clock::time_point started_wall_ = std::chrono::system_clock::now();
  std::uint64_t wall_us(std::chrono::steady_clock::time_point t) const;
  void observe(const char* stage, proof_kind k, std::chrono::steady_clock::duration d);

  mutable std::mutex mu_;
  std::condition_variable parse_cv_, witness_cv_, device_cv_, timer_cv_, drain_cv_;
  bool accepting_ = true;
  bool stopping_ = false;
  bool shutdown_done_ = false;
  bool grace_expired_ = false;
  std::uint64_t next_seq_ = 1;
  std::uint64_t next_waiter_ = 1;
  std::uint64_t id_salt_;

  std::unordered_map<std::string, std::shared_ptr<job>> jobs_;  // by job id, finished ones retained
  std::deque<std::pair<std::chrono::steady_clock::time_point, std::shared_ptr<job>>> finished_;
  std::map<item_key, std::shared_ptr<job>> parse_q_;
  std::map<item_key, witness_item> witness_q_;
  std::map<item_key, device_item> device_q_;
  std::size_t synthesizing_ = 0;  // partitions inside synthesize()
  bool memory_blocked_ = false;   // the witness queue's head waits for host memory
  std::size_t planning_ = 0, proving_ = 0;
  std::uint32_t unfinished_ = 0, running_ = 0;

  std::unordered_map<waiter_id, std::unique_ptr<waiter>> waiters_;
  std::multimap<std::chrono::steady_clock::time_point, waiter_id> deadlines_;

  struct counters {
    std::uint64_t completed = 0, failed = 0, cancelled = 0;
  };
  std::map<proof_kind, counters> counters_;
  std::map<std::pair<std::string, proof_kind>, duration_histogram> histograms_;
  std::vector<status_snapshot::worker_info> workers_info_;

  std::vector<std::thread> threads_;
  std::mutex join_mu_;
  std::condition_variable join_cv_;
  std::size_t threads_running_ = 0;
  bool joined_ = false;
};

}  // namespace cuzk::engine
