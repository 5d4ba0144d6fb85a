#include "engine/engine.hpp"

#include <algorithm>
#include <cstdio>
#include <future>
#include <random>
#include <stop_token>

#include "engine/units.hpp"

namespace cuzk::engine {

using clock = std::chrono::steady_clock;
using std::chrono::duration_cast;
using std::chrono::milliseconds;

namespace {
milliseconds ms_since(clock::time_point t, clock::time_point now = clock::now()) {
  return duration_cast<milliseconds>(now - t);
}
// The engine device worker index of this thread (set once by device_loop), -1 elsewhere.
thread_local int this_thread_device_worker = -1;
}  // namespace

int current_device_worker() { return this_thread_device_worker; }

enum class phase { queued, running, done };

struct engine::job {
  std::string id;
  std::uint64_t seq = 0;
  job_spec spec;
  phase ph = phase::queued;
  std::stop_source stop;
  clock::time_point submitted = clock::now();
  std::shared_ptr<const job_plan> plan;  // shared: stage calls keep it alive past finish()
  std::uint64_t payload = 0;              // spec.payload_bytes() at submit (identity check)
  std::vector<bytes> proofs;  // by partition index
  std::vector<partition_timing> part_times;  // by partition index
  std::size_t partitions_done = 0;
  job_timings timings;
  std::optional<job_result> result;
  std::set<waiter_id> waiters;
  bool cancel_when_orphaned = false;

  item_key key(std::uint32_t partition = 0) const {
    return {static_cast<std::uint32_t>(spec.prio), seq, partition};
  }
};

struct engine::waiter {
  std::shared_ptr<job> j;
  completion done;
  std::optional<clock::time_point> deadline;
  milliseconds timeout{0};
};

engine::engine(engine_options opts, std::shared_ptr<partition_prover> prover)
    : opts_(std::move(opts)),
      prover_(std::move(prover)),
      budget_(opts_.budget ? opts_.budget : std::make_shared<memory_budget>(opts_.host_memory_bytes)) {
  opts_.parse_workers = std::max(1u, opts_.parse_workers);
  opts_.witness_workers = std::max(1u, opts_.witness_workers);
  opts_.device_workers = std::max(1u, opts_.device_workers);
  id_salt_ = std::random_device{}();
  id_salt_ = (id_salt_ << 32) ^ std::random_device{}();
  // Memory released by someone else sharing the budget: let blocked witness workers retry.
  budget_->set_release_listener([this] { witness_cv_.notify_all(); });

  // All worker records exist before any thread starts (threads keep references to theirs).
  const std::pair<const char*, unsigned> stages[] = {
      {"parse", opts_.parse_workers}, {"witness", opts_.witness_workers}, {"device", opts_.device_workers}};
  for (const auto& [stage, n] : stages) {
    for (unsigned i = 0; i < n; ++i) {
      status_snapshot::worker_info w;
      w.stage = stage;
      w.index = i;
      workers_info_.push_back(w);
    }
  }
  threads_running_ = opts_.parse_workers + opts_.witness_workers + opts_.device_workers + 1;
  auto start = [this](void (engine::*loop)(unsigned), unsigned i) {
    threads_.emplace_back([this, loop, i] {
      (this->*loop)(i);
      std::lock_guard jl(join_mu_);
      --threads_running_;
      join_cv_.notify_all();
    });
  };
  for (unsigned i = 0; i < opts_.parse_workers; ++i) start(&engine::parse_loop, i);
  for (unsigned i = 0; i < opts_.witness_workers; ++i) start(&engine::witness_loop, i);
  for (unsigned i = 0; i < opts_.device_workers; ++i) start(&engine::device_loop, i);
  start(&engine::timer_entry, 0);
}

engine::~engine() {
  shutdown(milliseconds(0));
  while (!join(std::chrono::hours(1))) {
  }
  budget_->set_release_listener({});
}

std::uint64_t engine::wall_us(clock::time_point t) const {
  const auto since = std::chrono::duration_cast<std::chrono::microseconds>(t - started_);
  const auto epoch = std::chrono::duration_cast<std::chrono::microseconds>(started_wall_.time_since_epoch());
  return static_cast<std::uint64_t>((epoch + since).count());
}

void engine::observe(const char* stage, proof_kind k, clock::duration d) {
  histograms_[{stage, k}].observe(std::chrono::duration<double>(d).count());
}

void engine::timer_entry(unsigned) { timer_loop(); }

std::size_t engine::witness_capacity() const {
  return opts_.witness_queue_capacity ? opts_.witness_queue_capacity : 4 * opts_.witness_workers;
}
std::size_t engine::device_capacity() const {
  return opts_.device_queue_capacity ? opts_.device_queue_capacity : 2 * opts_.device_workers;
}

void engine::log(log_level lvl, const std::string& msg) const {
  if (opts_.log) opts_.log(lvl, msg);
}

void engine::deliver(deliveries& d) {
  for (auto& [done, res] : d) {
    if (done) done(std::move(res));
  }
  d.clear();
}

std::string engine::new_job_id() {
  static constexpr char hex[] = "0123456789abcdef";
  std::uint64_t x = id_salt_ ^ (next_seq_ * 0x9e3779b97f4a7c15ull);
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 29;
  std::string id = "job-" + std::to_string(next_seq_) + "-";
  for (int i = 0; i < 12; ++i) id += hex[(x >> (4 * i)) & 15];
  return id;
}

// --- submit / await / cancel -----------------------------------------------------------------

result<submit_info> engine::submit(job_spec spec, submit_options sopts) {
  if (static_cast<std::uint32_t>(spec.prio) < 1 || static_cast<std::uint32_t>(spec.prio) > 4) {
    return error{errc::invalid_argument, "invalid priority"};
  }
  lock_t lock(mu_);
  if (!accepting_) {
    return error{errc::unavailable, "cuzk-daemon is shutting down and accepts no new proofs"};
  }
  gc_results(clock::now());
  if (!spec.request_id.empty()) {
    auto it = jobs_.find(spec.request_id);
    if (it != jobs_.end()) {
      auto& old = it->second;
      if (old->spec.kind != spec.kind || old->payload != spec.payload_bytes()) {
        return error{errc::already_exists,
                     "request_id \"" + spec.request_id + "\" is already used by a " +
                         std::string(to_string(old->spec.kind)) + " job with " + std::to_string(old->payload) +
                         " bytes of input; this request is a " + std::string(to_string(spec.kind)) +
                         " job with " + std::to_string(spec.payload_bytes())};
      }
      const bool retry = old->ph == phase::done && old->result->status != job_status::completed;
      if (!retry) {
        std::uint32_t pos = 0;
        if (old->ph == phase::queued) {
          pos = static_cast<std::uint32_t>(std::distance(parse_q_.begin(), parse_q_.find(old->key())));
        }
        return submit_info{old->id, pos, true};
      }
      // A failed or cancelled attempt: start a new one under the same id.
    }
  }
  if (unfinished_ >= opts_.max_unfinished_jobs) {
    return error{errc::resource_exhausted, "too many unfinished jobs (" + std::to_string(unfinished_) +
                                               "); try again later"};
  }
  auto j = std::make_shared<job>();
  j->seq = next_seq_;
  j->id = spec.request_id.empty() ? new_job_id() : spec.request_id;
  ++next_seq_;
  j->payload = spec.payload_bytes();
  j->spec = std::move(spec);
  j->cancel_when_orphaned = sopts.cancel_when_orphaned;
  jobs_[j->id] = j;
  auto [pos_it, inserted] = parse_q_.emplace(j->key(), j);
  (void)inserted;
  ++unfinished_;
  const auto pos = static_cast<std::uint32_t>(std::distance(parse_q_.begin(), pos_it));
  log(log_level::debug, "job " + j->id + " (" + std::string(to_string(j->spec.kind)) + ", " +
                            std::string(to_string(j->spec.prio)) + ") queued at " + std::to_string(pos));
  parse_cv_.notify_one();
  return submit_info{j->id, pos, false};
}

result<waiter_id> engine::await(std::string_view job_id, milliseconds timeout, completion done) {
  lock_t lock(mu_);
  auto it = jobs_.find(std::string(job_id));
  if (it == jobs_.end()) {
    return error{errc::not_found, "job not found: " + std::string(job_id)};
  }
  auto j = it->second;
  const waiter_id id = next_waiter_++;
  if (j->ph == phase::done) {
    job_result r = *j->result;
    lock.unlock();
    done(std::move(r));
    return id;
  }
  auto w = std::make_unique<waiter>();
  w->j = j;
  w->done = std::move(done);
  w->timeout = timeout;
  if (timeout.count() > 0) {
    w->deadline = clock::now() + timeout;
    deadlines_.emplace(*w->deadline, id);
    timer_cv_.notify_one();
  }
  j->waiters.insert(id);
  waiters_.emplace(id, std::move(w));
  return id;
}

void engine::detach(waiter_id id) {
  deliveries out;
  {
    lock_t lock(mu_);
    auto it = waiters_.find(id);
    if (it == waiters_.end()) return;
    auto j = it->second->j;
    if (it->second->deadline) {
      auto [b, e] = deadlines_.equal_range(*it->second->deadline);
      for (auto d = b; d != e; ++d) {
        if (d->second == id) {
          deadlines_.erase(d);
          break;
        }
      }
    }
    waiters_.erase(it);
    j->waiters.erase(id);
    if (j->cancel_when_orphaned && j->waiters.empty() && j->ph != phase::done) {
      log(log_level::info, "job " + j->id + ": its Prove caller went away; cancelling");
      finish(j, job_status::cancelled, "cancelled: the client that submitted it went away", {}, out);
    }
  }
  deliver(out);
}

result<job_result> engine::await_blocking(std::string_view job_id, milliseconds timeout) {
  auto p = std::make_shared<std::promise<job_result>>();
  auto f = p->get_future();
  auto w = await(job_id, timeout, [p](job_result r) { p->set_value(std::move(r)); });
  if (!w) return w.error();
  return f.get();
}

cancel_info engine::cancel(std::string_view job_id, std::string reason) {
  deliveries out;
  cancel_info info;
  {
    lock_t lock(mu_);
    auto it = jobs_.find(std::string(job_id));
    if (it == jobs_.end() || it->second->ph == phase::done) return info;
    auto j = it->second;
    info.found = true;
    info.was_running = j->ph == phase::running;
    log(log_level::info, "job " + j->id + " cancelled (" + reason + ")");
    finish(j, job_status::cancelled, std::move(reason), {}, out);
  }
  deliver(out);
  return info;
}

// --- bookkeeping -----------------------------------------------------------------------------

void engine::drop_queued_items(const job& j) {
  auto drop = [&](auto& q) {
    for (auto it = q.begin(); it != q.end();) {
      if (it->first.seq == j.seq) it = q.erase(it);
      else ++it;
    }
  };
  drop(parse_q_);
  drop(witness_q_);
  const auto before = device_q_.size();
  drop(device_q_);  // releases their memory reservations
  if (device_q_.size() != before) witness_cv_.notify_all();
}

void engine::finish(const std::shared_ptr<job>& j, job_status st, std::string msg, bytes proof,
                    deliveries& out) {
  if (j->ph == phase::done) return;
  const auto now = clock::now();
  if (j->ph == phase::running) --running_;
  --unfinished_;
  j->ph = phase::done;
  j->stop.request_stop();
  drop_queued_items(*j);
  j->plan.reset();  // parsed inputs can be large; the result is what we keep
  j->proofs.clear();
  j->timings.total = ms_since(j->submitted, now);
  if (st != job_status::completed) j->timings = job_timings{};  // as the Rust cuzk: 0 unless completed
  job_result r;
  r.job_id = j->id;
  r.status = st;
  r.proof = std::move(proof);
  r.error = std::move(msg);
  r.timings = j->timings;
  if (st == job_status::completed) {
    observe("job", j->spec.kind, now - j->submitted);
    r.submitted_us = wall_us(j->submitted);
    r.partitions = std::move(j->part_times);
  }
  j->part_times.clear();
  j->result = r;
  j->spec.vanilla_proof.clear();
  j->spec.vanilla_proof.shrink_to_fit();
  j->spec.vanilla_proofs.clear();
  j->spec.vanilla_proofs.shrink_to_fit();
  auto& c = counters_[j->spec.kind];
  if (st == job_status::completed) ++c.completed;
  else if (st == job_status::failed) ++c.failed;
  else ++c.cancelled;
  for (auto id : j->waiters) {
    auto it = waiters_.find(id);
    if (it == waiters_.end()) continue;
    out.emplace_back(std::move(it->second->done), r);
    waiters_.erase(it);
  }
  j->waiters.clear();
  for (auto it = deadlines_.begin(); it != deadlines_.end();) {
    if (!waiters_.count(it->second)) it = deadlines_.erase(it);
    else ++it;
  }
  finished_.emplace_back(now, j);
  drain_cv_.notify_all();
  timer_cv_.notify_one();
}

void engine::fail(const std::shared_ptr<job>& j, const error& e, deliveries& out) {
  log(log_level::warn, "job " + j->id + " (" + std::string(to_string(j->spec.kind)) + ") failed: " + e.message);
  finish(j, job_status::failed, e.message, {}, out);
}

void engine::gc_results(clock::time_point now) {
  while (!finished_.empty() && (now - finished_.front().first >= opts_.result_retention ||
                                finished_.size() > opts_.max_retained_results)) {
    auto j = std::move(finished_.front().second);
    finished_.pop_front();
    auto it = jobs_.find(j->id);
    if (it != jobs_.end() && it->second == j) jobs_.erase(it);
  }
}

// --- stages ----------------------------------------------------------------------------------

void engine::parse_loop(unsigned index) {
  auto& me = workers_info_[index];
  lock_t lock(mu_);
  for (;;) {
    parse_cv_.wait(lock, [&] {
      return stopping_ || (!parse_q_.empty() && witness_q_.size() < witness_capacity());
    });
    if (stopping_) break;
    auto j = parse_q_.begin()->second;
    parse_q_.erase(parse_q_.begin());
    j->ph = phase::running;
    ++running_;
    const auto start = clock::now();
    j->timings.queue_wait = ms_since(j->submitted, start);
    observe("queue", j->spec.kind, start - j->submitted);
    me.busy = true;
    me.job_id = j->id;
    me.kind = j->spec.kind;
    me.partition = 0;
    ++planning_;
    lock.unlock();
    auto plan = prover_->plan(j->spec, j->stop.get_token());
    deliveries out;
    lock.lock();
    observe("parse", j->spec.kind, clock::now() - start);
    --planning_;
    me.busy = false;
    if (j->ph != phase::done) {
      if (!plan) {
        fail(j, plan.error(), out);
      } else if (plan->partitions.empty()) {
        fail(j, error{errc::internal, "prover planned no partitions"}, out);
      } else {
        auto& parts = plan->partitions;
        std::sort(parts.begin(), parts.end(),
                  [](const partition_work& a, const partition_work& b) { return a.index < b.index; });
        std::optional<error> bad;
        for (std::size_t i = 0; i < parts.size() && !bad; ++i) {
          if (parts[i].index != i) {
            bad = error{errc::internal, "prover planned partition indices that are not 0..n-1"};
          } else if (parts[i].host_bytes > budget_->total()) {
            bad = error{errc::resource_exhausted,
                        "partition " + std::to_string(i) + " of this " +
                            std::string(to_string(j->spec.kind)) + " job needs " +
                            format_size(parts[i].host_bytes) +
                            " of host memory but the whole budget is " + format_size(budget_->total()) +
                            " ([memory] total_budget); it can never run"};
          }
        }
        if (bad) {
          fail(j, *bad, out);
        } else {
          j->proofs.resize(parts.size());
          j->part_times.resize(parts.size());
          for (const auto& p : parts) witness_q_.emplace(j->key(p.index), witness_item{j});
          j->plan = std::make_shared<const job_plan>(std::move(plan.value()));
          witness_cv_.notify_all();
        }
      }
    }
    if (!out.empty()) {
      lock.unlock();
      deliver(out);
      lock.lock();
    }
  }
}

void engine::witness_loop(unsigned index) {
  auto& me = workers_info_[opts_.parse_workers + index];
  lock_t lock(mu_);
  for (;;) {
    reservation mem;
    std::map<item_key, witness_item>::iterator top;
    // Take the most urgent partition once the device queue has room and its memory fits. Memory
    // released by other budget users is signalled without our lock, hence the periodic re-check.
    for (;;) {
      if (stopping_) return;
      if (!witness_q_.empty() && device_q_.size() + synthesizing_ < device_capacity()) {
        top = witness_q_.begin();
        const auto& part = top->second.j->plan->partitions[top->first.partition];
        mem = budget_->try_reserve(part.host_bytes, top->first.prio);
        memory_blocked_ = !mem;
        if (mem) break;
      }
      witness_cv_.wait_for(lock, milliseconds(100));
    }
    auto j = top->second.j;
    const auto key = top->first;
    witness_q_.erase(top);
    parse_cv_.notify_all();  // the witness queue has room again
    ++synthesizing_;
    me.busy = true;
    me.job_id = j->id;
    me.kind = j->spec.kind;
    me.partition = key.partition;
    const auto plan = j->plan;
    const auto& part = plan->partitions[key.partition];
    lock.unlock();
    result<std::unique_ptr<witness_data>> w = error{errc::cancelled, "cancelled"};
    const auto start = clock::now();
    if (!j->stop.stop_requested()) w = prover_->synthesize(j->spec, *plan, part, j->stop.get_token());
    const auto end = clock::now();
    const auto took = ms_since(start, end);
    deliveries out;
    lock.lock();
    --synthesizing_;
    me.busy = false;
    if (w) observe("witness", j->spec.kind, end - start);
    if (j->ph != phase::done) {
      if (!w) {
        fail(j, w.error(), out);
      } else {
        j->timings.synthesis += took;
        auto& pt = j->part_times[key.partition];
        pt.index = key.partition;
        pt.witness_worker = index;
        pt.synth_start_us = wall_us(start);
        pt.synth_end_us = wall_us(end);
        device_q_.emplace(key, device_item{j, std::move(w.value()), std::move(mem)});
        device_cv_.notify_one();
      }
    }
    if (mem) {
      mem.release();
      witness_cv_.notify_all();
    }
    if (!out.empty()) {
      lock.unlock();
      deliver(out);
      lock.lock();
    }
  }
}

void engine::device_loop(unsigned index) {
  auto& me = workers_info_[opts_.parse_workers + opts_.witness_workers + index];
  this_thread_device_worker = static_cast<int>(index);
  lock_t lock(mu_);
  for (;;) {
    device_cv_.wait(lock, [&] { return stopping_ || !device_q_.empty(); });
    if (stopping_) break;
    auto node = device_q_.extract(device_q_.begin());
    witness_cv_.notify_all();  // device queue has room
    auto& item = node.mapped();
    auto j = item.j;
    const auto key = node.key();
    ++proving_;
    me.busy = true;
    me.job_id = j->id;
    me.kind = j->spec.kind;
    me.partition = key.partition;
    const auto plan = j->plan;
    const auto& part = plan->partitions[key.partition];
    lock.unlock();
    result<partition_proof> proof = error{errc::cancelled, "cancelled"};
    const auto start = clock::now();
    if (!j->stop.stop_requested()) {
      proof = prover_->prove(j->spec, *plan, part, std::move(item.witness), j->stop.get_token());
    }
    const auto end = clock::now();
    const auto took = ms_since(start, end);
    item.memory.release();
    deliveries out;
    lock.lock();
    witness_cv_.notify_all();  // memory released
    --proving_;
    if (proof) {
      observe("device", j->spec.kind, end - start);
      observe("srs_load", j->spec.kind, proof->srs_load);
    }
    bool finalize = false;
    if (j->ph != phase::done) {
      if (!proof) {
        fail(j, proof.error(), out);
      } else {
        j->timings.gpu_compute += took;
        j->timings.srs_load += proof->srs_load;
        auto& pt = j->part_times[key.partition];
        pt.device_worker = index;
        pt.device_start_us = wall_us(start);
        pt.device_end_us = wall_us(end);
        j->proofs[key.partition] = std::move(proof->proof);
        finalize = ++j->partitions_done == j->proofs.size();
      }
    }
    if (finalize) {
      auto proofs = std::move(j->proofs);
      lock.unlock();
      const auto fin0 = clock::now();
      auto joined = prover_->finalize(j->spec, *plan, std::move(proofs), j->stop.get_token());
      lock.lock();
      if (joined) observe("finalize", j->spec.kind, clock::now() - fin0);
      if (j->ph != phase::done) {
        if (!joined) {
          fail(j, joined.error(), out);
        } else {
          log(log_level::info, "job " + j->id + " (" + std::string(to_string(j->spec.kind)) +
                                   ") completed in " + std::to_string(ms_since(j->submitted).count()) + " ms");
          finish(j, job_status::completed, {}, std::move(joined.value()), out);
        }
      }
    }
    me.busy = false;
    if (!out.empty()) {
      lock.unlock();
      deliver(out);
      lock.lock();
    }
  }
}

void engine::timer_loop() {
  lock_t lock(mu_);
  for (;;) {
    if (stopping_ && deadlines_.empty()) break;
    auto wake = clock::now() + std::chrono::seconds(1);
    if (!deadlines_.empty()) wake = std::min(wake, deadlines_.begin()->first);
    timer_cv_.wait_until(lock, wake);
    const auto now = clock::now();
    gc_results(now);
    deliveries out;
    while (!deadlines_.empty() && deadlines_.begin()->first <= now) {
      const waiter_id id = deadlines_.begin()->second;
      deadlines_.erase(deadlines_.begin());
      auto it = waiters_.find(id);
      if (it == waiters_.end()) continue;
      auto& w = *it->second;
      job_result r;
      r.job_id = w.j->id;
      r.status = job_status::timeout;
      r.error = "job " + w.j->id + " did not finish within " + std::to_string(w.timeout.count()) +
                " ms; it keeps running (await it again or cancel it)";
      w.j->waiters.erase(id);
      out.emplace_back(std::move(w.done), std::move(r));
      waiters_.erase(it);
    }
    if (!out.empty()) {
      lock.unlock();
      deliver(out);
      lock.lock();
    }
  }
}

// --- status / shutdown -----------------------------------------------------------------------

status_snapshot engine::status() const {
  lock_t lock(mu_);
  status_snapshot s;
  std::map<proof_kind, status_snapshot::kind_counts> by_kind;
  for (auto k : all_proof_kinds) by_kind[k].kind = k;
  for (const auto& [id, j] : jobs_) {
    if (j->ph == phase::queued) ++by_kind[j->spec.kind].pending;
    else if (j->ph == phase::running) ++by_kind[j->spec.kind].in_progress;
  }
  for (const auto& [k, c] : counters_) {
    by_kind[k].completed = c.completed;
    by_kind[k].failed = c.failed;
    by_kind[k].cancelled = c.cancelled;
    s.completed += c.completed;
    s.failed += c.failed;
    s.cancelled += c.cancelled;
  }
  for (auto k : all_proof_kinds) s.kinds.push_back(by_kind[k]);
  auto u32 = [](std::size_t n) { return static_cast<std::uint32_t>(n); };
  s.stages.push_back({"parse", u32(parse_q_.size()), u32(opts_.max_unfinished_jobs), u32(planning_)});
  s.stages.push_back({"witness", u32(witness_q_.size()), u32(witness_capacity()), u32(synthesizing_)});
  s.stages.push_back({"device", u32(device_q_.size()), u32(device_capacity()), u32(proving_)});
  s.workers = workers_info_;
  s.budget_total = budget_->total();
  s.budget_reserved = budget_->reserved();
  s.budget_waiting = u32(budget_->waiting()) + (memory_blocked_ && !witness_q_.empty() ? 1u : 0u);
  for (const auto& [key, h] : histograms_) s.histograms.push_back({key.first, key.second, h});
  s.unfinished_jobs = unfinished_;
  s.retained_results = u32(finished_.size());
  s.uptime = duration_cast<std::chrono::seconds>(clock::now() - started_);
  s.accepting = accepting_;
  s.prover = prover_->name();
  lock.unlock();
  if (opts_.srs) s.srs = opts_.srs->entries();  // outside our lock (the manager has its own)
  if (opts_.gpu_status) s.gpus = opts_.gpu_status();
  return s;
}

shutdown_report engine::shutdown(milliseconds grace) {
  shutdown_report rep;
  deliveries out;
  lock_t lock(mu_);
  if (shutdown_done_) return rep;
  accepting_ = false;
  // 1. Jobs that have not started: cancel.
  std::vector<std::shared_ptr<job>> queued;
  for (auto& [k, j] : parse_q_) queued.push_back(j);
  for (auto& j : queued) {
    finish(j, job_status::cancelled, "cancelled: cuzk-daemon is shutting down", {}, out);
    ++rep.cancelled_queued;
  }
  lock.unlock();
  deliver(out);
  lock.lock();
  // 2. Running jobs: wait up to the grace period.
  const auto running_at_start = running_;
  if (running_ > 0) {
    log(log_level::info, "shutdown: waiting up to " + format_duration(grace) + " for " +
                             std::to_string(running_) + " running job(s)");
    drain_cv_.wait_for(lock, grace, [&] { return running_ == 0 || grace_expired_; });
  }
  // 3. Whatever is left: cancel.
  std::vector<std::shared_ptr<job>> left;
  for (auto& [id, j] : jobs_) {
    if (j->ph != phase::done) left.push_back(j);
  }
  for (auto& j : left) {
    finish(j, job_status::cancelled,
           grace_expired_ ? std::string("cancelled: cuzk-daemon is shutting down (grace period cut short by a second "
                                        "signal)")
                          : "cancelled: cuzk-daemon is shutting down (grace period " + format_duration(grace) +
                                " expired)",
           {}, out);
    ++rep.cancelled_running;
  }
  rep.finished_in_grace = running_at_start - rep.cancelled_running;
  stopping_ = true;
  shutdown_done_ = true;
  parse_cv_.notify_all();
  witness_cv_.notify_all();
  device_cv_.notify_all();
  timer_cv_.notify_all();
  lock.unlock();
  deliver(out);
  return rep;
}

void engine::expire_grace() {
  std::lock_guard lock(mu_);
  grace_expired_ = true;
  drain_cv_.notify_all();
}

bool engine::join(milliseconds limit) {
  std::unique_lock jl(join_mu_);
  if (joined_) return true;
  if (!join_cv_.wait_for(jl, limit, [&] { return threads_running_ == 0; })) return false;
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  joined_ = true;
  return true;
}

}  // namespace cuzk::engine
