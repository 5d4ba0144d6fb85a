// Proof encoding: round trips, the 192-byte layout, and precise decode errors per element.
#include <gtest/gtest.h>

#include "groth16/proof.hpp"
#include "support/seed.hpp"
#include "unit/groth16/test_util.hpp"

namespace cuzk::groth16 {
namespace {

using test::random_curve_point;
using test::random_subgroup_point;

template <class Rng>
proof random_proof(Rng& rng) {
  return {random_subgroup_point<ec::g1_curve>(rng), random_subgroup_point<ec::g2_curve>(rng),
          random_subgroup_point<ec::g1_curve>(rng)};
}

TEST(Groth16Proof, RoundTripAndLayout) {
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 4; ++i) {
    const proof p = random_proof(rng);
    const auto bytes = encode_proof(p);
    // A || B || C, each the Zcash compressed encoding.
    std::array<uint8_t, 48> a;
    std::array<uint8_t, 96> b;
    std::array<uint8_t, 48> c;
    ec::encode_g1_compressed(p.a, a);
    ec::encode_g2_compressed(p.b, b);
    ec::encode_g1_compressed(p.c, c);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), bytes.begin()));
    EXPECT_TRUE(std::equal(b.begin(), b.end(), bytes.begin() + 48));
    EXPECT_TRUE(std::equal(c.begin(), c.end(), bytes.begin() + 144));
    proof q;
    ASSERT_TRUE(decode_proof(bytes, q).ok());
    EXPECT_EQ(p, q);
  }
}

TEST(Groth16Proof, ManyRoundTripAndIndexInErrors) {
  cuzk::test::seeded_rng rng;
  std::vector<proof> ps = {random_proof(rng), random_proof(rng), random_proof(rng)};
  std::vector<uint8_t> bytes;
  append_proofs(ps, bytes);
  ASSERT_EQ(bytes.size(), 3 * proof_bytes);
  std::vector<proof> back;
  ASSERT_TRUE(decode_proofs(bytes, back).ok());
  EXPECT_EQ(back, ps);

  // Break proof 2's C: the error names proof index 2, element C, absolute offset.
  std::vector<uint8_t> bad = bytes;
  bad[2 * proof_bytes + proof_offset_c] &= 0x7f;  // clear the compression flag
  std::vector<proof> untouched = {ps[0]};
  read_error e = decode_proofs(bad, untouched);
  EXPECT_EQ(e.code, read_errc::bad_point);
  EXPECT_EQ(e.section, section::proof_c);
  EXPECT_EQ(e.index, 2u);
  EXPECT_EQ(e.offset, 2 * proof_bytes + proof_offset_c);
  EXPECT_EQ(e.point, ec::decode_error::compression_flag_mismatch);
  EXPECT_EQ(untouched.size(), 1u);
  EXPECT_NE(e.message().find("proof.c[2]"), std::string::npos) << e.message();

  for (std::size_t n : {std::size_t{0}, std::size_t{191}, std::size_t{193}, std::size_t{385}}) {
    e = decode_proofs(std::span<const uint8_t>(bytes.data(), std::min(n, bytes.size())), back);
    EXPECT_EQ(e.code, read_errc::wrong_size) << n;
    EXPECT_EQ(e.count, std::min(n, bytes.size()));
  }
}

TEST(Groth16Proof, ElementErrors) {
  cuzk::test::seeded_rng rng;
  const proof p = random_proof(rng);
  const auto good = encode_proof(p);
  struct element {
    section s;
    std::size_t offset, size;
  };
  const element elements[] = {{section::proof_a, proof_offset_a, 48},
                              {section::proof_b, proof_offset_b, 96},
                              {section::proof_c, proof_offset_c, 48}};
  for (const element& el : elements) {
    SCOPED_TRACE(to_string(el.s));
    proof out = p;
    // Identity (0xc0 00..): valid encoding, forbidden in a proof.
    auto bytes = good;
    std::fill(bytes.begin() + el.offset, bytes.begin() + el.offset + el.size, 0);
    bytes[el.offset] = 0xc0;
    read_error e = decode_proof(bytes, out);
    EXPECT_EQ(e.code, read_errc::identity_point);
    EXPECT_EQ(e.section, el.s);
    EXPECT_EQ(e.offset, el.offset);
    // Sign flag on the identity.
    bytes[el.offset] = 0xe0;
    e = decode_proof(bytes, out);
    EXPECT_EQ(e.code, read_errc::bad_point);
    EXPECT_EQ(e.point, ec::decode_error::infinity_with_sign);
    EXPECT_EQ(e.section, el.s);
    // Coordinate >= p.
    bytes = good;
    std::fill(bytes.begin() + el.offset, bytes.begin() + el.offset + el.size, 0xff);
    bytes[el.offset] = 0x9f;
    e = decode_proof(bytes, out);
    EXPECT_EQ(e.point, ec::decode_error::coordinate_not_canonical);
    EXPECT_EQ(e.section, el.s);
    // Off the subgroup: rejected with the check, accepted without.
    bytes = good;
    if (el.s == section::proof_b) {
      const auto q = random_curve_point<ec::g2_curve>(rng);
      ec::encode_g2_compressed(q, std::span<uint8_t, 96>(bytes.data() + el.offset, 96));
    } else {
      const auto q = random_curve_point<ec::g1_curve>(rng);
      ec::encode_g1_compressed(q, std::span<uint8_t, 48>(bytes.data() + el.offset, 48));
    }
    e = decode_proof(bytes, out);
    EXPECT_EQ(e.code, read_errc::bad_point);
    EXPECT_EQ(e.point, ec::decode_error::not_in_subgroup);
    EXPECT_EQ(e.section, el.s);
    EXPECT_EQ(out, p);  // untouched on failure
    EXPECT_TRUE(decode_proof(bytes, out, ec::subgroup_check::skip).ok());
  }
}

}  // namespace
}  // namespace cuzk::groth16
