// The test circuit family and its prover plugin:
//   * layout: 2^k - 3 constraints and 3 inputs for every k, so the domain is exactly 2^k;
//   * the circuit through test_system: satisfied by its own witness, output = the native twin,
//     a broken witness is caught, bellpepper's hash = the recorded shape's hash (pinned);
//   * witness_builder = test_system values; the shape cache records each k once;
//   * the plugin end to end (plan, synthesize, prove, finalize) and the proofs verified against
//     the .vk file it wrote; plan errors; cancellation;
//   * the parameter cache: generated once, reused from memory and from the files, corrupt or
//     half-written entries regenerated, concurrent first use, an unwritable directory.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "groth16/digest.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"
#include "groth16/verifying_key.hpp"
#include "r1cs/r1cs.hpp"
#include "testcircuit/mimc_chain.hpp"
#include "testcircuit/param_store.hpp"
#include "testcircuit/prover.hpp"

namespace cuzk::testcircuit {
namespace {

namespace fs = std::filesystem;
using engine::proof_kind;

// bellpepper's hash of the k = 4 and k = 10 circuits (r1cs_shape::hash_hex).
constexpr const char* PINNED_HASH_K4 = "d8f1bd0ad64655f5abccfeb76ee8761af43e78d0317d0eddc154d357fbe30b90";
constexpr const char* PINNED_HASH_K10 = "2a04f5a77d3ddb1e5391eab92bfa3dd95846f4d12233b1a346ca9e7e7c1873b6";

class temp_dir {
 public:
  temp_dir() {
    char tmpl[] = "/tmp/cuzk-tc-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Collects log lines (thread-safe).
struct log_sink {
  std::mutex mu;
  std::vector<std::string> lines;
  log_fn fn() {
    return [this](engine::log_level, const std::string& m) {
      std::lock_guard lock(mu);
      lines.push_back(m);
    };
  }
  bool contains(const std::string& s) {
    std::lock_guard lock(mu);
    for (const auto& l : lines)
      if (l.find(s) != std::string::npos) return true;
    return false;
  }
};

std::string read_all(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(testcircuit_layout, domain_is_exactly_two_to_the_k) {
  for (unsigned k = min_log2; k <= max_log2; ++k) {
    const auto l = layout_for(k);
    EXPECT_EQ(l.num_constraints + l.num_inputs, std::size_t{1} << k) << k;
    EXPECT_EQ(l.domain_size, std::size_t{1} << k);
    EXPECT_EQ(l.num_constraints, 3 * l.rounds + l.tail + 1);
    EXPECT_EQ(l.num_aux, 3 * l.rounds + l.tail);
    EXPECT_LT(l.tail, 3u);
  }
  EXPECT_THROW(layout_for(min_log2 - 1), std::invalid_argument);
  EXPECT_THROW(layout_for(max_log2 + 1), std::invalid_argument);
}

TEST(testcircuit_circuit, satisfied_by_its_witness_and_output_matches_native_twin) {
  for (unsigned k : {4u, 5u, 7u, 10u}) {  // tails 0, 1, 1, 0
    const chain_definition def(k);
    const fr start = partition_start(42, 1);
    r1cs::test_system ts;
    ASSERT_TRUE(synthesize_chain(ts, def, start).ok());
    EXPECT_EQ(ts.num_constraints(), def.layout().num_constraints);
    ASSERT_EQ(ts.num_inputs(), 3u);
    EXPECT_EQ(ts.num_aux(), def.layout().num_aux);
    EXPECT_TRUE(ts.is_satisfied()) << *ts.which_is_unsatisfied();
    const fr y = native_output(def, start);
    EXPECT_TRUE(ts.verify(std::array<fr, 2>{start, y}));
    EXPECT_FALSE(ts.verify(std::array<fr, 2>{start, y + fr::one()}));
    // Break one intermediate value: the constraint using it is named.
    ts.set("round 1/t4", ts.get("round 1/t4") + fr::one());
    ASSERT_FALSE(ts.is_satisfied());
    EXPECT_EQ(*ts.which_is_unsatisfied(), "round 1/fourth");
  }
}

TEST(testcircuit_circuit, starts_depend_on_seed_and_partition_and_outputs_differ) {
  const fr a = partition_start(1, 0), b = partition_start(1, 1), c = partition_start(2, 0);
  EXPECT_NE(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(a, partition_start(1, 0));
  const chain_definition def(6);
  EXPECT_NE(native_output(def, a), native_output(def, b));
  // Constants of a smaller circuit are a prefix of a larger one's.
  const chain_definition big(8);
  for (std::size_t i = 0; i < def.constants().size(); ++i) ASSERT_EQ(def.constants()[i], big.constants()[i]);
}

TEST(testcircuit_shape, recorded_once_stable_and_pinned) {
  auto& cache = circuit_cache::global();
  const auto a = cache.get(10);
  EXPECT_EQ(a.get(), cache.get(10).get());  // cached
  // Recording again gives the same shape; test_system computes the same (bellpepper) hash.
  r1cs::shape_recorder rec;
  ASSERT_TRUE(synthesize_chain(rec, *a->def, fr::zero()).ok());
  const auto again = std::move(rec).finish();
  EXPECT_EQ(again.hash, a->shape.hash);
  EXPECT_EQ(again.a, a->shape.a);
  r1cs::test_system ts;
  ASSERT_TRUE(synthesize_chain(ts, *a->def, partition_start(7, 0)).ok());
  EXPECT_EQ(ts.hash(), a->shape.hash_hex());
  // Pinned: a change to the circuit changes these, and must bump circuit_version (file names).
  EXPECT_EQ(a->shape.num_constraints, 1021u);
  EXPECT_EQ(a->shape.num_aux, 1020u);
  EXPECT_EQ(cache.get(4)->shape.hash_hex(), PINNED_HASH_K4);
  EXPECT_EQ(a->shape.hash_hex(), PINNED_HASH_K10);
  EXPECT_THROW(cache.get(3), std::invalid_argument);
}

TEST(testcircuit_shape, concurrent_first_use_records_once) {
  circuit_cache cache;
  std::vector<std::shared_ptr<const compiled_circuit>> got(4);
  std::vector<std::thread> ts;
  for (int i = 0; i < 4; ++i) ts.emplace_back([&, i] { got[i] = cache.get(9); });
  for (auto& t : ts) t.join();
  for (int i = 1; i < 4; ++i) EXPECT_EQ(got[i].get(), got[0].get());
}

TEST(testcircuit_witness, builder_matches_test_system) {
  const auto c = circuit_cache::global().get(7);
  const fr start = partition_start(99, 3);
  const auto w = compute_witness(*c, start);
  r1cs::test_system ts;
  ASSERT_TRUE(synthesize_chain(ts, *c->def, start).ok());
  ASSERT_EQ(w.inputs.size(), 3u);
  EXPECT_TRUE(std::equal(w.inputs.begin(), w.inputs.end(), ts.inputs().begin(), ts.inputs().end()));
  EXPECT_TRUE(std::equal(w.aux.begin(), w.aux.end(), ts.aux().begin(), ts.aux().end()));
  EXPECT_EQ(w.inputs[2], native_output(*c->def, start));
}

// --- the plugin -----------------------------------------------------------------------------

engine::job_spec test_job(unsigned k, unsigned partitions, std::uint64_t seed) {
  engine::job_spec j;
  j.kind = proof_kind::test_circuit;
  j.test_circuit = {k, partitions, seed};
  return j;
}

// Runs a job through the four stages as the engine would (in order, one thread).
engine::result<engine::bytes> run_job(engine::partition_prover& p, const engine::job_spec& job,
                                      std::stop_token stop = {}) {
  auto plan = p.plan(job, stop);
  if (!plan) return plan.error();
  std::vector<engine::bytes> proofs;
  for (const auto& part : plan->partitions) {
    auto w = p.synthesize(job, plan.value(), part, stop);
    if (!w) return w.error();
    auto pr = p.prove(job, plan.value(), part, std::move(w.value()), stop);
    if (!pr) return pr.error();
    proofs.push_back(std::move(pr->proof));
  }
  return p.finalize(job, plan.value(), std::move(proofs), stop);
}

TEST(testcircuit_prover, proves_and_the_proofs_verify_against_the_written_vk) {
  temp_dir dir;
  log_sink logs;
  auto p = make_prover({dir.path(), 2, logs.fn(), {}});
  EXPECT_EQ(p->name(), "groth16-cpu");
  EXPECT_TRUE(p->supports(proof_kind::test_circuit));
  EXPECT_FALSE(p->supports(proof_kind::porep_seal_commit));
  const unsigned k = 6, n = 3;
  const std::uint64_t seed = 0x5eed;
  auto out = run_job(*p, test_job(k, n, seed));
  ASSERT_TRUE(out.has_value()) << out.error().message;
  ASSERT_EQ(out->size(), n * groth16::proof_bytes);
  EXPECT_TRUE(logs.contains("generated development parameters"));

  // Independent check: the .vk file on disk, the native twin for y.
  groth16::verifying_key vk;
  ASSERT_TRUE(groth16::read_verifying_key_file(files_for(dir.path(), k).vk, vk).ok());
  const auto pvk = groth16::prepare_verifying_key(vk);
  std::vector<groth16::proof> proofs;
  ASSERT_TRUE(groth16::decode_proofs({reinterpret_cast<const std::uint8_t*>(out->data()), out->size()}, proofs).ok());
  const chain_definition def(k);
  for (unsigned i = 0; i < n; ++i) {
    const fr x0 = partition_start(seed, i);
    const fr y = native_output(def, x0);
    EXPECT_EQ(groth16::verify(pvk, proofs[i], std::array<fr, 2>{x0, y}), groth16::verify_result::valid) << i;
    EXPECT_EQ(groth16::verify(pvk, proofs[i], std::array<fr, 2>{x0, y + fr::one()}), groth16::verify_result::invalid);
  }
  // Fresh r, s per proof: the same job proves to different bytes, both valid.
  auto again = run_job(*p, test_job(k, n, seed));
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_NE(again.value(), out.value());
}

TEST(testcircuit_prover, plan_rejects_bad_requests_with_clear_errors) {
  temp_dir dir;
  auto p = make_prover({dir.path(), 1, {}, {}});
  auto r = p->plan(test_job(3, 1, 0), {});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, engine::errc::invalid_argument);
  EXPECT_EQ(r.error().message, "test_circuit.log2_constraints 3 is outside the supported range 4..22");
  r = p->plan(test_job(23, 1, 0), {});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, engine::errc::invalid_argument);
  r = p->plan(test_job(8, 0, 0), {});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "test_circuit.partitions 0 is outside the supported range 1..64");
  r = p->plan(test_job(8, 65, 0), {});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, engine::errc::invalid_argument);
  engine::job_spec porep;
  porep.kind = proof_kind::porep_seal_commit;
  r = p->plan(porep, {});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, engine::errc::unsupported);
  EXPECT_EQ(r.error().message.rfind("not yet supported: porep-c2", 0), 0u);

  // A good plan: partitions 0..n-1 with honest host bytes, no files touched yet.
  r = p->plan(test_job(12, 4, 9), {});
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->partitions.size(), 4u);
  EXPECT_EQ(r->circuit_id, "test-circuit-k12");
  const auto l = layout_for(12);
  for (std::uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(r->partitions[i].index, i);
    EXPECT_EQ(r->partitions[i].host_bytes, host_bytes_for(l));
    EXPECT_GE(r->partitions[i].host_bytes, 32 * (l.num_aux + 3) + 3 * 32 * l.domain_size);
  }
  EXPECT_FALSE(fs::exists(files_for(dir.path(), 12).params));
}

TEST(testcircuit_prover, cancelled_stages_stop) {
  temp_dir dir;
  auto p = make_prover({dir.path(), 1, {}, {}});
  const auto job = test_job(5, 1, 0);
  auto plan = p->plan(job, {});
  ASSERT_TRUE(plan.has_value());
  std::stop_source src;
  src.request_stop();
  auto w = p->synthesize(job, plan.value(), plan->partitions[0], src.get_token());
  ASSERT_FALSE(w.has_value());
  EXPECT_EQ(w.error().code, engine::errc::cancelled);
  auto w2 = p->synthesize(job, plan.value(), plan->partitions[0], {});
  ASSERT_TRUE(w2.has_value());
  auto pr = p->prove(job, plan.value(), plan->partitions[0], std::move(w2.value()), src.get_token());
  ASSERT_FALSE(pr.has_value());
  EXPECT_EQ(pr.error().code, engine::errc::cancelled);
}

TEST(testcircuit_prover, finalize_rejects_a_proof_that_does_not_verify) {
  temp_dir dir;
  auto p = make_prover({dir.path(), 1, {}, {}});
  const auto job = test_job(5, 2, 1);
  auto plan = p->plan(job, {});
  ASSERT_TRUE(plan.has_value());
  std::vector<engine::bytes> proofs;
  for (const auto& part : plan->partitions) {
    auto w = p->synthesize(job, plan.value(), part, {});
    ASSERT_TRUE(w.has_value());
    auto pr = p->prove(job, plan.value(), part, std::move(w.value()), {});
    ASSERT_TRUE(pr.has_value()) << pr.error().message;
    proofs.push_back(pr->proof);
  }
  // Swapped partitions: each proof is valid, but not for the other partition's inputs.
  std::swap(proofs[0], proofs[1]);
  auto bad = p->finalize(job, plan.value(), proofs, {});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, engine::errc::internal);
  EXPECT_NE(bad.error().message.find("self-check failed: partition 0"), std::string::npos) << bad.error().message;
  // Garbage bytes.
  std::swap(proofs[0], proofs[1]);
  auto garbled = proofs;
  garbled[1] = std::string(groth16::proof_bytes, '\x01');
  bad = p->finalize(job, plan.value(), garbled, {});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, engine::errc::internal);
  auto good = p->finalize(job, plan.value(), proofs, {});
  ASSERT_TRUE(good.has_value()) << good.error().message;
}

TEST(testcircuit_prover, parameters_go_through_the_srs_manager_and_a_corrupt_file_is_regenerated) {
  temp_dir dir;
  log_sink logs;
  engine::srs_manager_options mo;
  mo.cache_dir = dir.path();
  mo.budget = std::make_shared<engine::memory_budget>(64ull << 20);
  auto srs = std::make_shared<engine::srs_manager>(mo);
  const unsigned k = 5;
  {
    auto p = make_prover({dir.path(), 1, logs.fn(), srs});
    ASSERT_TRUE(run_job(*p, test_job(k, 1, 7)).has_value());
    const auto entries = srs->entries();
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].circuit_id, "test-circuit-k5");
    EXPECT_EQ(entries[0].tier, engine::srs_tier::hot);
    EXPECT_TRUE(entries[0].verified);
    EXPECT_EQ(entries[0].refs, 0u);  // the job is over
    EXPECT_EQ(srs->budget().reserved(), entries[0].hot_bytes);
    EXPECT_GT(entries[0].hot_bytes, entries[0].file_bytes);  // decoded points are larger than in the file
  }
  // A restarted daemon (new manager) finds the file corrupt: one byte flipped in the H query
  // (flipped, not overwritten: a fixed value equals the random byte there 1 time in 256).
  const auto f = files_for(dir.path(), k);
  {
    std::fstream io(f.params, std::ios::in | std::ios::out | std::ios::binary);
    io.seekg(-100, std::ios::end);
    char ch = 0;
    io.read(&ch, 1);
    io.seekp(-100, std::ios::end);
    ch = static_cast<char>(ch ^ 0x5a);
    io.write(&ch, 1);
  }
  auto srs2 = std::make_shared<engine::srs_manager>(mo);
  log_sink logs2;
  auto p = make_prover({dir.path(), 1, logs2.fn(), srs2});
  auto out = run_job(*p, test_job(k, 2, 9));
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_TRUE(logs2.contains("is corrupt")) << "no corruption warning";
  EXPECT_TRUE(logs2.contains("generated development parameters"));
  // The regenerated files verify the new proofs (checked against the .vk on disk).
  groth16::verifying_key vk;
  ASSERT_TRUE(groth16::read_verifying_key_file(f.vk, vk).ok());
  std::vector<groth16::proof> proofs;
  ASSERT_TRUE(groth16::decode_proofs({reinterpret_cast<const std::uint8_t*>(out->data()), out->size()}, proofs).ok());
  const chain_definition def(k);
  const fr x0 = partition_start(9, 1);
  EXPECT_EQ(groth16::verify(groth16::prepare_verifying_key(vk), proofs[1], std::array<fr, 2>{x0, native_output(def, x0)}),
            groth16::verify_result::valid);
}

TEST(testcircuit_prover, circuit_ids_round_trip) {
  EXPECT_EQ(circuit_id_for(10), "test-circuit-k10");
  EXPECT_EQ(k_of_circuit_id("test-circuit-k10"), 10u);
  EXPECT_EQ(k_of_circuit_id("test-circuit-k4"), 4u);
  for (const char* bad : {"test-circuit-k3", "test-circuit-k23", "test-circuit-k", "test-circuit-k010",
                          "test-circuit-kx", "porep-32g", "test-circuit-k100"}) {
    EXPECT_FALSE(k_of_circuit_id(bad)) << bad;
  }
}

// --- the parameter cache --------------------------------------------------------------------

struct store_fixture {
  std::unique_ptr<base::executor> ex = base::make_thread_pool_executor(2);
};

TEST(testcircuit_params, generated_once_then_reused_from_memory_and_files) {
  temp_dir dir;
  store_fixture fx;
  const auto c = circuit_cache::global().get(6);
  log_sink logs;
  param_store s1(dir.path(), *fx.ex, logs.fn());
  srs_origin o{};
  auto a = s1.get(*c, &o);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(o, srs_origin::generated);
  auto b = s1.get(*c, &o);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(o, srs_origin::memory);
  EXPECT_EQ(a->get(), b->get());

  const auto f = files_for(dir.path(), 6);
  EXPECT_EQ(fs::path(f.params).filename(), "cuzk-test-circuit-k6-v1.params");
  for (const auto& p : {f.params, f.vk, f.digests}) EXPECT_TRUE(fs::exists(p)) << p;
  // The .b2sum file is b2sum's format: "<128 hex>  <name>" for both files.
  groth16::blake2b_512_digest d{};
  ASSERT_TRUE(groth16::blake2b_512_file(f.params, d).ok());
  const std::string sums = read_all(f.digests);
  EXPECT_NE(sums.find(groth16::to_hex(d) + "  cuzk-test-circuit-k6-v1.params\n"), std::string::npos) << sums;
  // No temporary files are left behind.
  for (const auto& e : fs::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();

  // A second store (another daemon, or a restart) reads the same parameters from the files.
  param_store s2(dir.path(), *fx.ex);
  auto r = s2.get(*c, &o);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(o, srs_origin::file);
  EXPECT_EQ(r.value()->params, a.value()->params);
  // forget() drops the in-memory copy only.
  s2.forget(6);
  ASSERT_TRUE(s2.get(*c, &o).has_value());
  EXPECT_EQ(o, srs_origin::file);
}

void expect_regenerated(const std::string& dir, const std::string& why_fragment) {
  store_fixture fx;
  const auto c = circuit_cache::global().get(5);
  log_sink logs;
  param_store s(dir, *fx.ex, logs.fn());
  srs_origin o{};
  auto r = s.get(*c, &o);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(o, srs_origin::generated);
  EXPECT_TRUE(logs.contains("cached parameters are corrupt")) << why_fragment;
  EXPECT_TRUE(logs.contains(why_fragment)) << why_fragment;
  // The replacement is whole: a fresh store loads it.
  param_store again(dir, *fx.ex);
  auto r2 = again.get(*c, &o);
  ASSERT_TRUE(r2.has_value());
  EXPECT_EQ(o, srs_origin::file);
  EXPECT_EQ(r2.value()->params, r.value()->params);
}

TEST(testcircuit_params, corrupt_or_half_written_entries_are_regenerated) {
  temp_dir dir;
  store_fixture fx;
  const auto c = circuit_cache::global().get(5);
  const auto f = files_for(dir.path(), 5);
  auto make = [&] {
    param_store s(dir.path(), *fx.ex);
    ASSERT_TRUE(s.get(*c).has_value());
  };
  // One flipped byte in the middle of the .params file.
  make();
  {
    std::fstream io(f.params, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(static_cast<std::streamoff>(fs::file_size(f.params) / 2));
    char ch = 0;
    io.read(&ch, 1);
    io.seekp(static_cast<std::streamoff>(fs::file_size(f.params) / 2));
    ch = static_cast<char>(ch ^ 0x40);
    io.write(&ch, 1);
  }
  expect_regenerated(dir.path(), "BLAKE2b digest does not match");
  // Truncated .params.
  fs::resize_file(f.params, fs::file_size(f.params) - 100);
  expect_regenerated(dir.path(), "BLAKE2b digest does not match");
  // A crash before the commit marker: .params without .b2sum.
  fs::remove(f.digests);
  expect_regenerated(dir.path(), ".b2sum is missing");
  // A .b2sum that agrees with a garbled file (written by hand): the decoder catches it.
  std::ofstream(f.params, std::ios::binary | std::ios::trunc) << "garbage";
  groth16::blake2b_512_digest dp{}, dv{};
  ASSERT_TRUE(groth16::blake2b_512_file(f.params, dp).ok());
  ASSERT_TRUE(groth16::blake2b_512_file(f.vk, dv).ok());
  std::ofstream(f.digests, std::ios::trunc) << groth16::to_hex(dp) << "  cuzk-test-circuit-k5-v1.params\n"
                                            << groth16::to_hex(dv) << "  cuzk-test-circuit-k5-v1.vk\n";
  expect_regenerated(dir.path(), "cuzk-test-circuit-k5-v1.params: ");
}

TEST(testcircuit_params, concurrent_first_use_in_one_store_and_across_stores) {
  temp_dir dir;
  store_fixture fx;
  const auto c = circuit_cache::global().get(6);
  // Same store, four threads: one generates, the rest get it from memory.
  {
    param_store s(dir.path(), *fx.ex);
    std::vector<srs_origin> origins(4);
    std::vector<std::shared_ptr<const srs>> got(4);
    std::vector<std::thread> ts;
    for (int i = 0; i < 4; ++i) ts.emplace_back([&, i] { got[i] = s.get(*c, &origins[i]).value(); });
    for (auto& t : ts) t.join();
    EXPECT_EQ(std::count(origins.begin(), origins.end(), srs_origin::generated), 1);
    for (int i = 1; i < 4; ++i) EXPECT_EQ(got[i].get(), got[0].get());
  }
  // Two stores (two daemons) on a fresh directory at once: the lock file serialises them, the
  // second reads what the first wrote.
  temp_dir dir2;
  param_store a(dir2.path(), *fx.ex), b(dir2.path(), *fx.ex);
  srs_origin oa{}, ob{};
  std::shared_ptr<const srs> ga, gb;
  std::thread ta([&] { ga = a.get(*c, &oa).value(); });
  std::thread tb([&] { gb = b.get(*c, &ob).value(); });
  ta.join();
  tb.join();
  EXPECT_EQ((oa == srs_origin::generated) + (ob == srs_origin::generated), 1);
  EXPECT_EQ(ga->params, gb->params);
}

TEST(testcircuit_params, unwritable_directory_still_proves_from_memory) {
  temp_dir dir;
  const std::string blocker = dir.path() + "/file";
  std::ofstream(blocker) << "x";
  store_fixture fx;
  log_sink logs;
  param_store s(blocker + "/cache", *fx.ex, logs.fn());  // a directory under a regular file
  srs_origin o{};
  auto r = s.get(*circuit_cache::global().get(4), &o);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(o, srs_origin::generated);
  EXPECT_TRUE(logs.contains("cannot cache them"));
}

}  // namespace
}  // namespace cuzk::testcircuit
