// Encoding round trips on random points, and every malformed class rejected with its own
// error, for G1 and G2, compressed and uncompressed (bad inputs are mutated valid encodings).
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#include "ec/encoding.hpp"
#include "ec_test_util.hpp"
#include "support/seed.hpp"

namespace cuzk::ec::test {
namespace {

// Uniform access to the four codecs of one group.
template <class Curve>
struct codec;

template <>
struct codec<g1_curve> {
  static constexpr std::size_t compressed = g1_compressed_bytes;
  static constexpr std::size_t uncompressed = g1_uncompressed_bytes;
  static constexpr std::size_t fp_components = 1;
  static void enc_c(const g1_affine& p, uint8_t* o) { encode_g1_compressed(p, std::span<uint8_t, 48>(o, 48)); }
  static void enc_u(const g1_affine& p, uint8_t* o) { encode_g1_uncompressed(p, std::span<uint8_t, 96>(o, 96)); }
  static decode_error dec_c(const uint8_t* i, g1_affine& p, subgroup_check s = subgroup_check::verify) {
    return decode_g1_compressed(std::span<const uint8_t, 48>(i, 48), p, s);
  }
  static decode_error dec_u(const uint8_t* i, g1_affine& p, subgroup_check s = subgroup_check::verify) {
    return decode_g1_uncompressed(std::span<const uint8_t, 96>(i, 96), p, s);
  }
  static decode_error dec(std::span<const uint8_t> i, g1_affine& p) { return decode_g1(i, p); }
};

template <>
struct codec<g2_curve> {
  static constexpr std::size_t compressed = g2_compressed_bytes;
  static constexpr std::size_t uncompressed = g2_uncompressed_bytes;
  static constexpr std::size_t fp_components = 2;
  static void enc_c(const g2_affine& p, uint8_t* o) { encode_g2_compressed(p, std::span<uint8_t, 96>(o, 96)); }
  static void enc_u(const g2_affine& p, uint8_t* o) { encode_g2_uncompressed(p, std::span<uint8_t, 192>(o, 192)); }
  static decode_error dec_c(const uint8_t* i, g2_affine& p, subgroup_check s = subgroup_check::verify) {
    return decode_g2_compressed(std::span<const uint8_t, 96>(i, 96), p, s);
  }
  static decode_error dec_u(const uint8_t* i, g2_affine& p, subgroup_check s = subgroup_check::verify) {
    return decode_g2_uncompressed(std::span<const uint8_t, 192>(i, 192), p, s);
  }
  static decode_error dec(std::span<const uint8_t> i, g2_affine& p) { return decode_g2(i, p); }
};

template <class Curve>
class ec_codec : public ::testing::Test {};
using curves = ::testing::Types<g1_curve, g2_curve>;
TYPED_TEST_SUITE(ec_codec, curves);

// Writes p (the field modulus) big-endian into 48 bytes.
void write_modulus(uint8_t* out) {
  for (std::size_t i = 0; i < 48; ++i) out[47 - i] = static_cast<uint8_t>(fp::modulus.w[i / 8] >> (8 * (i % 8)));
}
// p + 1, p - 1 style neighbours: add a small delta to a big-endian 48-byte integer.
void add_small(uint8_t* be, unsigned delta) {
  unsigned carry = delta;
  for (std::size_t i = 48; i-- > 0 && carry;) {
    unsigned v = be[i] + carry;
    be[i] = static_cast<uint8_t>(v);
    carry = v >> 8;
  }
}

TYPED_TEST(ec_codec, RoundTripRandomPoints) {
  using C = codec<TypeParam>;
  using aff = affine_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  for (int it = 0; it < 24; ++it) {
    aff p = (it == 0) ? aff::identity() : random_subgroup_point<TypeParam>(rng).to_affine();
    if (it == 1) p = -p;
    std::array<uint8_t, C::uncompressed> u{};
    std::array<uint8_t, C::compressed> c{};
    C::enc_c(p, c.data());
    C::enc_u(p, u.data());
    EXPECT_TRUE(c[0] & 0x80);
    EXPECT_FALSE(u[0] & 0xa0);
    aff q, r;
    ASSERT_EQ(C::dec_c(c.data(), q), decode_error::ok);
    ASSERT_EQ(C::dec_u(u.data(), r), decode_error::ok);
    EXPECT_EQ(q, p);
    EXPECT_EQ(r, p);
    if (!p.infinity) {
      EXPECT_EQ(q.y, p.y);  // the sign bit selected the right root
      EXPECT_EQ(static_cast<bool>(c[0] & 0x20), p.y.is_lexicographically_largest());
      // -P differs only in the sign bit.
      std::array<uint8_t, C::compressed> cn{};
      C::enc_c(-p, cn.data());
      EXPECT_EQ(cn[0] ^ c[0], 0x20);
      EXPECT_TRUE(std::equal(cn.begin() + 1, cn.end(), c.begin() + 1));
    }
    // Dynamic-length decode.
    aff s;
    EXPECT_EQ(C::dec(std::span<const uint8_t>(c), s), decode_error::ok);
    EXPECT_EQ(s, p);
    EXPECT_EQ(C::dec(std::span<const uint8_t>(u), s), decode_error::ok);
    EXPECT_EQ(s, p);
  }
}

TYPED_TEST(ec_codec, RejectsWrongLength) {
  using C = codec<TypeParam>;
  std::vector<uint8_t> buf(C::uncompressed + 1, 0);
  affine_point<TypeParam> out;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, C::compressed - 1, C::compressed + 1, C::uncompressed - 1,
                        C::uncompressed + 1}) {
    EXPECT_EQ(C::dec(std::span<const uint8_t>(buf.data(), n), out), decode_error::wrong_length) << n;
  }
}

TYPED_TEST(ec_codec, RejectsCompressionFlagMismatch) {
  using C = codec<TypeParam>;
  cuzk::test::seeded_rng rng;
  auto p = random_subgroup_point<TypeParam>(rng).to_affine();
  affine_point<TypeParam> out;
  std::array<uint8_t, C::compressed> c{};
  std::array<uint8_t, C::uncompressed> u{};
  C::enc_c(p, c.data());
  C::enc_u(p, u.data());
  c[0] &= 0x7f;
  EXPECT_EQ(C::dec_c(c.data(), out), decode_error::compression_flag_mismatch);
  EXPECT_EQ(C::dec(std::span<const uint8_t>(c), out), decode_error::compression_flag_mismatch);
  u[0] |= 0x80;
  EXPECT_EQ(C::dec_u(u.data(), out), decode_error::compression_flag_mismatch);
  EXPECT_EQ(C::dec(std::span<const uint8_t>(u), out), decode_error::compression_flag_mismatch);
  // Infinity in the wrong form.
  C::enc_c(affine_point<TypeParam>::identity(), c.data());
  c[0] &= 0x7f;
  EXPECT_EQ(C::dec_c(c.data(), out), decode_error::compression_flag_mismatch);
  C::enc_u(affine_point<TypeParam>::identity(), u.data());
  u[0] |= 0x80;
  EXPECT_EQ(C::dec_u(u.data(), out), decode_error::compression_flag_mismatch);
}

TYPED_TEST(ec_codec, RejectsSignOnUncompressed) {
  using C = codec<TypeParam>;
  cuzk::test::seeded_rng rng;
  auto p = random_subgroup_point<TypeParam>(rng).to_affine();
  affine_point<TypeParam> out;
  std::array<uint8_t, C::uncompressed> u{};
  C::enc_u(p, u.data());
  u[0] |= 0x20;
  EXPECT_EQ(C::dec_u(u.data(), out), decode_error::sign_flag_on_uncompressed);
  C::enc_u(affine_point<TypeParam>::identity(), u.data());
  u[0] |= 0x20;
  EXPECT_EQ(C::dec_u(u.data(), out), decode_error::sign_flag_on_uncompressed);
}

TYPED_TEST(ec_codec, RejectsMalformedInfinity) {
  using C = codec<TypeParam>;
  affine_point<TypeParam> out;
  const auto o = affine_point<TypeParam>::identity();
  std::array<uint8_t, C::compressed> c{};
  std::array<uint8_t, C::uncompressed> u{};

  C::enc_c(o, c.data());
  EXPECT_EQ(c[0], 0xc0);
  c[0] |= 0x20;
  EXPECT_EQ(C::dec_c(c.data(), out), decode_error::infinity_with_sign);

  // Any other nonzero bit: the low 5 bits of byte 0, or any later byte.
  for (std::size_t pos : {std::size_t{0}, std::size_t{1}, C::compressed / 2, C::compressed - 1}) {
    C::enc_c(o, c.data());
    c[pos] |= (pos == 0) ? 0x01 : 0x80;
    EXPECT_EQ(C::dec_c(c.data(), out), decode_error::noncanonical_infinity) << pos;
  }
  for (std::size_t pos : {std::size_t{0}, std::size_t{1}, C::uncompressed / 2, C::uncompressed - 1}) {
    C::enc_u(o, u.data());
    EXPECT_EQ(u[0], 0x40);
    u[pos] |= (pos == 0) ? 0x10 : 0x01;
    EXPECT_EQ(C::dec_u(u.data(), out), decode_error::noncanonical_infinity) << pos;
  }
  // A valid point's coordinates with the infinity flag set.
  cuzk::test::seeded_rng rng;
  auto p = random_subgroup_point<TypeParam>(rng).to_affine();
  C::enc_c(p, c.data());
  c[0] = static_cast<uint8_t>((c[0] & 0x9f) | 0x40);
  EXPECT_EQ(C::dec_c(c.data(), out), decode_error::noncanonical_infinity);
  C::enc_u(p, u.data());
  u[0] |= 0x40;
  EXPECT_EQ(C::dec_u(u.data(), out), decode_error::noncanonical_infinity);
}

TYPED_TEST(ec_codec, RejectsNonCanonicalCoordinates) {
  using C = codec<TypeParam>;
  cuzk::test::seeded_rng rng;
  auto p = random_subgroup_point<TypeParam>(rng).to_affine();
  affine_point<TypeParam> out;
  std::array<uint8_t, C::compressed> c{};
  std::array<uint8_t, C::uncompressed> u{};
  // Each Fp component of x (and, uncompressed, of y) set to p, p + 1, and 2^381 - 1, with the
  // other components left valid.
  for (std::size_t comp = 0; comp < 2 * C::fp_components; ++comp) {
    for (int variant = 0; variant < 3; ++variant) {
      auto mutate = [&](uint8_t* at) {
        if (variant == 2) {
          std::memset(at, 0xff, 48);
          at[0] = 0x1f;
        } else {
          write_modulus(at);
          add_small(at, static_cast<unsigned>(variant));
        }
      };
      if (comp < C::fp_components) {
        C::enc_c(p, c.data());
        const uint8_t flags = c[0] & 0xe0;
        mutate(c.data() + 48 * comp);
        c[0] |= flags;
        EXPECT_EQ(C::dec_c(c.data(), out), decode_error::coordinate_not_canonical) << comp << "/" << variant;
      }
      C::enc_u(p, u.data());
      mutate(u.data() + 48 * comp);
      EXPECT_EQ(C::dec_u(u.data(), out), decode_error::coordinate_not_canonical) << comp << "/" << variant;
    }
  }
  // p - 1 is canonical: it gets past the range check (and then fails as a curve point or not).
  C::enc_u(p, u.data());
  write_modulus(u.data());
  u[47] = static_cast<uint8_t>(u[47] - 1);
  EXPECT_NE(C::dec_u(u.data(), out), decode_error::coordinate_not_canonical);
}

TYPED_TEST(ec_codec, RejectsPointsNotOnCurve) {
  using C = codec<TypeParam>;
  using field = typename TypeParam::field;
  using aff = affine_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  affine_point<TypeParam> out;
  std::array<uint8_t, C::compressed> c{};
  std::array<uint8_t, C::uncompressed> u{};
  // Compressed: an x for which x^3 + b is not a square, written with a valid point's flags.
  auto p = random_subgroup_point<TypeParam>(rng).to_affine();
  field x;
  for (;;) {
    x = field::random(rng);
    field y;
    if (!(x.square() * x + TypeParam::b).sqrt(y)) break;
  }
  aff fake{x, field::one(), false};
  C::enc_c(fake, c.data());
  for (uint8_t sign : {uint8_t{0}, uint8_t{0x20}}) {
    c[0] = static_cast<uint8_t>((c[0] & 0x1f) | 0x80 | sign);
    EXPECT_EQ(C::dec_c(c.data(), out), decode_error::not_on_curve);
    EXPECT_EQ(C::dec_c(c.data(), out, subgroup_check::skip), decode_error::not_on_curve);
  }
  // Uncompressed: a valid point with y changed, and (0, 0).
  aff bad = p;
  bad.y = bad.y + field::one();
  C::enc_u(bad, u.data());
  EXPECT_EQ(C::dec_u(u.data(), out), decode_error::not_on_curve);
  u.fill(0);
  EXPECT_EQ(C::dec_u(u.data(), out), decode_error::not_on_curve);
  // Flipping a bit of x in the uncompressed form.
  C::enc_u(p, u.data());
  u[C::uncompressed / 2 - 1] ^= 1;
  EXPECT_EQ(C::dec_u(u.data(), out), decode_error::not_on_curve);
}

TYPED_TEST(ec_codec, RejectsPointsOutsideSubgroup) {
  using C = codec<TypeParam>;
  cuzk::test::seeded_rng rng;
  std::array<uint8_t, C::compressed> c{};
  std::array<uint8_t, C::uncompressed> u{};
  for (int it = 0; it < 4; ++it) {
    auto p = random_curve_point<TypeParam>(rng);
    C::enc_c(p, c.data());
    C::enc_u(p, u.data());
    affine_point<TypeParam> out = affine_point<TypeParam>::generator();
    EXPECT_EQ(C::dec_c(c.data(), out), decode_error::not_in_subgroup);
    EXPECT_EQ(C::dec_u(u.data(), out), decode_error::not_in_subgroup);
    EXPECT_EQ(out, affine_point<TypeParam>::generator()) << "out untouched on failure";
    // Skipping the check accepts the (on-curve) point.
    ASSERT_EQ(C::dec_c(c.data(), out, subgroup_check::skip), decode_error::ok);
    EXPECT_EQ(out, p);
    ASSERT_EQ(C::dec_u(u.data(), out, subgroup_check::skip), decode_error::ok);
    EXPECT_EQ(out, p);
  }
}

TEST(ec_encoding, ErrorNamesAreDistinct) {
  const decode_error all[] = {decode_error::ok,
                              decode_error::wrong_length,
                              decode_error::compression_flag_mismatch,
                              decode_error::sign_flag_on_uncompressed,
                              decode_error::infinity_with_sign,
                              decode_error::noncanonical_infinity,
                              decode_error::coordinate_not_canonical,
                              decode_error::not_on_curve,
                              decode_error::not_in_subgroup};
  for (auto a : all) {
    for (auto b : all) {
      if (a != b) {
        EXPECT_STRNE(to_string(a), to_string(b));
      }
    }
  }
  EXPECT_STREQ(to_string(decode_error::ok), "ok");
}

TEST(ec_encoding, GeneratorsMatchKnownEncodings) {
  // The first bytes of the standard generators' compressed encodings (0x97f1d3a7..., 0x93e02b60...).
  std::array<uint8_t, 48> c1{};
  encode_g1_compressed(g1_affine::generator(), c1);
  EXPECT_EQ(c1[0], 0x97);
  EXPECT_EQ(c1[1], 0xf1);
  std::array<uint8_t, 96> c2{};
  encode_g2_compressed(g2_affine::generator(), c2);
  EXPECT_EQ(c2[0], 0x93);  // x.c1 comes first
  EXPECT_EQ(c2[1], 0xe0);
  EXPECT_EQ(c2[48], 0x02);  // then x.c0
  EXPECT_EQ(c2[49], 0x4a);
}

}  // namespace
}  // namespace cuzk::ec::test
