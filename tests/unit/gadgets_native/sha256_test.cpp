// SHA-256: FIPS 180-4 example vectors, portable kernel == SHA-NI kernel on random inputs
// (printed seed), incremental == one-shot, and Filecoin's truncated digest against the shared
// fixtures (all-zero SHA256-trunc254 tree roots; WindowPoSt leaf challenges of a real sector).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fixture_text.hpp"
#include "gadgets/native/sha256_native.hpp"
#include "support/seed.hpp"

namespace {

using namespace cuzk::gadgets::native;
using cuzk::test::to_hex;

std::string hex(const sha256_digest& d) { return to_hex(d.data(), d.size()); }
std::span<const uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::vector<sha256_kernel> kernels() {
  std::vector<sha256_kernel> k = {sha256_kernel::portable};
  if (has_sha_ni()) k.push_back(sha256_kernel::sha_ni);
  return k;
}

std::string hash_with(sha256_kernel k, const std::string& msg) {
  sha256_hasher h(k);
  h.update(bytes(msg));
  return hex(h.finalize());
}

// FIPS 180-4 examples (NIST CSRC "Example Algorithms": SHA256.pdf, SHA2_Additional).
TEST(sha256, FipsVectors) {
  const std::string m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  const std::string m896 =
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
  ASSERT_EQ(m448.size() * 8, 448u);
  ASSERT_EQ(m896.size() * 8, 896u);
  for (sha256_kernel k : kernels()) {
    SCOPED_TRACE(k == sha256_kernel::portable ? "portable" : "sha_ni");
    EXPECT_EQ(hash_with(k, ""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hash_with(k, "abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(hash_with(k, m448), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(hash_with(k, m896), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    // One million 'a', fed in uneven pieces to exercise the buffering.
    sha256_hasher h(k);
    const std::string chunk(997, 'a');
    std::size_t left = 1000000;
    while (left > 0) {
      const std::size_t n = std::min(left, chunk.size());
      h.update(chunk.data(), n);
      left -= n;
    }
    EXPECT_EQ(hex(h.finalize()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }
  EXPECT_EQ(hex(sha256(bytes("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(sha256, ShaNiMatchesPortableOnRandomInputs) {
  if (!has_sha_ni()) GTEST_SKIP() << "CPU without SHA extensions";
  cuzk::test::seeded_rng rng;
  std::vector<uint8_t> data(64 * 8);
  for (int iter = 0; iter < 2000; ++iter) {
    uint32_t s1[8], s2[8];
    for (int i = 0; i < 8; ++i) s1[i] = s2[i] = static_cast<uint32_t>(rng());
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    const std::size_t nblocks = 1 + rng() % 8;
    sha256_compress_portable(s1, data.data(), nblocks);
    sha256_compress_shani(s2, data.data(), nblocks);
    ASSERT_EQ(0, std::memcmp(s1, s2, sizeof s1)) << "iteration " << iter;
  }
}

TEST(sha256, IncrementalMatchesOneShotAtEveryLength) {
  cuzk::test::seeded_rng rng;
  std::vector<uint8_t> msg(300);
  for (auto& b : msg) b = static_cast<uint8_t>(rng());
  for (std::size_t len = 0; len <= msg.size(); ++len) {
    const std::span<const uint8_t> m(msg.data(), len);
    const sha256_digest one = sha256(m);
    for (sha256_kernel k : kernels()) {
      sha256_hasher h(k);
      const std::size_t cut = len ? rng() % (len + 1) : 0;
      h.update(m.subspan(0, cut));
      h.update(m.subspan(cut));
      ASSERT_EQ(hex(h.finalize()), hex(one)) << "length " << len << " cut " << cut;
      h.reset();
      h.update(m);
      ASSERT_EQ(hex(h.finalize()), hex(one));
    }
  }
}

// filecoin-hashers Sha256Function::hash2: sha256(a || b) with the top two bits cleared.
TEST(sha256, Trunc254NodeMatchesDefinition) {
  cuzk::test::seeded_rng rng;
  for (int iter = 0; iter < 200; ++iter) {
    uint8_t ab[64];
    for (auto& b : ab) b = static_cast<uint8_t>(rng());
    sha256_digest d = sha256(ab);
    d[31] &= 0x3f;
    ASSERT_EQ(hex(sha256_trunc254_node(ab, ab + 32)), hex(d));
    ASSERT_EQ(hex(sha256_trunc254(ab)), hex(d));
    ASSERT_EQ(sha256_trunc254_node(ab, ab + 32)[31] & 0xc0, 0);
  }
}

// Roots of all-zero SHA256-trunc254 binary trees (level 6 = comm_d of an empty 2KiB sector).
TEST(sha256, ZeroTreeRootsMatchFixtures) {
  const std::string text = cuzk::test::read_file(cuzk::test::filecoin_fixture("derived_test_vectors.json"));
  ASSERT_FALSE(text.empty()) << "missing fixtures under " << CUZK_FIXTURES_DIR;
  std::size_t pos = text.find("\"sha256_trunc254_zero_tree_roots\"");
  ASSERT_NE(pos, std::string::npos);
  sha256_digest node{};
  int checked = 0;
  for (int level = 0; level <= 35; ++level) {
    const std::string expect = cuzk::test::json_string_after(text, "root", pos);
    ASSERT_EQ(hex(node), expect) << "level " << level;
    node = sha256_trunc254_node(node.data(), node.data());
    ++checked;
  }
  EXPECT_EQ(checked, 36);
}

// The leaf challenges of the real 32GiB WindowPoSt sector (curio post.vproof, V1_0_0):
// LE_u64(sha256(randomness || LE_u64(sector_id) || LE_u64(n))[0..8]) mod (2^35 / 32).
TEST(sha256, WindowPostLeafChallengesMatchFixtures) {
  const std::string text = cuzk::test::read_file(cuzk::test::filecoin_fixture("derived_test_vectors.json"));
  ASSERT_FALSE(text.empty());
  const std::size_t sec = text.find("\"leaf_challenges\": [");
  ASSERT_NE(sec, std::string::npos);
  std::istringstream list(text.substr(sec + 20, text.find(']', sec) - sec - 20));
  std::vector<uint64_t> expect;
  for (std::string item; std::getline(list, item, ',');) expect.push_back(std::stoull(item));
  ASSERT_EQ(expect.size(), 10u);
  for (uint64_t n = 0; n < 10; ++n) {
    uint8_t msg[48] = {};  // randomness = 32 zero bytes
    const uint64_t sector_id = 1;
    for (int i = 0; i < 8; ++i) msg[32 + i] = static_cast<uint8_t>(sector_id >> (8 * i));
    for (int i = 0; i < 8; ++i) msg[40 + i] = static_cast<uint8_t>(n >> (8 * i));
    const sha256_digest d = sha256(msg);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{d[i]} << (8 * i);
    EXPECT_EQ(v % (uint64_t{1} << 30), expect[n]) << "challenge " << n;
  }
}

}  // namespace
