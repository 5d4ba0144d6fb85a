// The engine driven through the test-double prover: stages, priorities, request_id idempotency,
// cancellation, await timeouts, the memory budget, shutdown.
#include "engine/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "unit/engine/test_double_prover.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using test::test_double_prover;

job_spec job(std::string id, std::uint32_t partitions = 1, priority p = priority::normal) {
  job_spec s;
  s.request_id = std::move(id);
  s.kind = proof_kind::test_circuit;
  s.prio = p;
  s.test_circuit.partitions = partitions;
  s.test_circuit.log2_constraints = 4;
  return s;
}

struct fixture : ::testing::Test {
  std::shared_ptr<test_double_prover> prover = std::make_shared<test_double_prover>();
  engine_options opts() {
    engine_options o;
    o.host_memory_bytes = 1000;
    o.device_queue_capacity = 1;
    return o;
  }
  std::size_t index_of(const std::vector<std::string>& log, const std::string& s) {
    return static_cast<std::size_t>(std::find(log.begin(), log.end(), s) - log.begin());
  }
};

TEST_F(fixture, job_runs_through_every_stage_and_joins_partitions_in_order) {
  engine e(opts(), prover);
  auto s = e.submit(job("a", 3));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->job_id, "a");
  EXPECT_FALSE(s->attached);
  auto r = e.await_blocking("a", 0ms);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, job_status::completed) << r->error;
  EXPECT_EQ(r->proof, "TEST-DOUBLE:a:0;TEST-DOUBLE:a:1;TEST-DOUBLE:a:2;");
  auto st = e.status();
  EXPECT_EQ(st.completed, 1u);
  EXPECT_EQ(st.unfinished_jobs, 0u);
  EXPECT_EQ(st.budget_reserved, 0u);
}

TEST_F(fixture, empty_request_id_gets_a_fresh_id) {
  engine e(opts(), prover);
  auto a = e.submit(job(""));
  auto b = e.submit(job(""));
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->job_id, b->job_id);
  EXPECT_FALSE(b->attached);
}

TEST_F(fixture, parse_stage_takes_jobs_by_priority_then_submission_order) {
  prover->hold("plan:blocker");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("blocker")));
  ASSERT_TRUE(prover->wait_entered("plan:blocker"));
  ASSERT_TRUE(e.submit(job("low", 1, priority::low)));
  ASSERT_TRUE(e.submit(job("normal1", 1, priority::normal)));
  ASSERT_TRUE(e.submit(job("critical", 1, priority::critical)));
  auto h = e.submit(job("high", 1, priority::high));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->queue_position, 1u);  // behind critical only
  ASSERT_TRUE(e.submit(job("normal2", 1, priority::normal)));
  prover->release("plan:blocker");
  for (auto id : {"low", "normal1", "critical", "high", "normal2"}) {
    ASSERT_EQ(e.await_blocking(id, 0ms)->status, job_status::completed);
  }
  std::vector<std::string> plans;
  for (auto& l : prover->log()) {
    if (l.starts_with("plan:")) plans.push_back(l);
  }
  EXPECT_EQ(plans, (std::vector<std::string>{"plan:blocker", "plan:critical", "plan:high", "plan:normal1",
                                              "plan:normal2", "plan:low"}));
}

TEST_F(fixture, a_later_critical_job_overtakes_queued_partitions_at_the_device_stage) {
  prover->hold("prove:blocker:0");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("blocker")));
  ASSERT_TRUE(prover->wait_entered("prove:blocker:0"));
  ASSERT_TRUE(e.submit(job("low", 4, priority::low)));
  ASSERT_TRUE(prover->wait_entered("synth:low:0"));  // low:0 fills the one device-queue slot
  ASSERT_TRUE(e.submit(job("crit", 1, priority::critical)));
  ASSERT_TRUE(prover->wait_entered("plan:crit"));
  std::this_thread::sleep_for(20ms);  // let crit's partition reach the witness queue
  prover->release("prove:blocker:0");
  ASSERT_EQ(e.await_blocking("low", 0ms)->status, job_status::completed);
  ASSERT_EQ(e.await_blocking("crit", 0ms)->status, job_status::completed);
  auto log = prover->log();
  EXPECT_LT(index_of(log, "prove:crit:0"), index_of(log, "prove:low:1"));
  EXPECT_LT(index_of(log, "synth:crit:0"), index_of(log, "synth:low:1"));
}

TEST_F(fixture, duplicate_request_id_attaches_to_the_same_job) {
  prover->hold("prove:dup:0");
  engine e(opts(), prover);
  auto a = e.submit(job("dup"));
  auto b = e.submit(job("dup"));
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(b->attached);
  EXPECT_EQ(a->job_id, b->job_id);
  prover->release("prove:dup:0");
  auto r1 = e.await_blocking("dup", 0ms);
  EXPECT_EQ(r1->status, job_status::completed);
  // A finished, completed job: attach again and get the same proof, without proving again.
  auto c = e.submit(job("dup"));
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->attached);
  EXPECT_EQ(e.await_blocking("dup", 0ms)->proof, r1->proof);
  auto log = prover->log();
  EXPECT_EQ(std::count(log.begin(), log.end(), "plan:dup"), 1);
  EXPECT_EQ(e.status().completed, 1u);
}

TEST_F(fixture, request_id_reused_for_different_input_is_rejected) {
  prover->hold("plan:x");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("x")));
  auto other = job("x");
  other.kind = proof_kind::winning_post;
  auto r = e.submit(other);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::already_exists);
  EXPECT_NE(r.error().message.find("winning-post"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("test-circuit"), std::string::npos) << r.error().message;
  prover->release("plan:x");
}

TEST_F(fixture, failed_job_is_retried_under_the_same_request_id) {
  prover->fail_plan.insert("f");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("f")));
  auto r = e.await_blocking("f", 0ms);
  EXPECT_EQ(r->status, job_status::failed);
  EXPECT_NE(r->error.find("garbled input"), std::string::npos);
  prover->fail_plan.clear();
  auto again = e.submit(job("f"));
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->attached);
  EXPECT_EQ(e.await_blocking("f", 0ms)->status, job_status::completed);
}

TEST_F(fixture, cancel_a_queued_job) {
  prover->hold("plan:blocker");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("blocker")));
  ASSERT_TRUE(prover->wait_entered("plan:blocker"));
  ASSERT_TRUE(e.submit(job("q")));
  auto c = e.cancel("q");
  EXPECT_TRUE(c.found);
  EXPECT_FALSE(c.was_running);
  auto r = e.await_blocking("q", 0ms);
  EXPECT_EQ(r->status, job_status::cancelled);
  prover->release("plan:blocker");
  EXPECT_EQ(e.await_blocking("blocker", 0ms)->status, job_status::completed);
  auto log = prover->log();
  EXPECT_EQ(std::count(log.begin(), log.end(), "plan:q"), 0);
  EXPECT_FALSE(e.cancel("q").found);        // already finished
  EXPECT_FALSE(e.cancel("nonesuch").found);
}

TEST_F(fixture, cancel_a_running_job_answers_waiters_and_stops_the_prover) {
  prover->hold("prove:r:0");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("r", 3)));
  ASSERT_TRUE(prover->wait_entered("prove:r:0"));
  auto c = e.cancel("r");
  EXPECT_TRUE(c.found);
  EXPECT_TRUE(c.was_running);
  EXPECT_EQ(e.await_blocking("r", 0ms)->status, job_status::cancelled);
  // The held prove call sees its stop_token; later partitions never reach the device.
  for (int i = 0; i < 200 && !prover->saw_stop("prove:r:0"); ++i) std::this_thread::sleep_for(5ms);
  EXPECT_TRUE(prover->saw_stop("prove:r:0"));
  ASSERT_TRUE(e.submit(job("after")));
  EXPECT_EQ(e.await_blocking("after", 0ms)->status, job_status::completed);
  auto log = prover->log();
  EXPECT_EQ(std::count(log.begin(), log.end(), "prove:r:2"), 0);
  EXPECT_EQ(e.status().budget_reserved, 0u);
}

TEST_F(fixture, await_times_out_while_the_job_keeps_running) {
  prover->hold("prove:slow:0");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("slow")));
  const auto t0 = std::chrono::steady_clock::now();
  auto r = e.await_blocking("slow", 50ms);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 45ms);
  EXPECT_EQ(r->status, job_status::timeout);
  EXPECT_NE(r->error.find("50 ms"), std::string::npos) << r->error;
  prover->release("prove:slow:0");
  EXPECT_EQ(e.await_blocking("slow", 0ms)->status, job_status::completed);
}

TEST_F(fixture, await_unknown_job_is_not_found) {
  engine e(opts(), prover);
  auto r = e.await_blocking("nope", 0ms);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::not_found);
}

TEST_F(fixture, orphaned_prove_job_is_cancelled_when_its_caller_detaches) {
  prover->hold("prove:o:0");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("o"), submit_options{.cancel_when_orphaned = true}));
  auto w = e.await("o", 0ms, [](job_result) { ADD_FAILURE() << "detached waiter called"; });
  ASSERT_TRUE(w);
  e.detach(w.value());
  auto r = e.await_blocking("o", 0ms);
  EXPECT_EQ(r->status, job_status::cancelled);
  EXPECT_NE(r->error.find("went away"), std::string::npos);
}

TEST_F(fixture, partitions_wait_for_host_memory_and_never_exceed_the_budget) {
  prover->host_bytes = 400;  // two fit in 1000, three do not
  prover->prove_delay = 5ms;
  auto o = opts();
  o.witness_workers = 3;
  o.device_workers = 2;
  o.device_queue_capacity = 4;
  engine e(o, prover);
  ASSERT_TRUE(e.submit(job("m1", 4)));
  ASSERT_TRUE(e.submit(job("m2", 4)));
  EXPECT_EQ(e.await_blocking("m1", 0ms)->status, job_status::completed);
  EXPECT_EQ(e.await_blocking("m2", 0ms)->status, job_status::completed);
  EXPECT_LE(prover->max_in_flight_bytes(), 800u);
  EXPECT_EQ(prover->max_in_flight_bytes(), 800u);  // and it did use what fits
  EXPECT_EQ(e.status().budget_reserved, 0u);
}

TEST_F(fixture, status_shows_a_partition_waiting_for_memory) {
  prover->host_bytes = 600;  // one at a time
  prover->hold("prove:w:0");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("w", 2)));
  ASSERT_TRUE(prover->wait_entered("prove:w:0"));
  status_snapshot s;
  for (int i = 0; i < 200; ++i) {
    s = e.status();
    if (s.budget_waiting == 1) break;
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(s.budget_waiting, 1u);
  EXPECT_EQ(s.budget_reserved, 600u);
  EXPECT_EQ(s.stages[1].queued, 1u);  // partition 1 in the witness queue
  bool busy_device = false;
  for (const auto& w : s.workers) busy_device |= w.stage == "device" && w.busy && w.job_id == "w";
  EXPECT_TRUE(busy_device);
  prover->release("prove:w:0");
  EXPECT_EQ(e.await_blocking("w", 0ms)->status, job_status::completed);
  EXPECT_EQ(e.status().budget_waiting, 0u);
}

TEST_F(fixture, a_partition_larger_than_the_budget_fails_clearly) {
  prover->host_bytes = 5000;
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("big")));
  auto r = e.await_blocking("big", 0ms);
  EXPECT_EQ(r->status, job_status::failed);
  EXPECT_NE(r->error.find("can never run"), std::string::npos) << r->error;
  EXPECT_NE(r->error.find("total_budget"), std::string::npos) << r->error;
  prover->host_bytes = 10;
  ASSERT_TRUE(e.submit(job("small")));
  EXPECT_EQ(e.await_blocking("small", 0ms)->status, job_status::completed);
}

TEST_F(fixture, admission_limit_rejects_with_resource_exhausted) {
  prover->hold("plan:a");
  auto o = opts();
  o.max_unfinished_jobs = 2;
  engine e(o, prover);
  ASSERT_TRUE(e.submit(job("a")));
  ASSERT_TRUE(e.submit(job("b")));
  auto r = e.submit(job("c"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::resource_exhausted);
  EXPECT_TRUE(e.submit(job("a")));  // attaching is not a new job
  prover->release("plan:a");
}

TEST_F(fixture, finished_results_are_forgotten_after_the_retention) {
  auto o = opts();
  o.result_retention = 50ms;
  engine e(o, prover);
  ASSERT_TRUE(e.submit(job("old")));
  ASSERT_EQ(e.await_blocking("old", 0ms)->status, job_status::completed);
  std::this_thread::sleep_for(60ms);
  ASSERT_TRUE(e.submit(job("new")));  // collection runs on submit (and once a second)
  auto r = e.await_blocking("old", 0ms);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::not_found);
}

TEST_F(fixture, shutdown_cancels_queued_lets_running_finish_and_refuses_new_work) {
  prover->hold("prove:run:0");
  prover->hold("plan:parse");
  auto o = opts();
  engine e(o, prover);
  ASSERT_TRUE(e.submit(job("run")));
  ASSERT_TRUE(prover->wait_entered("prove:run:0"));
  ASSERT_TRUE(e.submit(job("parse")));
  ASSERT_TRUE(prover->wait_entered("plan:parse"));
  ASSERT_TRUE(e.submit(job("queued")));
  job_result queued_result;
  ASSERT_TRUE(e.await("queued", 0ms, [&](job_result r) { queued_result = std::move(r); }));
  std::thread releaser([&] {
    std::this_thread::sleep_for(50ms);
    prover->release("prove:run:0");
  });
  auto rep = e.shutdown(300ms);
  releaser.join();
  EXPECT_EQ(rep.cancelled_queued, 1u);
  EXPECT_EQ(rep.finished_in_grace, 1u);
  EXPECT_EQ(rep.cancelled_running, 1u);
  EXPECT_EQ(queued_result.status, job_status::cancelled);
  EXPECT_NE(queued_result.error.find("shutting down"), std::string::npos);
  // "run" was released within the grace period; "parse" stays held in plan() until the grace
  // expires and its stop_token fires.
  EXPECT_EQ(e.await_blocking("run", 0ms)->status, job_status::completed);
  EXPECT_EQ(e.await_blocking("parse", 0ms)->status, job_status::cancelled);
  auto r = e.submit(job("late"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::unavailable);
  EXPECT_TRUE(e.join(5s));
}

TEST_F(fixture, shutdown_grace_expiry_cancels_running_jobs_and_answers_waiters) {
  prover->hold("prove:stuck:0");
  engine e(opts(), prover);
  ASSERT_TRUE(e.submit(job("stuck")));
  ASSERT_TRUE(prover->wait_entered("prove:stuck:0"));
  job_result got;
  ASSERT_TRUE(e.await("stuck", 0ms, [&](job_result r) { got = std::move(r); }));
  const auto t0 = std::chrono::steady_clock::now();
  auto rep = e.shutdown(100ms);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  EXPECT_EQ(rep.cancelled_running, 1u);
  EXPECT_EQ(got.status, job_status::cancelled);
  EXPECT_NE(got.error.find("grace"), std::string::npos) << got.error;
  EXPECT_TRUE(e.join(5s));  // the held call saw its stop_token
}

TEST(unavailable_prover, filecoin_kinds_are_not_yet_supported_and_test_circuit_is_not_built_in) {
  engine e(engine_options{}, make_unavailable_prover());
  for (auto k : all_proof_kinds) {
    auto s = job(std::string("k") + std::string(to_string(k)));
    s.kind = k;
    ASSERT_TRUE(e.submit(s));
    auto r = e.await_blocking(s.request_id, 0ms);
    EXPECT_EQ(r->status, job_status::failed);
    EXPECT_TRUE(r->proof.empty());
    const std::string want = is_filecoin(k) ? "not yet supported: " + std::string(to_string(k))
                                            : std::string("prover not built in yet: test-circuit");
    EXPECT_EQ(r->error.rfind(want, 0), 0u) << r->error;
  }
  EXPECT_EQ(e.status().failed, std::size(all_proof_kinds));
}

}  // namespace
}  // namespace cuzk::engine
