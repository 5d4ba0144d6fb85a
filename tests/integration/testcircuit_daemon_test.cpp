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

  explicit tc_daemon(std::string param_cache = "") : cache(param_cache.empty() ? dir.file("params") : param_cache) {
    const auto cfg = dir.write("cuzk.toml", "[logging]\nlevel = \"debug\"\n[daemon]\nlisten = \"127.0.0.1:0\"\n"
                                            "shutdown_grace = \"5s\"\n[srs]\nparam_cache = \"" +
                                                cache + "\"\n[memory]\ntotal_budget = \"2GiB\"\n[gpus]\n"
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
  again.proc->signal(SIGTERM);
  EXPECT_EQ(again.proc->wait_exit(), 0) << again.proc->log();
}

}  // namespace
}  // namespace cuzk::test
