#include "server/service.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

namespace cuzk::server {

namespace pb = cuzk::v1;
using engine::errc;
using engine::error;

namespace {

grpc::StatusCode to_grpc(errc c) {
  switch (c) {
    case errc::invalid_argument: return grpc::StatusCode::INVALID_ARGUMENT;
    case errc::unsupported: return grpc::StatusCode::UNIMPLEMENTED;
    case errc::not_found: return grpc::StatusCode::NOT_FOUND;
    case errc::already_exists: return grpc::StatusCode::ALREADY_EXISTS;
    case errc::resource_exhausted: return grpc::StatusCode::RESOURCE_EXHAUSTED;
    case errc::cancelled: return grpc::StatusCode::CANCELLED;
    case errc::unavailable: return grpc::StatusCode::UNAVAILABLE;
    case errc::internal: return grpc::StatusCode::INTERNAL;
    case errc::failed_precondition: return grpc::StatusCode::FAILED_PRECONDITION;
    case errc::data_loss: return grpc::StatusCode::DATA_LOSS;
  }
  return grpc::StatusCode::UNKNOWN;
}

grpc::Status to_status(const error& e) { return grpc::Status(to_grpc(e.code), e.message); }

grpc::ServerUnaryReactor* finish(grpc::CallbackServerContext* ctx, const grpc::Status& st) {
  auto* r = ctx->DefaultReactor();
  r->Finish(st);
  return r;
}

void fill(pb::AwaitProofResponse* out, engine::job_result r) {
  out->set_job_id(r.job_id);
  switch (r.status) {
    case engine::job_status::completed: out->set_status(pb::AwaitProofResponse::COMPLETED); break;
    case engine::job_status::failed: out->set_status(pb::AwaitProofResponse::FAILED); break;
    case engine::job_status::cancelled: out->set_status(pb::AwaitProofResponse::CANCELLED); break;
    case engine::job_status::timeout: out->set_status(pb::AwaitProofResponse::TIMEOUT); break;
  }
  out->set_proof(std::move(r.proof));
  out->set_error_message(r.error);
  auto ms = [](std::chrono::milliseconds d) { return static_cast<std::uint64_t>(d.count()); };
  out->set_queue_wait_ms(ms(r.timings.queue_wait));
  out->set_srs_load_ms(ms(r.timings.srs_load));
  out->set_synthesis_ms(ms(r.timings.synthesis));
  out->set_gpu_compute_ms(ms(r.timings.gpu_compute));
  out->set_total_ms(ms(r.timings.total));
  out->set_submitted_us(r.submitted_us);
  for (const auto& p : r.partitions) {
    auto* t = out->add_partitions();
    t->set_index(p.index);
    t->set_witness_worker(p.witness_worker);
    t->set_synth_start_us(p.synth_start_us);
    t->set_synth_end_us(p.synth_end_us);
    t->set_device_worker(p.device_worker);
    t->set_device_start_us(p.device_start_us);
    t->set_device_end_us(p.device_end_us);
  }
}

// A unary call that completes when the engine delivers a job result. Safe against the three-way
// race between the result, the client going away (OnCancel) and gRPC tearing the call down.
class await_reactor final : public grpc::ServerUnaryReactor {
 public:
  await_reactor(engine::engine& eng, pb::AwaitProofResponse* out) : eng_(eng), state_(std::make_shared<state>()) {
    state_->self = this;
    state_->out = out;
  }

  // Registers with the engine; on error finishes the call with it.
  void start(const std::string& job_id, std::chrono::milliseconds timeout) {
    // The callback may run (and finish the call, and so delete this) before await() returns:
    // from here on touch only locals.
    engine::engine& eng = eng_;
    std::shared_ptr<state> st = state_;
    std::weak_ptr<state> weak = st;
    auto w = eng.await(job_id, timeout, [weak](engine::job_result r) {
      auto s = weak.lock();
      if (!s) return;
      await_reactor* self = nullptr;
      {
        std::lock_guard lock(s->mu);
        if (s->finished || !s->self) return;
        s->finished = true;
        fill(s->out, std::move(r));
        self = s->self;
      }
      self->Finish(grpc::Status::OK);
    });
    if (!w) {
      finish_once(to_status(w.error()));  // no callback will come: `this` is alive
      return;
    }
    bool cancelled = false;
    {
      std::lock_guard lock(st->mu);
      st->waiter = w.value();
      cancelled = st->cancelled;
    }
    if (cancelled) eng.detach(w.value());
  }

  void finish_once(const grpc::Status& s) {
    {
      std::lock_guard lock(state_->mu);
      if (state_->finished) return;
      state_->finished = true;
    }
    Finish(s);
  }

  void OnCancel() override {
    std::optional<engine::waiter_id> w;
    {
      std::lock_guard lock(state_->mu);
      state_->cancelled = true;
      w = state_->waiter;
    }
    if (w) eng_.detach(*w);
    finish_once(grpc::Status(grpc::StatusCode::CANCELLED, "client cancelled the call"));
  }

  void OnDone() override {
    {
      std::lock_guard lock(state_->mu);
      state_->self = nullptr;
    }
    delete this;
  }

 private:
  struct state {
    std::mutex mu;
    await_reactor* self = nullptr;
    pb::AwaitProofResponse* out = nullptr;
    std::optional<engine::waiter_id> waiter;
    bool finished = false;
    bool cancelled = false;
  };
  engine::engine& eng_;
  std::shared_ptr<state> state_;
};

bool is_json_object(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r\n");
  std::size_t e = s.find_last_not_of(" \t\r\n");
  return b != std::string::npos && s[b] == '{' && s[e] == '}';
}

}  // namespace

engine::result<engine::job_spec> to_job_spec(pb::SubmitProofRequest& req) {
  using engine::proof_kind;
  auto bad = [](const std::string& m) { return error{errc::invalid_argument, m}; };
  engine::job_spec s;
  if (req.request_id().size() > 256) return bad("request_id is longer than 256 bytes");
  switch (req.proof_kind()) {
    case pb::PROOF_KIND_UNSPECIFIED: return bad("proof_kind is required (got PROOF_KIND_UNSPECIFIED)");
    case pb::POREP_SEAL_COMMIT: s.kind = proof_kind::porep_seal_commit; break;
    case pb::SNAP_DEALS_UPDATE: s.kind = proof_kind::snap_deals_update; break;
    case pb::WINDOW_POST_PARTITION: s.kind = proof_kind::window_post_partition; break;
    case pb::WINNING_POST: s.kind = proof_kind::winning_post; break;
    case pb::TEST_CIRCUIT: s.kind = proof_kind::test_circuit; break;
    default: return bad("unknown proof_kind " + std::to_string(static_cast<int>(req.proof_kind())));
  }
  const std::string kind(engine::to_string(s.kind));
  switch (req.priority()) {
    case pb::PRIORITY_UNSPECIFIED: s.prio = engine::default_priority(s.kind); break;
    case pb::LOW: s.prio = engine::priority::low; break;
    case pb::NORMAL: s.prio = engine::priority::normal; break;
    case pb::HIGH: s.prio = engine::priority::high; break;
    case pb::CRITICAL: s.prio = engine::priority::critical; break;
    default: return bad("unknown priority " + std::to_string(static_cast<int>(req.priority())));
  }
  if (req.sector_size() != 0) {
    static constexpr std::uint64_t sizes[] = {2ull << 10, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    bool known = false;
    for (auto z : sizes) known |= z == req.sector_size();
    if (!known) {
      return bad("sector_size " + std::to_string(req.sector_size()) +
                 " is not a Filecoin sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
    }
  }
  auto need32 = [&](const std::string& field, const std::string& v) -> std::optional<error> {
    if (v.size() != 32) {
      return bad(field + " must be 32 bytes for " + kind + " (got " + std::to_string(v.size()) + ")");
    }
    return std::nullopt;
  };
  auto need_vanilla_list = [&](const char* what) -> std::optional<error> {
    if (!req.vanilla_proof().empty()) {
      return bad("vanilla_proof must be empty for " + kind + " (" + what + " go in vanilla_proofs)");
    }
    if (req.vanilla_proofs().empty()) return bad("vanilla_proofs is empty: " + kind + " needs " + what);
    for (int i = 0; i < req.vanilla_proofs_size(); ++i) {
      if (req.vanilla_proofs(i).empty()) return bad("vanilla_proofs[" + std::to_string(i) + "] is empty");
    }
    return std::nullopt;
  };
  if (s.kind != proof_kind::test_circuit && req.has_test_circuit()) {
    return bad("test_circuit is only valid with proof_kind TEST_CIRCUIT");
  }
  std::optional<error> e;
  switch (s.kind) {
    case proof_kind::porep_seal_commit:
      if (req.vanilla_proof().empty()) {
        return bad("vanilla_proof is empty: porep-c2 needs the C1 output envelope "
                   "{\"SectorNum\", \"Phase1Out\", \"SectorSize\"}");
      }
      if (!req.vanilla_proofs().empty()) {
        return bad("vanilla_proofs must be empty for porep-c2 (the C1 output goes in vanilla_proof)");
      }
      if (!is_json_object(req.vanilla_proof()) || req.vanilla_proof().find("\"Phase1Out\"") == std::string::npos) {
        return bad("vanilla_proof is not a C1 output envelope: expected a JSON object with "
                   "\"SectorNum\", \"Phase1Out\" (base64 C1 JSON) and \"SectorSize\"");
      }
      break;
    case proof_kind::snap_deals_update:
      if ((e = need_vanilla_list("one bincode PartitionProof per partition"))) return *e;
      if ((e = need32("comm_r_old", req.comm_r_old())) || (e = need32("comm_r_new", req.comm_r_new())) ||
          (e = need32("comm_d_new", req.comm_d_new()))) {
        return *e;
      }
      break;
    case proof_kind::window_post_partition:
    case proof_kind::winning_post:
      if ((e = need_vanilla_list("one bincode FallbackPoStSectorProof per sector"))) return *e;
      if ((e = need32("randomness", req.randomness()))) return *e;
      break;
    case proof_kind::test_circuit: {
      if (!req.has_test_circuit()) return bad("test_circuit is required for proof_kind TEST_CIRCUIT");
      const auto& t = req.test_circuit();
      if (t.log2_constraints() < 1 || t.log2_constraints() > 30) {
        return bad("test_circuit.log2_constraints must be between 1 and 30");
      }
      if (t.partitions() < 1 || t.partitions() > 64) return bad("test_circuit.partitions must be between 1 and 64");
      s.test_circuit = {t.log2_constraints(), t.partitions(), t.seed()};
      break;
    }
  }
  s.request_id = req.request_id();
  s.sector_size = req.sector_size();
  s.registered_proof = req.registered_proof();
  s.vanilla_proof = std::move(*req.mutable_vanilla_proof());
  s.vanilla_proofs.reserve(static_cast<std::size_t>(req.vanilla_proofs_size()));
  for (auto& v : *req.mutable_vanilla_proofs()) s.vanilla_proofs.push_back(std::move(v));
  s.sector_number = req.sector_number();
  s.miner_id = req.miner_id();
  s.randomness = req.randomness();
  s.partition_index = req.partition_index();
  s.comm_r_old = req.comm_r_old();
  s.comm_r_new = req.comm_r_new();
  s.comm_d_new = req.comm_d_new();
  return s;
}

// The callback API hands requests as const; the message is ours for the call's duration and
// moving the (large) payload out instead of copying it is safe.
grpc::ServerUnaryReactor* proving_service::SubmitProof(grpc::CallbackServerContext* ctx,
                                                       const pb::SubmitProofRequest* req,
                                                       pb::SubmitProofResponse* resp) {
  auto spec = to_job_spec(*const_cast<pb::SubmitProofRequest*>(req));
  if (!spec) return finish(ctx, to_status(spec.error()));
  auto info = eng_.submit(std::move(spec.value()));
  if (!info) return finish(ctx, to_status(info.error()));
  resp->set_job_id(info->job_id);
  resp->set_queue_position(info->queue_position);
  resp->set_attached_to_existing(info->attached);
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* proving_service::AwaitProof(grpc::CallbackServerContext* ctx,
                                                      const pb::AwaitProofRequest* req,
                                                      pb::AwaitProofResponse* resp) {
  if (req->job_id().empty()) return finish(ctx, grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "job_id is required"));
  auto* r = new await_reactor(eng_, resp);
  r->start(req->job_id(), std::chrono::milliseconds(static_cast<std::int64_t>(
                              std::min<std::uint64_t>(req->timeout_ms(), 1ull << 40))));
  return r;
}

grpc::ServerUnaryReactor* proving_service::Prove(grpc::CallbackServerContext* ctx, const pb::ProveRequest* req,
                                                 pb::ProveResponse* resp) {
  if (!req->has_submit()) {
    return finish(ctx, grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "submit is required"));
  }
  auto spec = to_job_spec(*const_cast<pb::ProveRequest*>(req)->mutable_submit());
  if (!spec) return finish(ctx, to_status(spec.error()));
  auto info = eng_.submit(std::move(spec.value()), engine::submit_options{.cancel_when_orphaned = true});
  if (!info) return finish(ctx, to_status(info.error()));
  auto* r = new await_reactor(eng_, resp->mutable_result());
  r->start(info->job_id, std::chrono::milliseconds(0));
  return r;
}

grpc::ServerUnaryReactor* proving_service::CancelProof(grpc::CallbackServerContext* ctx,
                                                       const pb::CancelProofRequest* req,
                                                       pb::CancelProofResponse* resp) {
  if (req->job_id().empty()) return finish(ctx, grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "job_id is required"));
  auto c = eng_.cancel(req->job_id());
  resp->set_was_running(c.was_running);
  resp->set_found(c.found);
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* proving_service::GetStatus(grpc::CallbackServerContext* ctx, const pb::GetStatusRequest*,
                                                     pb::GetStatusResponse* resp) {
  const auto s = eng_.status();
  for (const auto& k : s.kinds) {
    if (!engine::is_filecoin(k.kind) && k.pending == 0 && k.in_progress == 0) continue;
    auto* q = resp->add_queues();
    q->set_proof_kind(std::string(engine::to_string(k.kind)));
    q->set_pending(k.pending);
    q->set_in_progress(k.in_progress);
  }
  resp->set_total_proofs_completed(s.completed);
  resp->set_total_proofs_failed(s.failed);
  resp->set_total_proofs_cancelled(s.cancelled);
  resp->set_uptime_seconds(static_cast<std::uint64_t>(s.uptime.count()));
  resp->set_shutting_down(!s.accepting);
  resp->set_version(info_.version);
  auto* m = resp->mutable_host_memory();
  m->set_total_bytes(s.budget_total);
  m->set_reserved_bytes(s.budget_reserved);
  m->set_waiting(s.budget_waiting);
  for (const auto& w : s.workers) {
    auto* o = resp->add_workers();
    o->set_stage(w.stage);
    o->set_index(w.index);
    o->set_busy(w.busy);
    if (w.busy) {
      o->set_job_id(w.job_id);
      o->set_proof_kind(std::string(engine::to_string(w.kind)));
      o->set_partition(w.partition);
    }
  }
  for (const auto& e : s.srs) {
    auto* o = resp->add_loaded_srs();
    o->set_circuit_id(e.circuit_id);
    o->set_tier(static_cast<pb::SRSStatus::Tier>(e.tier));
    o->set_size_bytes(e.tier == engine::srs_tier::hot ? e.hot_bytes : e.file_bytes);
    o->set_ref_count(e.refs);
    o->set_file_bytes(e.file_bytes);
    o->set_verified(e.verified);
    o->set_path(e.path);
  }
  std::uint64_t hot = 0;
  for (const auto& e : s.srs) hot += e.hot_bytes;
  resp->set_pinned_memory_bytes(hot);
  // GPUs: vram_total_bytes is what the device-memory arbiter hands out (the device's free memory
  // at startup minus a margin), vram_free_bytes what is not reserved now; current job = a busy worker's.
  for (const auto& g : s.gpus) {
    auto* o = resp->add_gpus();
    o->set_ordinal(g.ordinal);
    o->set_name(g.name);
    o->set_vram_total_bytes(g.memory_capacity);
    o->set_vram_free_bytes(g.memory_capacity - std::min(g.memory_capacity, g.memory_reserved));
    o->set_fault(g.fault);
    for (const auto& w : s.workers) {
      if (w.stage != "device" || !w.busy) continue;
      if (std::find(g.workers.begin(), g.workers.end(), w.index) == g.workers.end()) continue;
      o->set_current_job_id(w.job_id);
      o->set_current_proof_kind(std::string(engine::to_string(w.kind)));
      break;
    }
  }
  for (const auto& st : s.stages) {
    auto* o = resp->add_stages();
    o->set_stage(st.stage);
    o->set_queued(st.queued);
    o->set_capacity(st.capacity);
    o->set_running(st.running);
  }
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* proving_service::GetMetrics(grpc::CallbackServerContext* ctx, const pb::GetMetricsRequest*,
                                                      pb::GetMetricsResponse* resp) {
  resp->set_prometheus_text(prometheus_text(eng_.status()));
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* proving_service::PreloadSRS(grpc::CallbackServerContext* ctx,
                                                      const pb::PreloadSrsRequest* req, pb::PreloadSrsResponse* resp) {
  if (req->circuit_id().empty()) {
    return finish(ctx, grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "circuit_id is required"));
  }
  if (!srs_) return finish(ctx, grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "this daemon has no SRS manager"));
  if (!srs_->knows(req->circuit_id())) {
    return finish(ctx, grpc::Status(grpc::StatusCode::NOT_FOUND,
                                    "unknown circuit id \"" + req->circuit_id() +
                                        "\" (porep-32g, porep-64g, wpost-32g, wpost-64g, winning-32g, winning-64g, "
                                        "snap-32g, snap-64g, test-circuit-k<4..22>)"));
  }
  {
    std::lock_guard lock(bg_mu_);
    if (stop_.stop_requested()) {
      return finish(ctx, grpc::Status(grpc::StatusCode::UNAVAILABLE, "cuzk-daemon is shutting down"));
    }
    ++bg_running_;
  }
  auto* reactor = ctx->DefaultReactor();
  std::thread([this, reactor, resp, id = req->circuit_id(), stop = stop_.get_token()] {
    engine::srs_acquire_info info;
    auto h = srs_->acquire(id, stop, &info);
    grpc::Status st = grpc::Status::OK;
    if (!h) {
      st = to_status(h.error());
    } else {
      resp->set_already_loaded(info.already_hot);
      resp->set_load_time_ms(static_cast<std::uint64_t>(info.load_time.count()));
    }
    h = engine::srs_handle{};  // loaded and HOT; nobody references it now
    reactor->Finish(st);
    std::lock_guard lock(bg_mu_);
    --bg_running_;
    bg_cv_.notify_all();
  }).detach();
  return reactor;
}

bool proving_service::stop_background(std::chrono::milliseconds limit) {
  stop_.request_stop();
  std::unique_lock lock(bg_mu_);
  return bg_cv_.wait_for(lock, limit, [&] { return bg_running_ == 0; });
}

grpc::ServerUnaryReactor* proving_service::EvictSRS(grpc::CallbackServerContext* ctx, const pb::EvictSrsRequest* req,
                                                    pb::EvictSrsResponse* resp) {
  if (req->circuit_id().empty()) {
    return finish(ctx, grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "circuit_id is required"));
  }
  if (!srs_) return finish(ctx, grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "this daemon has no SRS manager"));
  auto r = srs_->evict(req->circuit_id());
  if (!r) return finish(ctx, to_status(r.error()));
  resp->set_was_loaded(r->was_loaded);
  resp->set_freed_bytes(r->freed_bytes);
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* proving_service::GetVersion(grpc::CallbackServerContext* ctx, const pb::GetVersionRequest*,
                                                      pb::GetVersionResponse* resp) {
  resp->set_version(info_.version);
  resp->set_backend(info_.backend);
  resp->set_prover(eng_.prover().name());
  for (auto k : engine::all_proof_kinds) {
    if (eng_.prover().supports(k)) resp->add_supported_kinds(static_cast<pb::ProofKind>(k));
  }
  return finish(ctx, grpc::Status::OK);
}

// --- text renderings ---------------------------------------------------------------------------

namespace {
// Device workers of `g` that are inside the device stage now.
unsigned busy_workers(const engine::status_snapshot& s, const engine::gpu_info& g) {
  unsigned busy = 0;
  for (const auto& w : s.workers) {
    if (w.stage != "device" || !w.busy) continue;
    if (std::find(g.workers.begin(), g.workers.end(), w.index) != g.workers.end()) ++busy;
  }
  return busy;
}

// One metric per GPU, labelled by its ordinal.
template <class Value>
void per_gpu(std::ostringstream& o, const engine::status_snapshot& s, const char* name, const char* type,
             const char* help, Value value) {
  o << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
  for (const auto& g : s.gpus) o << name << "{gpu=\"" << g.ordinal << "\"} " << value(g) << "\n";
}

void write_gpu_metrics(std::ostringstream& o, const engine::status_snapshot& s) {
  using info = engine::gpu_info;
  per_gpu(o, s, "cuzk_gpu_busy_seconds_total", "counter", "Time a GPU ran kernels (its kernel-region lock was held).",
          [](const info& g) { return g.busy_seconds; });
  per_gpu(o, s, "cuzk_gpu_kernel_regions_total", "counter", "Partitions whose device kernels finished on a GPU.",
          [](const info& g) { return g.kernel_regions; });
  per_gpu(o, s, "cuzk_gpu_memory_capacity_bytes", "gauge", "Device memory the GPU's arbiter hands out.",
          [](const info& g) { return g.memory_capacity; });
  per_gpu(o, s, "cuzk_gpu_memory_reserved_bytes", "gauge", "Device memory reserved now (SRS, shapes, buffers).",
          [](const info& g) { return g.memory_reserved; });
  per_gpu(o, s, "cuzk_gpu_memory_waiting", "gauge", "Reservations waiting for device memory.",
          [](const info& g) { return g.memory_waiting; });
  per_gpu(o, s, "cuzk_gpu_workers_busy", "gauge", "GPU workers inside the device stage.",
          [&s](const info& g) { return busy_workers(s, g); });
  per_gpu(o, s, "cuzk_gpu_faulted", "gauge",
          "1 after a sticky device fault: the GPU refuses work until the process restarts.",
          [](const info& g) { return g.fault.empty() ? 0 : 1; });
}
}  // namespace

health_answer health_of(const engine::status_snapshot& s) {
  if (!s.accepting) return {503, "shutting down\n"};
  for (const auto& g : s.gpus)
    if (!g.fault.empty())
      return {503, "gpu " + std::to_string(g.ordinal) + " faulted (" + g.fault + "); restart the daemon to reset it\n"};
  return {200, "ok\n"};
}

std::string prometheus_text(const engine::status_snapshot& s) {
  std::ostringstream o;
  o << "# HELP cuzk_proofs_total Finished proof jobs by kind and outcome.\n"
    << "# TYPE cuzk_proofs_total counter\n";
  for (const auto& k : s.kinds) {
    const auto l = engine::metric_label(k.kind);
    o << "cuzk_proofs_total{proof_kind=\"" << l << "\",status=\"completed\"} " << k.completed << "\n"
      << "cuzk_proofs_total{proof_kind=\"" << l << "\",status=\"failed\"} " << k.failed << "\n"
      << "cuzk_proofs_total{proof_kind=\"" << l << "\",status=\"cancelled\"} " << k.cancelled << "\n";
  }
  o << "# HELP cuzk_proofs_completed_total Completed proofs (Rust cuzk name).\n"
    << "# TYPE cuzk_proofs_completed_total counter\ncuzk_proofs_completed_total " << s.completed << "\n"
    << "# HELP cuzk_proofs_failed_total Failed proofs (Rust cuzk name).\n"
    << "# TYPE cuzk_proofs_failed_total counter\ncuzk_proofs_failed_total " << s.failed << "\n"
    << "# HELP cuzk_jobs Unfinished jobs by kind and state.\n# TYPE cuzk_jobs gauge\n";
  for (const auto& k : s.kinds) {
    const auto l = engine::metric_label(k.kind);
    o << "cuzk_jobs{proof_kind=\"" << l << "\",state=\"pending\"} " << k.pending << "\n"
      << "cuzk_jobs{proof_kind=\"" << l << "\",state=\"in_progress\"} " << k.in_progress << "\n";
  }
  o << "# HELP cuzk_stage_queued Items waiting in a pipeline stage queue.\n# TYPE cuzk_stage_queued gauge\n";
  for (const auto& st : s.stages) o << "cuzk_stage_queued{stage=\"" << st.stage << "\"} " << st.queued << "\n";
  o << "# HELP cuzk_stage_running Items inside a pipeline stage.\n# TYPE cuzk_stage_running gauge\n";
  for (const auto& st : s.stages) o << "cuzk_stage_running{stage=\"" << st.stage << "\"} " << st.running << "\n";
  o << "# HELP cuzk_host_memory_budget_bytes Host memory budget.\n# TYPE cuzk_host_memory_budget_bytes gauge\n"
    << "cuzk_host_memory_budget_bytes " << s.budget_total << "\n"
    << "# HELP cuzk_host_memory_reserved_bytes Host memory reserved by stages.\n"
    << "# TYPE cuzk_host_memory_reserved_bytes gauge\ncuzk_host_memory_reserved_bytes " << s.budget_reserved << "\n"
    << "# HELP cuzk_host_memory_waiting Reservations waiting for host memory.\n"
    << "# TYPE cuzk_host_memory_waiting gauge\ncuzk_host_memory_waiting " << s.budget_waiting << "\n"
    << "# HELP cuzk_stage_capacity Bound of a pipeline stage queue.\n# TYPE cuzk_stage_capacity gauge\n";
  for (const auto& st : s.stages) o << "cuzk_stage_capacity{stage=\"" << st.stage << "\"} " << st.capacity << "\n";
  o << "# HELP cuzk_stage_duration_seconds Time spent per stage call (queue: submit to parse start; job: submit "
       "to result, completed jobs).\n# TYPE cuzk_stage_duration_seconds histogram\n";
  for (const auto& h : s.histograms) {
    const std::string labels =
        "stage=\"" + h.stage + "\",proof_kind=\"" + std::string(engine::metric_label(h.kind)) + "\"";
    const auto& b = engine::duration_histogram::bounds;
    for (std::size_t i = 0; i < b.size(); ++i) {
      o << "cuzk_stage_duration_seconds_bucket{" << labels << ",le=\"" << b[i] << "\"} " << h.h.cumulative(i) << "\n";
    }
    o << "cuzk_stage_duration_seconds_bucket{" << labels << ",le=\"+Inf\"} " << h.h.count << "\n"
      << "cuzk_stage_duration_seconds_sum{" << labels << "} " << h.h.sum << "\n"
      << "cuzk_stage_duration_seconds_count{" << labels << "} " << h.h.count << "\n";
  }
  o << "# HELP cuzk_srs_bytes Parameter files known to the SRS manager: host bytes while hot, else file bytes.\n"
    << "# TYPE cuzk_srs_bytes gauge\n";
  for (const auto& e : s.srs) {
    o << "cuzk_srs_bytes{circuit_id=\"" << e.circuit_id << "\",tier=\"" << engine::to_string(e.tier) << "\"} "
      << (e.tier == engine::srs_tier::hot ? e.hot_bytes : e.file_bytes) << "\n";
  }
  o << "# HELP cuzk_srs_refs Running partitions referencing a parameter set.\n# TYPE cuzk_srs_refs gauge\n";
  for (const auto& e : s.srs) o << "cuzk_srs_refs{circuit_id=\"" << e.circuit_id << "\"} " << e.refs << "\n";
  if (!s.gpus.empty()) write_gpu_metrics(o, s);
  o << "# HELP cuzk_uptime_seconds Seconds since the daemon started.\n# TYPE cuzk_uptime_seconds gauge\n"
    << "cuzk_uptime_seconds " << s.uptime.count() << "\n";
  return o.str();
}

namespace {
std::string json_str(std::string_view v) {
  std::string out = "\"";
  for (unsigned char c : v) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          static constexpr char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}
}  // namespace

std::string status_json(const engine::status_snapshot& s, const service_info& info) {
  std::ostringstream o;
  o << "{\"version\":" << json_str(info.version) << ",\"backend\":" << json_str(info.backend)
    << ",\"prover\":" << json_str(s.prover) << ",\"uptime_secs\":" << s.uptime.count()
    << ",\"accepting\":" << (s.accepting ? "true" : "false") << ",\"memory\":{\"total_bytes\":" << s.budget_total
    << ",\"reserved_bytes\":" << s.budget_reserved << ",\"waiting\":" << s.budget_waiting << "}"
    << ",\"counters\":{\"completed\":" << s.completed << ",\"failed\":" << s.failed
    << ",\"cancelled\":" << s.cancelled << ",\"unfinished\":" << s.unfinished_jobs
    << ",\"retained_results\":" << s.retained_results << "},\"kinds\":[";
  for (std::size_t i = 0; i < s.kinds.size(); ++i) {
    const auto& k = s.kinds[i];
    o << (i ? "," : "") << "{\"proof_kind\":" << json_str(engine::to_string(k.kind)) << ",\"pending\":" << k.pending
      << ",\"in_progress\":" << k.in_progress << ",\"completed\":" << k.completed << ",\"failed\":" << k.failed
      << ",\"cancelled\":" << k.cancelled << "}";
  }
  o << "],\"stages\":[";
  for (std::size_t i = 0; i < s.stages.size(); ++i) {
    const auto& st = s.stages[i];
    o << (i ? "," : "") << "{\"stage\":" << json_str(st.stage) << ",\"queued\":" << st.queued
      << ",\"capacity\":" << st.capacity << ",\"running\":" << st.running << "}";
  }
  o << "],\"workers\":[";
  for (std::size_t i = 0; i < s.workers.size(); ++i) {
    const auto& w = s.workers[i];
    o << (i ? "," : "") << "{\"stage\":" << json_str(w.stage) << ",\"index\":" << w.index
      << ",\"busy\":" << (w.busy ? "true" : "false");
    if (w.busy) {
      o << ",\"job_id\":" << json_str(w.job_id) << ",\"proof_kind\":" << json_str(engine::to_string(w.kind))
        << ",\"partition\":" << w.partition;
    }
    o << "}";
  }
  o << "],\"gpus\":[";
  for (std::size_t i = 0; i < s.gpus.size(); ++i) {
    const auto& g = s.gpus[i];
    o << (i ? "," : "") << "{\"ordinal\":" << g.ordinal << ",\"name\":" << json_str(g.name)
      << ",\"memory_capacity_bytes\":" << g.memory_capacity << ",\"memory_reserved_bytes\":" << g.memory_reserved
      << ",\"memory_waiting\":" << g.memory_waiting << ",\"busy_seconds\":" << g.busy_seconds
      << ",\"kernel_regions\":" << g.kernel_regions;
    if (!g.fault.empty()) o << ",\"fault\":" << json_str(g.fault);
    o << ",\"workers\":[";
    for (std::size_t k = 0; k < g.workers.size(); ++k) {
      bool busy = false;
      std::string job;
      for (const auto& w : s.workers) {
        if (w.stage == "device" && w.index == g.workers[k]) {
          busy = w.busy;
          job = w.job_id;
        }
      }
      o << (k ? "," : "") << "{\"device_worker\":" << g.workers[k] << ",\"busy\":" << (busy ? "true" : "false");
      if (busy) o << ",\"job_id\":" << json_str(job);
      o << "}";
    }
    o << "]}";
  }
  o << "],\"srs\":[";
  for (std::size_t i = 0; i < s.srs.size(); ++i) {
    const auto& e = s.srs[i];
    o << (i ? "," : "") << "{\"circuit_id\":" << json_str(e.circuit_id) << ",\"tier\":" << json_str(engine::to_string(e.tier))
      << ",\"path\":" << json_str(e.path) << ",\"file_bytes\":" << e.file_bytes << ",\"hot_bytes\":" << e.hot_bytes
      << ",\"refs\":" << e.refs << ",\"verified\":" << (e.verified ? "true" : "false") << ",\"loads\":" << e.loads
      << ",\"idle_ms\":" << e.idle.count() << "}";
  }
  o << "]}";
  return o.str();
}

}  // namespace cuzk::server
