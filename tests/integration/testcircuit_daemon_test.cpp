// The real cuzk-daemon (CUZK_DAEMON_BIN) proving the built-in test circuit end to end on the CPU:
// a k = 10 TEST_CIRCUIT job over gRPC whose proofs verify against the .vk file the daemon wrote
// into its parameter cache (public inputs from the native twin); parameters generated once and
// reused by later jobs and by a restarted daemon; Filecoin kinds still "not yet supported"; and
// cuzk-bench (CUZK_BENCH_BIN) single and batch against it, as scripts/run.sh does.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"
#include "groth16/verifying_key.hpp"
#include "integration/daemon_harness.hpp"
#include "testcircuit/mimc_chain.hpp"
#include "testcircuit/param_store.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;
namespace pb = cuzk::v1;

struct tc_daemon {
  temp_dir dir;
  std::string cache;
  std::unique_ptr<daemon_process> proc;
  std::string addr;

  // daemon_extra goes in [daemon], srs_extra in [srs].
  explicit tc_daemon(std::string param_cache = "", const std::string& daemon_extra = "",
                     const std::string& srs_extra = "")
      : cache(param_cache.empty() ? dir.file("params") : param_cache) {
    const auto cfg = dir.write("cuzk.toml", "[logging]\nlevel = \"debug\"\n[daemon]\nlisten = \"127.0.0.1:0\"\n"
                                            "shutdown_grace = \"5s\"\n" + daemon_extra + "\n[srs]\nparam_cache = \"" +
                                                cache + "\"\n" + srs_extra + "\n[memory]\ntotal_budget = \"2GiB\"\n[gpus]\n"
                                                        "backend = \"cpu\"\ngpu_threads = 2\n");
    proc = std::make_unique<daemon_process>(CUZK_DAEMON_BIN, std::vector<std::string>{"--config", cfg},
                                            dir.file("log"));
    if (auto a = proc->listening()) addr = *a;
  }
  std::unique_ptr<pb::ProvingEngine::Stub> stub() { return pb::ProvingEngine::NewStub(connect(addr)); }
  std::size_t count_in_log(const std::string& s) const {
    const auto l = proc->log();
    std::size_t n = 0;
    for (auto p = l.find(s); p != std::string::npos; p = l.find(s, p + 1)) ++n;
    return n;
  }
};

pb::SubmitProofRequest tc_request(const std::string& id, unsigned k, unsigned partitions, std::uint64_t seed) {
  pb::SubmitProofRequest r;
  r.set_request_id(id);
  r.set_proof_kind(pb::TEST_CIRCUIT);
  r.mutable_test_circuit()->set_log2_constraints(k);
  r.mutable_test_circuit()->set_partitions(partitions);
  r.mutable_test_circuit()->set_seed(seed);
  return r;
}

// Prove with this file's default client deadline.
grpc::Status prove(pb::ProvingEngine::Stub& s, const pb::SubmitProofRequest& req, pb::AwaitProofResponse& out,
                   std::chrono::milliseconds limit = 120s) {
  return test::prove(s, req, out, limit);
}

// Verifies a concatenation of partition proofs against the cached .vk file.
void expect_valid(const std::string& cache, unsigned k, std::uint64_t seed, const std::string& proof_bytes,
                  unsigned partitions) {
  groth16::verifying_key vk;
  ASSERT_TRUE(groth16::read_verifying_key_file(testcircuit::files_for(cache, k).vk, vk).ok());
  const auto pvk = groth16::prepare_verifying_key(vk);
  std::vector<groth16::proof> proofs;
  ASSERT_TRUE(groth16::decode_proofs({reinterpret_cast<const std::uint8_t*>(proof_bytes.data()), proof_bytes.size()},
                                     proofs)
                  .ok());
  ASSERT_EQ(proofs.size(), partitions);
  const testcircuit::chain_definition def(k);
  for (unsigned i = 0; i < partitions; ++i) {
    const auto x0 = testcircuit::partition_start(seed, i);
    const std::array<ff::fr, 2> pub{x0, testcircuit::native_output(def, x0)};
    EXPECT_EQ(groth16::verify(pvk, proofs[i], pub), groth16::verify_result::valid) << "partition " << i;
  }
}

TEST(testcircuit_daemon, proves_k10_end_to_end_and_filecoin_kinds_still_fail) {
  tc_daemon d;
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  auto s = d.stub();

  pb::GetVersionResponse v;
  grpc::ClientContext vctx;
  deadline(vctx);
  ASSERT_TRUE(s->GetVersion(&vctx, {}, &v).ok());
  EXPECT_EQ(v.prover(), "groth16-cpu");
  ASSERT_EQ(v.supported_kinds_size(), 1);
  EXPECT_EQ(v.supported_kinds(0), pb::TEST_CIRCUIT);

  pb::AwaitProofResponse r;
  ASSERT_TRUE(prove(*s, tc_request("tc-1", 10, 2, 77), r).ok());
  ASSERT_EQ(r.status(), pb::AwaitProofResponse::COMPLETED) << r.error_message() << "\n" << d.proc->log();
  ASSERT_EQ(r.proof().size(), 2 * groth16::proof_bytes);
  expect_valid(d.cache, 10, 77, r.proof(), 2);
  EXPECT_EQ(d.count_in_log("generated development parameters"), 1u) << d.proc->log();

  // A second job reuses the parameters (no second generation).
  ASSERT_TRUE(prove(*s, tc_request("tc-2", 10, 1, 78), r).ok());
  ASSERT_EQ(r.status(), pb::AwaitProofResponse::COMPLETED) << r.error_message();
  expect_valid(d.cache, 10, 78, r.proof(), 1);
  EXPECT_EQ(d.count_in_log("generated development parameters"), 1u);

  // Out of the prover's range: in-band failure naming the field.
  ASSERT_TRUE(prove(*s, tc_request("tc-3", 3, 1, 0), r).ok());
  EXPECT_EQ(r.status(), pb::AwaitProofResponse::FAILED);
  EXPECT_EQ(r.error_message(), "test_circuit.log2_constraints 3 is outside the supported range 4..22");

  // Filecoin kinds still fail precisely.
  pb::SubmitProofRequest porep;
  porep.set_request_id("porep-1");
  porep.set_proof_kind(pb::POREP_SEAL_COMMIT);
  porep.set_sector_size(34359738368ull);
  porep.set_registered_proof(8);
  porep.set_vanilla_proof(R"({"SectorNum":1,"Phase1Out":"e30=","SectorSize":34359738368})");
  ASSERT_TRUE(prove(*s, porep, r).ok());
  EXPECT_EQ(r.status(), pb::AwaitProofResponse::FAILED);
  EXPECT_EQ(r.error_message().rfind("not yet supported: porep-c2", 0), 0u) << r.error_message();
  EXPECT_TRUE(r.proof().empty());

  d.proc->signal(SIGTERM);
  EXPECT_EQ(d.proc->wait_exit(), 0) << d.proc->log();
}

// Runs a command, returns (exit status, stdout+stderr).
std::pair<int, std::string> run(const std::string& cmd) {
  std::string out;
  FILE* f = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return {-1, ""};
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  const int st = ::pclose(f);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

TEST(testcircuit_daemon, cuzk_bench_single_and_batch_and_a_restart_reuses_the_cached_parameters) {
  temp_dir shared;
  const std::string cache = shared.file("params");
  {
    tc_daemon d(cache);
    ASSERT_FALSE(d.addr.empty()) << d.proc->log();
    const std::string bench = std::string(CUZK_BENCH_BIN) + " -a " + d.addr + " ";
    auto [rc, out] = run(bench + "single -t test --log2-constraints 8 --partitions 2 --seed 5 --timeout-ms 120000");
    EXPECT_EQ(rc, 0) << out << d.proc->log();
    EXPECT_NE(out.find("COMPLETED"), std::string::npos) << out;
    EXPECT_NE(out.find("proof (384 bytes)"), std::string::npos) << out;
    auto [brc, bout] = run(bench + "batch -n 3 -j 2 -t test --log2-constraints 8 --timeout-ms 120000");
    EXPECT_EQ(brc, 0) << bout << d.proc->log();
    EXPECT_NE(bout.find("3 completed, 0 failed"), std::string::npos) << bout;
    EXPECT_EQ(d.count_in_log("generated development parameters"), 1u) << d.proc->log();
    d.proc->signal(SIGTERM);
    EXPECT_EQ(d.proc->wait_exit(), 0) << d.proc->log();
  }
  tc_daemon again(cache);
  ASSERT_FALSE(again.addr.empty()) << again.proc->log();
  pb::AwaitProofResponse r;
  auto s = again.stub();
  ASSERT_TRUE(prove(*s, tc_request("after-restart", 8, 1, 6), r).ok());
  ASSERT_EQ(r.status(), pb::AwaitProofResponse::COMPLETED) << r.error_message();
  expect_valid(cache, 8, 6, r.proof(), 1);
  EXPECT_EQ(again.count_in_log("generated development parameters"), 0u) << again.proc->log();
  EXPECT_EQ(again.count_in_log("loaded "), 1u) << again.proc->log();
  // The digest checked by the first daemon is remembered: not hashed again after the restart.
  EXPECT_EQ(again.count_in_log("BLAKE2b digest verified in"), 0u) << again.proc->log();
  EXPECT_EQ(again.count_in_log("digest verified earlier"), 1u) << again.proc->log();
  again.proc->signal(SIGTERM);
  EXPECT_EQ(again.proc->wait_exit(), 0) << again.proc->log();
}

TEST(testcircuit_daemon, cuzk_bench_stress_json_summary_and_timeline_svg) {
  tc_daemon d;
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  const std::string bench = std::string(CUZK_BENCH_BIN) + " -a " + d.addr + " ";
  const std::string svg = d.dir.file("timeline.svg");
  // Two kinds at fixed rates for 1.5 s: 3 + 2 arrivals (evenly spaced from t = 0).
  auto [rc, out] = run(bench + "--json stress --duration 1.5 --rate test:6:2=2 --rate test:5=1 --timeline " + svg);
  EXPECT_EQ(rc, 0) << out << d.proc->log();
  EXPECT_EQ(out.rfind("{\"mode\":\"stress\",\"proofs\":5,", 0), 0u) << out;
  EXPECT_NE(out.find("\"test-k6x2\":{\"completed\":3,\"failed\":0"), std::string::npos) << out;
  EXPECT_NE(out.find("\"test-k5x1\":{\"completed\":2,\"failed\":0"), std::string::npos) << out;
  EXPECT_NE(out.find("\"device\":{\"workers\":1,"), std::string::npos) << out;
  const auto pic = read_text(svg);
  EXPECT_EQ(pic.rfind("<svg", 0), 0u) << pic.substr(0, 200);
  EXPECT_NE(pic.find(">device 0</text>"), std::string::npos);
  EXPECT_NE(pic.find(">witness 0</text>"), std::string::npos);
  // 3 x 2 + 2 x 1 partitions, each drawn in its witness and its device row.
  std::size_t bars = 0;
  for (auto p = pic.find("<title>"); p != std::string::npos; p = pic.find("<title>", p + 1)) ++bars;
  EXPECT_EQ(bars, 16u);
  // The table form, with the per-stage medians header.
  auto [trc, table] = run(bench + "batch -n 2 -j 2 -t test --log2-constraints 5");
  EXPECT_EQ(trc, 0) << table;
  EXPECT_NE(table.find("2 completed, 0 failed"), std::string::npos) << table;
  EXPECT_NE(table.find("median ms:"), std::string::npos) << table;
  EXPECT_NE(table.find("device workers: 1, busy"), std::string::npos) << table;
  // A malformed rate is a usage error naming it.
  auto [brc, bad] = run(bench + "stress --duration 1 --rate test:6");
  EXPECT_NE(brc, 0);
  EXPECT_NE(bad.find("--rate test:6: expected KIND[:K[:PARTITIONS]]=PER_SECOND"), std::string::npos) << bad;
  d.proc->signal(SIGTERM);
  EXPECT_EQ(d.proc->wait_exit(), 0) << d.proc->log();
}

// --- SRS manager RPCs, /status and /metrics --------------------------------------------------

std::optional<pb::SRSStatus> srs_status(pb::ProvingEngine::Stub& s, const std::string& id) {
  pb::GetStatusResponse st;
  grpc::ClientContext ctx;
  deadline(ctx);
  if (!s.GetStatus(&ctx, {}, &st).ok()) return std::nullopt;
  for (const auto& e : st.loaded_srs()) {
    if (e.circuit_id() == id) return e;
  }
  return std::nullopt;
}

grpc::Status preload(pb::ProvingEngine::Stub& s, const std::string& id, pb::PreloadSrsResponse& out) {
  pb::PreloadSrsRequest req;
  req.set_circuit_id(id);
  grpc::ClientContext ctx;
  deadline(ctx, 60s);
  return s.PreloadSRS(&ctx, req, &out);
}

grpc::Status evict(pb::ProvingEngine::Stub& s, const std::string& id, pb::EvictSrsResponse& out) {
  pb::EvictSrsRequest req;
  req.set_circuit_id(id);
  grpc::ClientContext ctx;
  deadline(ctx);
  return s.EvictSRS(&ctx, req, &out);
}

TEST(testcircuit_daemon, srs_preload_at_start_preload_evict_rpcs_tiers_and_precise_errors) {
  tc_daemon d("", "status_listen = \"127.0.0.1:0\"", "preload = [\"test-circuit-k5\"]");
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  ASSERT_TRUE(d.proc->wait_log("[srs] preload test-circuit-k5: hot")) << d.proc->log();
  auto s = d.stub();
  auto k5 = srs_status(*s, "test-circuit-k5");
  ASSERT_TRUE(k5);
  EXPECT_EQ(k5->tier(), pb::SRSStatus::HOT);
  EXPECT_TRUE(k5->verified());
  EXPECT_GT(k5->size_bytes(), k5->file_bytes());
  EXPECT_EQ(k5->ref_count(), 0u);

  pb::PreloadSrsResponse p;
  ASSERT_TRUE(preload(*s, "test-circuit-k6", p).ok());
  EXPECT_FALSE(p.already_loaded());
  ASSERT_TRUE(preload(*s, "test-circuit-k6", p).ok());
  EXPECT_TRUE(p.already_loaded());
  EXPECT_EQ(p.load_time_ms(), 0u);
  auto k6 = srs_status(*s, "test-circuit-k6");
  ASSERT_TRUE(k6);
  EXPECT_EQ(k6->tier(), pb::SRSStatus::HOT);
  EXPECT_NE(k6->path().find("cuzk-test-circuit-k6-v1.params"), std::string::npos) << k6->path();

  // /status lists the entries (JSON) next to the budget they are charged to.
  auto http = d.proc->listening("status HTTP listening on ");
  ASSERT_TRUE(http);
  const auto js = http_get(*http, "/status");
  EXPECT_NE(js.find("{\"circuit_id\":\"test-circuit-k6\",\"tier\":\"hot\""), std::string::npos) << js;

  pb::EvictSrsResponse e;
  ASSERT_TRUE(evict(*s, "test-circuit-k6", e).ok());
  EXPECT_TRUE(e.was_loaded());
  EXPECT_EQ(e.freed_bytes(), k6->size_bytes());
  k6 = srs_status(*s, "test-circuit-k6");
  ASSERT_TRUE(k6);
  EXPECT_EQ(k6->tier(), pb::SRSStatus::COLD);
  ASSERT_TRUE(evict(*s, "test-circuit-k6", e).ok());
  EXPECT_FALSE(e.was_loaded());
  EXPECT_EQ(e.freed_bytes(), 0u);

  // A Filecoin id whose file is not there: NOT_FOUND naming the v28 file.
  auto st = preload(*s, "porep-32g", p);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(st.error_message().find("v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
                                    "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params"),
            std::string::npos)
      << st.error_message();
  EXPECT_NE(st.error_message().find("is missing"), std::string::npos) << st.error_message();
  // A file under that name whose digest is not parameters.json's: DATA_LOSS naming it.
  const std::string bogus = d.cache + "/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                                      "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params";
  std::ofstream(bogus) << std::string(4096, 'x');
  st = preload(*s, "winning-32g", p);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::DATA_LOSS);
  EXPECT_NE(st.error_message().find(bogus + " (circuit winning-32g) is corrupt"), std::string::npos)
      << st.error_message();
  EXPECT_NE(st.error_message().find("d84f79a16fe40e9e25a36e2107bb1ba0"), std::string::npos) << st.error_message();
  EXPECT_EQ(preload(*s, "porep-2k", p).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(evict(*s, "porep-2k", e).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(preload(*s, "", p).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  // Still serving.
  pb::AwaitProofResponse r;
  ASSERT_TRUE(prove(*s, tc_request("after-srs-errors", 5, 1, 1), r).ok());
  EXPECT_EQ(r.status(), pb::AwaitProofResponse::COMPLETED) << r.error_message();
  d.proc->signal(SIGTERM);
  EXPECT_EQ(d.proc->wait_exit(), 0) << d.proc->log();
}

// One sample line "name{labels} value" of the Prometheus text; nullopt when absent.
std::optional<double> sample(const std::string& text, const std::string& name_and_labels) {
  const auto p = text.find("\n" + name_and_labels + " ");
  if (p == std::string::npos) return std::nullopt;
  return std::stod(text.substr(p + name_and_labels.size() + 2));
}

TEST(testcircuit_daemon, metrics_histograms_per_stage_and_partition_timeline) {
  tc_daemon d("", "status_listen = \"127.0.0.1:0\"");
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  auto s = d.stub();
  pb::AwaitProofResponse r;
  const auto before_us = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::system_clock::now().time_since_epoch()).count());
  ASSERT_TRUE(prove(*s, tc_request("metrics-1", 8, 3, 11), r).ok());
  ASSERT_EQ(r.status(), pb::AwaitProofResponse::COMPLETED) << r.error_message();
  ASSERT_TRUE(prove(*s, tc_request("metrics-2", 8, 1, 12), r).ok());
  ASSERT_EQ(r.status(), pb::AwaitProofResponse::COMPLETED) << r.error_message();

  // Timeline of the last job: every partition's stages in order, inside the job's lifetime.
  ASSERT_EQ(r.partitions_size(), 1);
  const auto& t = r.partitions(0);
  EXPECT_GE(r.submitted_us(), before_us);
  EXPECT_LE(r.submitted_us(), t.synth_start_us());
  EXPECT_LE(t.synth_start_us(), t.synth_end_us());
  EXPECT_LE(t.synth_end_us(), t.device_start_us());
  EXPECT_LT(t.device_start_us(), t.device_end_us());
  EXPECT_LE(t.device_end_us() - r.submitted_us(), r.total_ms() * 1000 + 1000);

  auto http = d.proc->listening("status HTTP listening on ");
  ASSERT_TRUE(http);
  const auto m = http_get(*http, "/metrics");
  ASSERT_EQ(m.rfind("HTTP/1.1 200", 0), 0u) << m;
  EXPECT_NE(m.find("# TYPE cuzk_stage_duration_seconds histogram"), std::string::npos);
  // Observations per stage: 2 jobs, 4 partitions.
  const std::pair<const char*, double> expect[] = {{"queue", 2}, {"parse", 2}, {"witness", 4},
                                                   {"device", 4}, {"srs_load", 4}, {"finalize", 2}, {"job", 2}};
  for (const auto& [stage, n] : expect) {
    const std::string l = std::string("{stage=\"") + stage + "\",proof_kind=\"test_circuit\"";
    const auto count = sample(m, "cuzk_stage_duration_seconds_count" + l + "}");
    ASSERT_TRUE(count) << stage << "\n" << m;
    EXPECT_EQ(*count, n) << stage;
    const auto inf = sample(m, "cuzk_stage_duration_seconds_bucket" + l + ",le=\"+Inf\"}");
    ASSERT_TRUE(inf) << stage;
    EXPECT_EQ(*inf, n) << stage;
    const auto sum = sample(m, "cuzk_stage_duration_seconds_sum" + l + "}");
    ASSERT_TRUE(sum) << stage;
    EXPECT_GE(*sum, 0.0);
    // Buckets are cumulative: never decreasing, ending at the count.
    double prev = 0;
    int buckets = 0;
    for (auto p = m.find("cuzk_stage_duration_seconds_bucket" + l + ",le=\""); p != std::string::npos;
         p = m.find("cuzk_stage_duration_seconds_bucket" + l + ",le=\"", p + 1)) {
      const auto v = std::stod(m.substr(m.find("} ", p) + 2));
      EXPECT_GE(v, prev) << stage;
      prev = v;
      ++buckets;
    }
    EXPECT_EQ(buckets, 17) << stage;
    EXPECT_EQ(prev, n) << stage;
  }
  // The device stage of a k=8 CPU proof takes well over 5 ms but far less than 10 min.
  EXPECT_GT(*sample(m, "cuzk_stage_duration_seconds_sum{stage=\"device\",proof_kind=\"test_circuit\"}"), 0.005);
  EXPECT_EQ(*sample(m, "cuzk_stage_duration_seconds_bucket{stage=\"device\",proof_kind=\"test_circuit\",le=\"600\"}"), 4);
  // Queue depths, budgets and SRS gauges.
  EXPECT_EQ(*sample(m, "cuzk_host_memory_budget_bytes"), 2.0 * (1ull << 30));
  EXPECT_EQ(*sample(m, "cuzk_stage_queued{stage=\"witness\"}"), 0);
  EXPECT_TRUE(sample(m, "cuzk_stage_capacity{stage=\"device\"}"));
  EXPECT_GT(*sample(m, "cuzk_srs_bytes{circuit_id=\"test-circuit-k8\",tier=\"hot\"}"), 0);
  EXPECT_EQ(*sample(m, "cuzk_host_memory_reserved_bytes"),
            *sample(m, "cuzk_srs_bytes{circuit_id=\"test-circuit-k8\",tier=\"hot\"}"));  // only the SRS is held now
  // GetMetrics serves the same families.
  pb::GetMetricsResponse gm;
  grpc::ClientContext ctx;
  deadline(ctx);
  ASSERT_TRUE(s->GetMetrics(&ctx, {}, &gm).ok());
  EXPECT_NE(gm.prometheus_text().find("cuzk_stage_duration_seconds_count{stage=\"job\",proof_kind=\"test_circuit\"} 2"),
            std::string::npos);
  d.proc->signal(SIGTERM);
  EXPECT_EQ(d.proc->wait_exit(), 0) << d.proc->log();
}

}  // namespace
}  // namespace cuzk::test
