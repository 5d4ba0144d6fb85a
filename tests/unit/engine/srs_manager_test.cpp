// The SRS manager (src/engine/srs_manager.hpp) with test sources whose "decoding" is a copy of the
// file: tiers and references, least-recently-used eviction that never touches referenced entries,
// the host budget it charges, digest checks against an independent vector (RFC 7693's BLAKE2b-512
// of "abc"), precise errors for missing and corrupt files, and the verification remembered across
// restarts (proved by corrupting a file behind the record's back and seeing it accepted while its
// size and mtime are unchanged, then rejected once its mtime moves).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "engine/engine.hpp"
#include "engine/srs_catalog.hpp"
#include "engine/srs_manager.hpp"
#include "engine/verified_digests.hpp"
#include "groth16/params.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// BLAKE2b-512("abc"), RFC 7693 Appendix A.
constexpr const char* abc_digest =
    "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
    "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";

struct temp_dir {
  temp_dir() {
    char tmpl[] = "/tmp/cuzk-srs-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& n) const { return path + "/" + n; }
  std::string write(const std::string& n, const std::string& bytes) const {
    std::ofstream(file(n), std::ios::binary | std::ios::trunc) << bytes;
    return file(n);
  }
  std::string path;
};

// Sources "<name>" -> dir/<name>.params; decode copies the bytes (so HOT bytes = file size).
struct test_sources {
  std::map<std::string, std::string> digests;  // name -> expected digest ("" = none)
  int decodes = 0;
  srs_resolver resolver(const std::string& dir) {
    return [this, dir](std::string_view id) -> std::optional<srs_source> {
      auto it = digests.find(std::string(id));
      if (it == digests.end()) return std::nullopt;
      srs_source s;
      s.path = dir + "/" + std::string(id) + ".params";
      s.digest = it->second;
      s.decode = [this](std::span<const std::uint8_t> f, bool, std::stop_token) -> result<srs_payload> {
        ++decodes;
        auto copy = std::make_shared<std::string>(reinterpret_cast<const char*>(f.data()), f.size());
        return srs_payload{copy, f.size()};
      };
      return s;
    };
  }
};

std::shared_ptr<srs_manager> make_manager(const temp_dir& dir, test_sources& src, std::uint64_t budget,
                                          std::chrono::milliseconds min_idle = 0ms) {
  srs_manager_options o;
  o.cache_dir = dir.path;
  o.budget = std::make_shared<memory_budget>(budget);
  o.eviction_min_idle = min_idle;
  o.max_budget_wait = 300ms;
  auto m = std::make_shared<srs_manager>(o);
  m->add_resolver(src.resolver(dir.path));
  return m;
}

std::optional<srs_entry_info> info(const srs_manager& m, const std::string& id) {
  for (auto& e : m.entries()) {
    if (e.circuit_id == id) return e;
  }
  return std::nullopt;
}

TEST(srs_manager, tiers_references_and_explicit_eviction) {
  temp_dir dir;
  test_sources src;
  src.digests["a"] = "";
  dir.write("a.params", std::string(1000, 'a'));
  auto m = make_manager(dir, src, 1 << 20);
  m->discover({"a", "unknown"});
  ASSERT_TRUE(info(*m, "a"));
  EXPECT_EQ(info(*m, "a")->tier, srs_tier::cold);
  EXPECT_EQ(info(*m, "a")->file_bytes, 1000u);
  EXPECT_FALSE(info(*m, "unknown"));

  srs_acquire_info ai;
  auto h = m->acquire("a", {}, &ai);
  ASSERT_TRUE(h.has_value()) << h.error().message;
  EXPECT_FALSE(ai.already_hot);
  EXPECT_EQ(h->get<std::string>(), std::string(1000, 'a'));
  EXPECT_EQ(info(*m, "a")->tier, srs_tier::hot);
  EXPECT_EQ(info(*m, "a")->refs, 1u);
  EXPECT_EQ(m->budget().reserved(), 1000u);

  auto h2 = m->acquire("a", {}, &ai);
  ASSERT_TRUE(h2.has_value());
  EXPECT_TRUE(ai.already_hot);
  EXPECT_EQ(info(*m, "a")->refs, 2u);
  EXPECT_EQ(src.decodes, 1);

  auto busy = m->evict("a");
  ASSERT_FALSE(busy.has_value());
  EXPECT_EQ(busy.error().code, errc::failed_precondition);
  EXPECT_NE(busy.error().message.find("in use by 2"), std::string::npos) << busy.error().message;

  h = srs_handle{};
  h2.value().reset();
  EXPECT_EQ(info(*m, "a")->refs, 0u);
  auto ev = m->evict("a");
  ASSERT_TRUE(ev.has_value());
  EXPECT_TRUE(ev->was_loaded);
  EXPECT_EQ(ev->freed_bytes, 1000u);
  EXPECT_EQ(info(*m, "a")->tier, srs_tier::cold);
  EXPECT_EQ(m->budget().reserved(), 0u);
  ev = m->evict("a");
  ASSERT_TRUE(ev.has_value());
  EXPECT_FALSE(ev->was_loaded);
  EXPECT_EQ(m->evict("nope").error().code, errc::not_found);
  EXPECT_EQ(m->acquire("nope").error().code, errc::not_found);
}

TEST(srs_manager, concurrent_first_acquires_share_one_load) {
  temp_dir dir;
  test_sources src;
  src.digests["a"] = std::string(abc_digest).substr(0, 32);
  dir.write("a.params", "abc");
  auto m = make_manager(dir, src, 1 << 20);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&] {
      auto h = m->acquire("a");
      if (h && h->get<std::string>() == "abc") ++ok;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 6);
  EXPECT_EQ(src.decodes, 1);
  EXPECT_EQ(info(*m, "a")->loads, 1u);
  EXPECT_EQ(info(*m, "a")->refs, 0u);
  EXPECT_EQ(m->budget().reserved(), 3u);
}

TEST(srs_manager, budget_pressure_evicts_least_recently_used_unreferenced_entries_only) {
  temp_dir dir;
  test_sources src;
  for (const char* n : {"a", "b", "c", "d"}) {
    src.digests[n] = "";
    dir.write(std::string(n) + ".params", std::string(1000, n[0]));
  }
  auto m = make_manager(dir, src, 3000);  // room for three
  auto ha = m->acquire("a");              // a: oldest, but referenced throughout
  ASSERT_TRUE(ha.has_value());
  { auto hb = m->acquire("b"); ASSERT_TRUE(hb.has_value()); }
  std::this_thread::sleep_for(5ms);
  { auto hc = m->acquire("c"); ASSERT_TRUE(hc.has_value()); }  // c used after b
  EXPECT_EQ(m->budget().reserved(), 3000u);

  auto hd = m->acquire("d");  // needs 1000: b (least recently used, unreferenced) goes
  ASSERT_TRUE(hd.has_value()) << hd.error().message;
  EXPECT_EQ(info(*m, "a")->tier, srs_tier::hot);
  EXPECT_EQ(info(*m, "b")->tier, srs_tier::warm);  // still mapped: a reload copies from the page cache
  EXPECT_EQ(info(*m, "c")->tier, srs_tier::hot);
  EXPECT_EQ(info(*m, "d")->tier, srs_tier::hot);
  EXPECT_EQ(m->budget().reserved(), 3000u);

  // Everything hot is referenced now except c; b needs room: c goes, never a or d.
  auto hb = m->acquire("b");
  ASSERT_TRUE(hb.has_value()) << hb.error().message;
  EXPECT_EQ(info(*m, "c")->tier, srs_tier::warm);
  EXPECT_EQ(info(*m, "a")->tier, srs_tier::hot);
  EXPECT_EQ(info(*m, "b")->loads, 2u);

  // All three hot entries referenced: c cannot be loaded; a clear error after max_budget_wait.
  auto hc = m->acquire("c");
  ASSERT_FALSE(hc.has_value());
  EXPECT_EQ(hc.error().code, errc::resource_exhausted);
  EXPECT_NE(hc.error().message.find("c.params"), std::string::npos) << hc.error().message;

  // Partition reservations trigger the same eviction through the budget's evictor.
  hb = srs_handle{};
  auto r = m->budget().try_reserve(500);
  EXPECT_TRUE(r);
  EXPECT_EQ(info(*m, "b")->tier, srs_tier::warm);
}

TEST(srs_manager, idle_entries_younger_than_eviction_min_idle_stay) {
  temp_dir dir;
  test_sources src;
  src.digests["a"] = "";
  src.digests["b"] = "";
  dir.write("a.params", std::string(600, 'a'));
  dir.write("b.params", std::string(600, 'b'));
  auto m = make_manager(dir, src, 1000, std::chrono::hours(1));
  { auto h = m->acquire("a"); ASSERT_TRUE(h.has_value()); }
  auto hb = m->acquire("b");
  ASSERT_FALSE(hb.has_value());
  EXPECT_EQ(hb.error().code, errc::resource_exhausted);
  EXPECT_EQ(info(*m, "a")->tier, srs_tier::hot);
  EXPECT_EQ(m->evict_idle(600), 0u);
}

TEST(srs_manager, larger_than_the_whole_budget_fails_at_once) {
  temp_dir dir;
  test_sources src;
  src.digests["big"] = "";
  dir.write("big.params", std::string(5000, 'x'));
  auto m = make_manager(dir, src, 4096);
  const auto t0 = std::chrono::steady_clock::now();
  auto h = m->acquire("big");
  ASSERT_FALSE(h.has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 200ms);
  EXPECT_EQ(h.error().code, errc::resource_exhausted);
  EXPECT_NE(h.error().message.find("whole budget"), std::string::npos) << h.error().message;
}

TEST(srs_manager, digest_checked_against_an_independent_vector_and_mismatch_names_the_file) {
  temp_dir dir;
  test_sources src;
  src.digests["good"] = std::string(abc_digest).substr(0, 32);  // the parameters.json form
  src.digests["full"] = abc_digest;                              // the .b2sum form
  src.digests["bad"] = "00000000000000000000000000000000";
  src.digests["missing"] = "";
  dir.write("good.params", "abc");
  dir.write("full.params", "abc");
  dir.write("bad.params", "abc");
  auto m = make_manager(dir, src, 1 << 20);
  auto g = m->acquire("good");
  ASSERT_TRUE(g.has_value()) << g.error().message;
  EXPECT_TRUE(info(*m, "good")->verified);
  ASSERT_TRUE(m->acquire("full").has_value());

  auto b = m->acquire("bad");
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(b.error().code, errc::data_loss);
  EXPECT_NE(b.error().message.find(dir.file("bad.params")), std::string::npos) << b.error().message;
  EXPECT_NE(b.error().message.find("ba80a53f981c4d0d6a2797b69f12f6e9"), std::string::npos) << b.error().message;
  EXPECT_EQ(info(*m, "bad")->tier, srs_tier::cold);
  EXPECT_EQ(m->budget().reserved(), 6u);  // good + full only

  auto mi = m->acquire("missing");
  ASSERT_FALSE(mi.has_value());
  EXPECT_EQ(mi.error().code, errc::not_found);
  EXPECT_NE(mi.error().message.find(dir.file("missing.params") + " (circuit missing) is missing"), std::string::npos)
      << mi.error().message;
}

TEST(srs_manager, verification_is_remembered_by_size_and_mtime_across_restarts) {
  temp_dir dir;
  test_sources src;
  src.digests["p"] = std::string(abc_digest).substr(0, 32);
  const auto path = dir.write("p.params", "abc");
  {
    auto m = make_manager(dir, src, 1 << 20);
    ASSERT_TRUE(m->acquire("p").has_value());
  }
  const auto rec = verified_digests(dir.path).lookup("p.params", *identify_file(path));
  ASSERT_TRUE(rec);
  EXPECT_EQ(*rec, abc_digest);

  // Same size, same mtime, different bytes: trusted from the record, so not hashed again.
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  dir.write("p.params", "xyz");
  const timespec times[2] = {st.st_atim, st.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  {
    auto m = make_manager(dir, src, 1 << 20);
    auto h = m->acquire("p");
    ASSERT_TRUE(h.has_value()) << h.error().message;
    EXPECT_EQ(h->get<std::string>(), "xyz");
  }
  // A new mtime: hashed again, and the corruption is found.
  const timespec later[2] = {st.st_atim, {st.st_mtim.tv_sec + 10, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), later, 0), 0);
  {
    auto m = make_manager(dir, src, 1 << 20);
    auto h = m->acquire("p");
    ASSERT_FALSE(h.has_value());
    EXPECT_EQ(h.error().code, errc::data_loss);
  }
}

TEST(verified_digests, record_format_round_trips_and_rejects_garbage) {
  std::map<std::string, verified_entry> m;
  m["a.params"] = {{123, 456789}, abc_digest};
  const auto text = format_verified_digests(m);
  auto back = parse_verified_digests(text);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back["a.params"].id, (file_identity{123, 456789}));
  EXPECT_EQ(back["a.params"].digest, abc_digest);
  EXPECT_TRUE(parse_verified_digests("zz 1 2 x\n" + std::string(128, 'a') + " -1 2 x\n" + std::string(128, 'a') +
                                     " 1 2 a/b\n" + std::string(128, 'a') + " 99999999999999999999999 2 x\n")
                  .empty());
  EXPECT_TRUE(digest_matches("BA80A53F", abc_digest));
  EXPECT_FALSE(digest_matches("", abc_digest));
  EXPECT_FALSE(digest_matches("ba80a53e", abc_digest));
}

TEST(srs_catalog, filecoin_ids_resolve_to_v28_names_in_the_cache_directory) {
  auto r = filecoin_srs_resolver("/params");
  auto s = r("porep-32g");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->path,
            "/params/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
            "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params");
  EXPECT_EQ(s->digest, "6a388072a518cf46ebd661f5cc46900a");
  EXPECT_FALSE(r("porep-2k"));
  EXPECT_EQ(filecoin_circuit_ids().size(), 8u);
  // A manifest entry overrides the built-in digest.
  auto r2 = filecoin_srs_resolver("/p", {{std::string(filecoin_srs_files()[0].file_name), "abcd"}});
  EXPECT_EQ(r2("porep-32g")->digest, "abcd");
  // Decoded size estimate covers the in-memory point size (a G1 point is 96 bytes in the file).
  EXPECT_GE(decoded_parameters_bytes(96'000), 1000 * sizeof(groth16::g1_affine));
}

}  // namespace
}  // namespace cuzk::engine
