// TEST DOUBLE. A partition_prover that proves nothing: it returns the bytes
// "TEST-DOUBLE:<request_id>:<partition>" so tests can drive the engine's scheduling, budgets,
// cancellation and lifecycle. Never link it into a shipped binary.
//
// Every job is planned as job_spec.test_circuit.partitions partitions (>= 1) of `host_bytes` each.
// Calls can be held at named points ("plan:<id>", "synth:<id>:<p>", "prove:<id>:<p>") until the
// test releases them; a held call returns early with errc::cancelled when its stop_token fires.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/prover.hpp"

namespace cuzk::test {

class test_double_prover final : public engine::partition_prover {
 public:
  std::uint64_t host_bytes = 0;                  // per partition
  std::chrono::milliseconds synth_delay{0}, prove_delay{0};
  std::set<std::string> fail_plan;               // request ids whose plan fails (invalid_argument)

  std::string name() const override { return "test-double"; }
  bool supports(engine::proof_kind) const override { return true; }

  // Hold calls at `point` until release(point).
  void hold(const std::string& point) {
    std::lock_guard l(mu_);
    held_.insert(point);
  }
  void release(const std::string& point) {
    std::lock_guard l(mu_);
    held_.erase(point);
    cv_.notify_all();
  }
  // Waits until a call has reached `point` (held or not). False after `limit`.
  bool wait_entered(const std::string& point, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    std::unique_lock l(mu_);
    return cv_.wait_for(l, limit, [&] { return entered_.count(point) > 0; });
  }
  std::vector<std::string> log() const {
    std::lock_guard l(mu_);
    return log_;
  }
  std::uint64_t max_in_flight_bytes() const {
    std::lock_guard l(mu_);
    return max_in_flight_;
  }
  bool saw_stop(const std::string& point) const {
    std::lock_guard l(mu_);
    return stopped_.count(point) > 0;
  }

  engine::result<engine::job_plan> plan(const engine::job_spec& job, std::stop_token stop) override {
    if (!pass("plan:" + job.request_id, stop)) return engine::error{engine::errc::cancelled, "stopped"};
    if (fail_plan.count(job.request_id)) {
      return engine::error{engine::errc::invalid_argument, "test double: garbled input for " + job.request_id};
    }
    engine::job_plan p;
    const std::uint32_t n = std::max(1u, job.test_circuit.partitions);
    for (std::uint32_t i = 0; i < n; ++i) p.partitions.push_back({i, host_bytes, nullptr});
    return p;
  }

  engine::result<std::unique_ptr<engine::witness_data>> synthesize(const engine::job_spec& job,
                                                                   const engine::job_plan&,
                                                                   const engine::partition_work& part,
                                                                   std::stop_token stop) override {
    {
      std::lock_guard l(mu_);
      in_flight_ += part.host_bytes;
      max_in_flight_ = std::max(max_in_flight_, in_flight_);
    }
    if (synth_delay.count()) std::this_thread::sleep_for(synth_delay);
    if (!pass("synth:" + job.request_id + ":" + std::to_string(part.index), stop)) {
      std::lock_guard l(mu_);
      in_flight_ -= part.host_bytes;
      return engine::error{engine::errc::cancelled, "stopped"};
    }
    return std::make_unique<engine::witness_data>();
  }

  engine::result<engine::partition_proof> prove(const engine::job_spec& job, const engine::job_plan&,
                                                const engine::partition_work& part,
                                                std::unique_ptr<engine::witness_data>,
                                                std::stop_token stop) override {
    if (prove_delay.count()) std::this_thread::sleep_for(prove_delay);
    const bool ok = pass("prove:" + job.request_id + ":" + std::to_string(part.index), stop);
    {
      std::lock_guard l(mu_);
      in_flight_ -= part.host_bytes;
    }
    if (!ok) return engine::error{engine::errc::cancelled, "stopped"};
    return engine::partition_proof{"TEST-DOUBLE:" + job.request_id + ":" + std::to_string(part.index) + ";", {}};
  }

  engine::result<engine::bytes> finalize(const engine::job_spec&, const engine::job_plan&,
                                         std::vector<engine::bytes> proofs, std::stop_token) override {
    engine::bytes out;
    for (auto& p : proofs) out += p;
    return out;
  }

 private:
  // Records the call and waits while `point` is held; false if stopped while held.
  bool pass(const std::string& point, std::stop_token stop) {
    std::unique_lock l(mu_);
    entered_.insert(point);
    log_.push_back(point);
    cv_.notify_all();
    while (held_.count(point)) {
      if (stop.stop_requested()) {
        stopped_.insert(point);
        return false;
      }
      cv_.wait_for(l, std::chrono::milliseconds(5));
    }
    return true;
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::set<std::string> held_, entered_, stopped_;
  std::vector<std::string> log_;
  std::uint64_t in_flight_ = 0, max_in_flight_ = 0;
};

}  // namespace cuzk::test
