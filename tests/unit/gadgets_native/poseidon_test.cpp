// Poseidon: constants against neptune's Grain output file and supraseal's optimized-constant
// blobs (all 7 Filecoin arities), hashes against neptune's test vectors and real Filecoin data
// (derived_test_vectors.json), and the optimized permutation against the reference one on
// random inputs (printed seed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fixture_text.hpp"
#include "gadgets/native/poseidon_native.hpp"
#include "gadgets/native/poseidon_params.hpp"
#include "support/seed.hpp"

namespace {

using namespace cuzk::gadgets::native;
using cuzk::test::fr_from_le_hex;
using cuzk::test::fr_to_le_hex;

constexpr std::size_t kArities[] = {2, 4, 8, 11, 16, 24, 36};

TEST(poseidon_params, StandardRoundNumbers) {
  const std::size_t expect_rp[] = {55, 56, 57, 57, 59, 59, 60};
  for (std::size_t k = 0; k < 7; ++k) {
    const poseidon_params& p = poseidon_constants(kArities[k]);
    EXPECT_EQ(p.arity, kArities[k]);
    EXPECT_EQ(p.width, kArities[k] + 1);
    EXPECT_EQ(p.full_rounds, 8u);
    EXPECT_EQ(p.half_full_rounds, 4u);
    EXPECT_EQ(p.partial_rounds, expect_rp[k]);
    EXPECT_EQ(p.round_constants.size(), (8 + expect_rp[k]) * p.width);
    EXPECT_EQ(p.compressed_round_constants.size(), 8 * p.width + expect_rp[k]);
    EXPECT_EQ(p.sparse_matrices.size(), expect_rp[k]);
    EXPECT_EQ(p.sparse_flat.size(), expect_rp[k] * (2 * p.width - 1));
    EXPECT_EQ(p.merkle_domain_tag, fr::from_u64((uint64_t{1} << kArities[k]) - 1));
  }
  EXPECT_THROW((void)poseidon_constants(3), std::invalid_argument);
}

// neptune parameters/round_constants-1-1-255-9-8-57-<r>.txt: the reference sage script's 585
// constants for t = 9 as 0x-prefixed big-endian hex.
TEST(poseidon_params, GrainMatchesReferenceScriptOutput) {
  const std::string text = cuzk::test::read_file(cuzk::test::filecoin_fixture(
      "poseidon/neptune/round_constants-1-1-255-9-8-57-73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001.txt"));
  ASSERT_FALSE(text.empty()) << "missing fixtures under " << CUZK_FIXTURES_DIR;
  std::vector<fr> expect;
  for (std::size_t i = text.find("'0x"); i != std::string::npos; i = text.find("'0x", i + 1)) {
    const std::size_t e = text.find('\'', i + 1);
    expect.push_back(fr::from_hex(text.substr(i + 1, e - i - 1)));
  }
  ASSERT_EQ(expect.size(), 585u);
  const std::vector<fr> got = poseidon_grain_round_constants(9, 8, 57, 585);
  for (std::size_t i = 0; i < 585; ++i) ASSERT_EQ(got[i], expect[i]) << "constant " << i;
  EXPECT_EQ(poseidon_constants(8).round_constants, expect);
}

// supraseal poseidon/constants/constants_<arity>: 32-byte little-endian Montgomery-form Fr
// (value * 2^256 mod r, the same representation as fr::v), laid out as
// [compressed round constants (8t + R_P)] [MDS t x t] [pre-sparse t x t] [R_P x (w_hat (t), v_rest (t-1))].
class poseidon_supraseal : public ::testing::TestWithParam<std::size_t> {};

TEST_P(poseidon_supraseal, OptimizedConstantsMatchBlob) {
  const std::size_t arity = GetParam();
  const poseidon_params& p = poseidon_constants(arity);
  const std::size_t t = p.width, rp = p.partial_rounds;
  const std::string blob =
      cuzk::test::read_file(cuzk::test::filecoin_fixture("poseidon/supraseal-constants/constants_" + std::to_string(arity)));
  ASSERT_FALSE(blob.empty()) << "missing fixtures under " << CUZK_FIXTURES_DIR;
  const std::size_t n = 8 * t + rp + 2 * t * t + rp * (2 * t - 1);
  ASSERT_EQ(blob.size(), 32 * n);
  std::size_t at = 0;
  auto next = [&] {
    fr f;
    std::memcpy(f.v.w, blob.data() + 32 * at++, 32);  // little-endian host
    return f;
  };
  for (std::size_t i = 0; i < 8 * t + rp; ++i) ASSERT_EQ(next(), p.compressed_round_constants[i]) << "crc " << i;
  for (std::size_t i = 0; i < t * t; ++i) ASSERT_EQ(next(), p.mds.a[i]) << "mds " << i;
  for (std::size_t i = 0; i < t * t; ++i) ASSERT_EQ(next(), p.pre_sparse_matrix.a[i]) << "pre-sparse " << i;
  for (std::size_t r = 0; r < rp; ++r) {
    for (std::size_t i = 0; i < t; ++i) ASSERT_EQ(next(), p.sparse_matrices[r].w_hat[i]) << "round " << r << " w_hat " << i;
    for (std::size_t i = 0; i + 1 < t; ++i)
      ASSERT_EQ(next(), p.sparse_matrices[r].v_rest[i]) << "round " << r << " v_rest " << i;
  }
  EXPECT_EQ(at, n);
  // Unoptimized constants: the first compressed constants are the first Grain round, and the
  // Cauchy matrix entries satisfy M[i][j] (i + t + j) = 1.
  for (std::size_t i = 0; i < t; ++i) EXPECT_EQ(p.round_constants[i], p.compressed_round_constants[i]);
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = 0; j < t; ++j) EXPECT_TRUE((p.mds.at(i, j) * fr::from_u64(i + t + j)).is_one());
}

INSTANTIATE_TEST_SUITE_P(all_arities, poseidon_supraseal, ::testing::ValuesIn(kArities));

// The factorisation identities: M M^-1 = I, and each sparse matrix has neptune's shape.
TEST(poseidon_params, MatrixIdentities) {
  for (std::size_t arity : {2, 8, 11}) {
    const poseidon_params& p = poseidon_constants(arity);
    const std::size_t t = p.width;
    for (std::size_t i = 0; i < t; ++i) {
      for (std::size_t j = 0; j < t; ++j) {
        fr acc = fr::zero();
        for (std::size_t k = 0; k < t; ++k) acc += p.mds.at(i, k) * p.mds_inv.at(k, j);
        EXPECT_EQ(acc, i == j ? fr::one() : fr::zero());
      }
    }
  }
}

// neptune poseidon.rs hash_values_aux (Standard, MerkleTree, preimage [0, 1, ..., arity-1]).
TEST(poseidon_hash, NeptuneVectors) {
  const std::string text = cuzk::test::read_file(cuzk::test::filecoin_fixture("derived_test_vectors.json"));
  ASSERT_FALSE(text.empty());
  std::size_t pos = text.find("\"poseidon_merkletree_standard\"");
  ASSERT_NE(pos, std::string::npos);
  for (std::size_t arity : kArities) {
    const std::string key = "\"arity\": " + std::to_string(arity) + ",";
    pos = text.find(key, pos);
    ASSERT_NE(pos, std::string::npos) << arity;
    const std::string expect = cuzk::test::json_string_after(text, "output", pos);
    std::vector<fr> pre;
    for (std::size_t i = 0; i < arity; ++i) pre.push_back(fr::from_u64(i));
    const poseidon_params& p = poseidon_constants(arity);
    EXPECT_EQ(fr_to_le_hex(poseidon_hash(p, pre)), expect) << "arity " << arity;
    EXPECT_EQ(fr_to_le_hex(poseidon_hash(pre)), expect) << "arity " << arity;
    EXPECT_EQ(fr_to_le_hex(poseidon_hash_reference(p, p.merkle_domain_tag, pre)), expect) << "arity " << arity;
  }
}

TEST(poseidon_hash, RealFilecoinData) {
  const std::string text = cuzk::test::read_file(cuzk::test::filecoin_fixture("derived_test_vectors.json"));
  ASSERT_FALSE(text.empty());
  // A real TreeR (arity 8) node from curio's post.vproof test.
  {
    const std::size_t b = text.find("\"poseidon_arity8_real_tree_node\"");
    std::size_t e = b;
    const std::string out = cuzk::test::json_string_after(text, "output", e);
    std::vector<std::string> hexes = cuzk::test::hex64_strings(text, b, e);
    ASSERT_EQ(hexes.size(), 9u);  // 8 preimage + output
    std::vector<fr> pre;
    for (std::size_t i = 0; i < 8; ++i) pre.push_back(fr_from_le_hex(hexes[i]));
    EXPECT_EQ(fr_to_le_hex(poseidon_hash8(pre.data())), out);
    EXPECT_EQ(fr_to_le_hex(poseidon_hash(pre)), out);
  }
  // comm_r = Poseidon2(comm_c, comm_r_last) of the real 32GiB sector.
  {
    std::size_t at = text.find("\"window_post_32GiB_vanilla_curio\"");
    std::size_t a1 = at, a2 = at, a3 = at;
    const fr comm_r = fr_from_le_hex(cuzk::test::json_string_after(text, "comm_r", a1));
    const fr comm_c = fr_from_le_hex(cuzk::test::json_string_after(text, "comm_c", a2));
    const fr comm_r_last = fr_from_le_hex(cuzk::test::json_string_after(text, "comm_r_last", a3));
    EXPECT_EQ(poseidon_hash2(comm_c, comm_r_last), comm_r);
  }
  // Arity 2 with the SnapDeals custom tag 1 * 2^40 (self-computed by the fixture author, not an
  // upstream vector).
  {
    std::size_t b = text.find("\"poseidon_custom_tag_selfcomputed\"");
    std::size_t e = b;
    const std::string out = cuzk::test::json_string_after(text, "output", e);
    const std::vector<fr> pre = {fr::from_u64(1), fr::from_u64(2)};
    EXPECT_EQ(fr_to_le_hex(poseidon_hash(poseidon_constants(2), poseidon_custom_tag(1), pre)), out);
  }
}

class poseidon_random : public ::testing::TestWithParam<std::size_t> {};

// Optimized (OptimizedStatic) == reference (Correct) on random states, tags and preimages.
TEST_P(poseidon_random, OptimizedMatchesReference) {
  const std::size_t arity = GetParam();
  const poseidon_params& p = poseidon_constants(arity);
  cuzk::test::seeded_rng rng;
  const int iters = arity <= 11 ? 200 : 40;
  for (int iter = 0; iter < iters; ++iter) {
    std::vector<fr> a(p.width), b;
    for (auto& x : a) x = fr::random(rng);
    b = a;
    poseidon_permute(p, a.data());
    poseidon_permute_reference(p, b.data());
    ASSERT_EQ(a, b) << "iteration " << iter;

    std::vector<fr> pre(arity);
    for (auto& x : pre) x = fr::random(rng);
    const fr tag = iter % 2 ? p.merkle_domain_tag : fr::random(rng);
    ASSERT_EQ(poseidon_hash(p, tag, pre), poseidon_hash_reference(p, tag, pre));
    // Short preimages are zero-padded.
    const std::size_t len = rng() % (arity + 1);
    std::vector<fr> padded(pre.begin(), pre.begin() + len);
    std::vector<fr> full = padded;
    full.resize(arity, fr::zero());
    ASSERT_EQ(poseidon_hash(p, tag, padded), poseidon_hash_reference(p, tag, full));
  }
  // Edge states: all zero, all p - 1.
  for (const fr& v : {fr::zero(), -fr::one()}) {
    std::vector<fr> a(p.width, v), b = a;
    poseidon_permute(p, a.data());
    poseidon_permute_reference(p, b.data());
    ASSERT_EQ(a, b);
  }
}

INSTANTIATE_TEST_SUITE_P(all_arities, poseidon_random, ::testing::ValuesIn(kArities));

// A width outside the specialised set takes the run-time-width path.
TEST(poseidon_hash, GenericWidthMatchesReference) {
  const poseidon_params p = make_poseidon_params(3, 8, 56);
  cuzk::test::seeded_rng rng;
  for (int iter = 0; iter < 50; ++iter) {
    std::vector<fr> a(p.width), b;
    for (auto& x : a) x = fr::random(rng);
    b = a;
    poseidon_permute(p, a.data());
    poseidon_permute_reference(p, b.data());
    ASSERT_EQ(a, b) << "iteration " << iter;
  }
}

TEST(poseidon_hash, FixedArityFormsMatchGeneric) {
  cuzk::test::seeded_rng rng;
  for (int iter = 0; iter < 50; ++iter) {
    fr in[11];
    for (auto& x : in) x = fr::random(rng);
    EXPECT_EQ(poseidon_hash2(in[0], in[1]), poseidon_hash(std::span<const fr>(in, 2)));
    EXPECT_EQ(poseidon_hash4(in), poseidon_hash(std::span<const fr>(in, 4)));
    EXPECT_EQ(poseidon_hash8(in), poseidon_hash(std::span<const fr>(in, 8)));
    EXPECT_EQ(poseidon_hash11(in), poseidon_hash(std::span<const fr>(in, 11)));
  }
  const std::vector<fr> three(3, fr::one());
  EXPECT_THROW((void)poseidon_hash(poseidon_constants(4), three), std::invalid_argument);
}

// filecoin-hashers hash_md: chained arity-36 hashes, acc first, zero padding in the last chunk.
TEST(poseidon_hash, HashMdMatchesDefinition) {
  cuzk::test::seeded_rng rng;
  const poseidon_params& p = poseidon_constants(36);
  for (std::size_t n : {2, 36, 37, 71, 100}) {
    std::vector<fr> in(n);
    for (auto& x : in) x = fr::random(rng);
    fr acc = in[0];
    for (std::size_t off = 1; off < n; off += 35) {
      std::vector<fr> pre(36, fr::zero());
      pre[0] = acc;
      for (std::size_t i = 0; i < 35 && off + i < n; ++i) pre[1 + i] = in[off + i];
      acc = poseidon_hash_reference(p, p.merkle_domain_tag, pre);
    }
    EXPECT_EQ(poseidon_hash_md(in), acc) << n;
  }
}

// The delayed-reduction dot product behind the matrix products, at its extremes (all terms
// (r-1)^2, the largest accumulator) and on random inputs, against the naive sum.
TEST(poseidon_hash, DotProductMatchesNaiveSum) {
  cuzk::test::seeded_rng rng;
  std::vector<fr> a(128), b(128);
  for (std::size_t n = 0; n <= 128; ++n) {
    for (int mode = 0; mode < 3; ++mode) {
      for (std::size_t i = 0; i < n; ++i) {
        a[i] = mode == 0 ? -fr::one() : fr::random(rng);
        b[i] = mode == 0 ? -fr::one() : mode == 1 ? fr::random(rng) : -fr::from_u64(rng() % 4);
      }
      fr naive = fr::zero();
      for (std::size_t i = 0; i < n; ++i) naive += a[i] * b[i];
      ASSERT_EQ(fr_dot_product(a.data(), b.data(), n), naive) << "n " << n << " mode " << mode;
    }
  }
  EXPECT_THROW((void)fr_dot_product(a.data(), b.data(), 129), std::invalid_argument);
}

TEST(poseidon_params, DomainTags) {
  EXPECT_EQ(poseidon_merkle_tag(8), fr::from_u64(255));
  EXPECT_EQ(poseidon_custom_tag(1), fr::from_u64(uint64_t{1} << 40));
  EXPECT_EQ(poseidon_constant_length_tag(3), fr::from_u64(3) * fr::from_u64(uint64_t{1} << 32) * fr::from_u64(uint64_t{1} << 32));
  EXPECT_THROW((void)poseidon_custom_tag(0), std::invalid_argument);
  EXPECT_THROW((void)poseidon_custom_tag(257), std::invalid_argument);
}

}  // namespace
