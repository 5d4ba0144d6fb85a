// The real 32 GiB WindowPoSt vanilla proof (curio/post.vproof): decoded exactly, every path
// hashes to comm_r_last with the leaf index of the derived challenge, comm_r =
// Poseidon2(comm_c, comm_r_last); and the decoder's errors on damaged input (every truncation,
// trailing bytes, a bad tag, a non-canonical value, an index out of range, a huge count).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "gadgets/native/merkle_tree.hpp"
#include "gadgets/native/poseidon_native.hpp"
#include "gadgets/native/post_vanilla_proof.hpp"
#include "unit/gadgets_native/fixture_text.hpp"

namespace {

using namespace cuzk::gadgets::native;
using cuzk::test::fr_from_le_hex;

std::vector<uint8_t> vproof_bytes() {
  const std::string s = cuzk::test::read_file(cuzk::test::filecoin_fixture("curio/post.vproof"));
  return std::vector<uint8_t>(s.begin(), s.end());
}

TEST(post_vproof, RealProofPathsHashToCommRLast) {
  const std::vector<uint8_t> bytes = vproof_bytes();
  ASSERT_EQ(bytes.size(), 24960u) << "missing fixtures under " << CUZK_FIXTURES_DIR;
  const std::string text = cuzk::test::read_file(cuzk::test::filecoin_fixture("derived_test_vectors.json"));
  const std::size_t at = text.find("\"window_post_32GiB_vanilla_curio\"");
  ASSERT_NE(at, std::string::npos);
  std::size_t a1 = at, a2 = at, a3 = at;
  const fr comm_r = fr_from_le_hex(cuzk::test::json_string_after(text, "comm_r", a1));
  const fr comm_c = fr_from_le_hex(cuzk::test::json_string_after(text, "comm_c", a2));
  const fr comm_r_last = fr_from_le_hex(cuzk::test::json_string_after(text, "comm_r_last", a3));
  const std::size_t lc = text.find("\"leaf_challenges\"", at), lv = text.find("\"inclusion_proof_leaves\"", at);
  std::vector<uint64_t> challenges;
  for (std::size_t i = text.find_first_of("0123456789", lc); i < text.find(']', lc); i = text.find_first_of("0123456789", text.find_first_not_of("0123456789", i)))
    challenges.push_back(std::stoull(text.substr(i)));
  const std::vector<std::string> leaves = cuzk::test::hex64_strings(text, lv, text.find(']', lv));
  ASSERT_EQ(challenges.size(), 10u);
  ASSERT_EQ(leaves.size(), 10u);

  fallback_post_sector_proof p;
  const vproof_error e = decode_fallback_post_sector_proof(bytes, p);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(p.sector_id, 1u);
  EXPECT_EQ(p.comm_r, comm_r);
  ASSERT_EQ(p.sectors.size(), 1u);
  const post_sector_proof& s = p.sectors[0];
  EXPECT_EQ(s.comm_c, comm_c);
  EXPECT_EQ(s.comm_r_last, comm_r_last);
  EXPECT_EQ(poseidon_hash2(s.comm_c, s.comm_r_last), p.comm_r);
  ASSERT_EQ(s.inclusion_proofs.size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) {
    const post_merkle_proof& m = s.inclusion_proofs[i];
    EXPECT_EQ(m.kind, merkle_proof_kind::sub);
    ASSERT_EQ(m.base.size(), 9u);  // 2^27-leaf oct base trees
    ASSERT_EQ(m.sub.size(), 1u);   // 8 base trees
    EXPECT_TRUE(m.top.empty());
    for (const auto& l : m.levels()) EXPECT_EQ(l.siblings.size(), 7u);
    EXPECT_EQ(m.root, comm_r_last);
    EXPECT_EQ(m.leaf, fr_from_le_hex(leaves[i]));
    const auto levels = m.levels();
    EXPECT_EQ(merkle_path_leaf_index<fr>(levels), challenges[i]) << i;
    EXPECT_EQ(merkle_path_root<poseidon_node_hasher>(m.leaf, levels), comm_r_last) << i;
  }
}

TEST(post_vproof, EveryTruncationIsAnError) {
  const std::vector<uint8_t> bytes = vproof_bytes();
  ASSERT_FALSE(bytes.empty());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    fallback_post_sector_proof p;
    const vproof_error e = decode_fallback_post_sector_proof(std::span(bytes.data(), n), p);
    ASSERT_TRUE(e.code == vproof_errc::truncated || e.code == vproof_errc::count_exceeds_input) << n << ": " << e.message();
    ASSERT_LE(e.offset, n);
  }
}

vproof_error decode_modified(std::size_t offset, std::span<const uint8_t> patch, std::size_t extra = 0) {
  std::vector<uint8_t> bytes = vproof_bytes();
  if (!patch.empty()) std::memcpy(bytes.data() + offset, patch.data(), patch.size());
  bytes.resize(bytes.size() + extra, 0);
  fallback_post_sector_proof p;
  return decode_fallback_post_sector_proof(bytes, p);
}

TEST(post_vproof, PreciseErrors) {
  // Layout: sector_id @0, comm_r @8, sectors.len @40, inclusion_proofs.len @48, proof 0's
  // variant @56, base.len @60, base[0].hashes.len @68, 7 hashes @76, base[0].index @300.
  {
    const vproof_error e = decode_modified(0, std::span<const uint8_t>(), 1);
    EXPECT_EQ(e.code, vproof_errc::trailing_bytes);
    EXPECT_EQ(e.offset, 24960u);
    EXPECT_EQ(e.value, 1u);
  }
  {
    const uint8_t tag[4] = {3, 0, 0, 0};
    const vproof_error e = decode_modified(56, tag);
    EXPECT_EQ(e.code, vproof_errc::bad_variant);
    EXPECT_EQ(e.offset, 56u);
    EXPECT_EQ(e.field, "sectors[0].inclusion_proofs[0].variant");
  }
  {
    std::vector<uint8_t> big(32, 0xff);
    const vproof_error e = decode_modified(8, big);
    EXPECT_EQ(e.code, vproof_errc::non_canonical_fr);
    EXPECT_EQ(e.field, "comm_r");
    EXPECT_EQ(e.offset, 8u);
  }
  {
    std::vector<uint8_t> big(32, 0xff);
    const vproof_error e = decode_modified(76 + 32 * 5, big);
    EXPECT_EQ(e.code, vproof_errc::non_canonical_fr);
    EXPECT_EQ(e.field, "sectors[0].inclusion_proofs[0].base[0].hashes[5]");
  }
  {
    const uint8_t idx[8] = {8, 0, 0, 0, 0, 0, 0, 0};
    const vproof_error e = decode_modified(300, idx);
    EXPECT_EQ(e.code, vproof_errc::index_out_of_range);
    EXPECT_EQ(e.offset, 300u);
    EXPECT_EQ(e.value, 8u);
    EXPECT_EQ(e.field, "sectors[0].inclusion_proofs[0].base[0].index");
    EXPECT_EQ(e.message(), "sectors[0].inclusion_proofs[0].base[0].index at offset 300: path element index out of range (8)");
  }
  {
    const uint8_t huge[8] = {0, 0, 0, 0, 0, 0, 0, 0x10};
    const vproof_error e = decode_modified(40, huge);
    EXPECT_EQ(e.code, vproof_errc::count_exceeds_input);
    EXPECT_EQ(e.field, "sectors.len");
    EXPECT_EQ(e.value, uint64_t{1} << 60);
  }
}

}  // namespace
