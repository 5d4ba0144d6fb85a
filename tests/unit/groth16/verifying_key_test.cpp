// .vk format: round trips (memory and file), layout, and precise structural errors.
#include <gtest/gtest.h>

#include <cerrno>

#include "groth16/verifying_key.hpp"
#include "support/seed.hpp"
#include "unit/groth16/test_util.hpp"

namespace cuzk::groth16 {
namespace {

using test::random_subgroup_point;
using test::random_subgroup_points;

template <class Rng>
verifying_key random_vk(Rng& rng, std::size_t ic) {
  verifying_key vk;
  vk.alpha_g1 = random_subgroup_point<ec::g1_curve>(rng);
  vk.beta_g1 = random_subgroup_point<ec::g1_curve>(rng);
  vk.beta_g2 = random_subgroup_point<ec::g2_curve>(rng);
  vk.gamma_g2 = random_subgroup_point<ec::g2_curve>(rng);
  vk.delta_g1 = random_subgroup_point<ec::g1_curve>(rng);
  vk.delta_g2 = random_subgroup_point<ec::g2_curve>(rng);
  vk.ic = random_subgroup_points<ec::g1_curve>(rng, ic);
  return vk;
}

TEST(Groth16VerifyingKey, RoundTripAndLayout) {
  cuzk::test::seeded_rng rng;
  const verifying_key vk = random_vk(rng, 4);
  const std::vector<uint8_t> bytes = encode_verifying_key(vk);
  ASSERT_EQ(bytes.size(), verifying_key_size(4));
  ASSERT_EQ(bytes.size(), 868u + 96 * 4);
  // Spot-check the layout: uncompressed points at the documented offsets, u32-BE ic length.
  std::array<uint8_t, 192> g2;
  ec::encode_g2_uncompressed(vk.delta_g2, g2);
  EXPECT_TRUE(std::equal(g2.begin(), g2.end(), bytes.begin() + vk_offset_delta_g2));
  std::array<uint8_t, 96> g1;
  ec::encode_g1_uncompressed(vk.ic[3], g1);
  EXPECT_TRUE(std::equal(g1.begin(), g1.end(), bytes.begin() + vk_offset_ic + 3 * 96));
  EXPECT_EQ(bytes[vk_offset_ic_len + 0], 0);
  EXPECT_EQ(bytes[vk_offset_ic_len + 3], 4);

  verifying_key back;
  ASSERT_TRUE(decode_verifying_key(bytes, back).ok());
  EXPECT_EQ(back, vk);

  test::temp_path tmp("rt.vk");
  ASSERT_TRUE(write_verifying_key_file(tmp.path, vk).ok());
  verifying_key from_file;
  read_error e = read_verifying_key_file(tmp.path, from_file);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(from_file, vk);
}

TEST(Groth16VerifyingKey, StructuralErrors) {
  cuzk::test::seeded_rng rng;
  const verifying_key vk = random_vk(rng, 2);
  const std::vector<uint8_t> bytes = encode_verifying_key(vk);
  verifying_key out = vk;

  // Every truncation names the element the input ends in.
  struct element {
    section s;
    std::size_t start, size;
    bool run;
  };
  const element layout[] = {{section::alpha_g1, 0, 96, false},   {section::beta_g1, 96, 96, false},
                            {section::beta_g2, 192, 192, false}, {section::gamma_g2, 384, 192, false},
                            {section::delta_g1, 576, 96, false}, {section::delta_g2, 672, 192, false},
                            {section::ic_len, 864, 4, false},    {section::ic, 868, 192, true}};
  for (std::size_t t = 0; t < bytes.size(); ++t) {
    read_error e = decode_verifying_key(std::span<const uint8_t>(bytes.data(), t), out);
    const element* el = nullptr;
    for (const element& x : layout) {
      if (t < x.start + x.size) {
        el = &x;
        break;
      }
    }
    ASSERT_NE(el, nullptr);
    ASSERT_EQ(e.code, el->run ? read_errc::length_exceeds_file : read_errc::truncated) << t << " " << e.message();
    ASSERT_EQ(e.section, el->s) << t;
    ASSERT_EQ(e.offset, el->start) << t;
    ASSERT_EQ(e.available, t - el->start) << t;
    if (el->run) {
      ASSERT_EQ(e.count, 2u);
    }
  }
  EXPECT_EQ(out, vk);  // untouched by every failure

  // Trailing bytes.
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  read_error e = decode_verifying_key(longer, out);
  EXPECT_EQ(e.code, read_errc::trailing_bytes);
  EXPECT_EQ(e.section, section::end);
  EXPECT_EQ(e.offset, bytes.size());
  EXPECT_EQ(e.count, 1u);

  // ic_len = 0.
  verifying_key empty = vk;
  empty.ic.clear();
  e = decode_verifying_key(encode_verifying_key(empty), out);
  EXPECT_EQ(e.code, read_errc::empty_ic);
  EXPECT_EQ(e.section, section::ic_len);
  EXPECT_EQ(e.offset, vk_offset_ic_len);

  // Huge ic_len.
  std::vector<uint8_t> huge = bytes;
  huge[vk_offset_ic_len] = huge[vk_offset_ic_len + 1] = huge[vk_offset_ic_len + 2] = huge[vk_offset_ic_len + 3] = 0xff;
  e = decode_verifying_key(huge, out);
  EXPECT_EQ(e.code, read_errc::length_exceeds_file);
  EXPECT_EQ(e.section, section::ic);
  EXPECT_EQ(e.count, 0xffffffffu);
  EXPECT_EQ(e.available, 2u * 96);

  // Identity in gamma_g2 and in ic[1].
  verifying_key with_id = vk;
  with_id.gamma_g2 = g2_affine::identity();
  e = decode_verifying_key(encode_verifying_key(with_id), out);
  EXPECT_EQ(e.code, read_errc::identity_point);
  EXPECT_EQ(e.section, section::gamma_g2);
  EXPECT_EQ(e.offset, vk_offset_gamma_g2);
  with_id = vk;
  with_id.ic[1] = g1_affine::identity();
  e = decode_verifying_key(encode_verifying_key(with_id), out);
  EXPECT_EQ(e.code, read_errc::identity_point);
  EXPECT_EQ(e.section, section::ic);
  EXPECT_EQ(e.index, 1u);
  EXPECT_EQ(e.offset, vk_offset_ic + 96);

  // Compressed bytes where uncompressed are expected (flag 0x80 on beta_g1).
  std::vector<uint8_t> flagged = bytes;
  flagged[vk_offset_beta_g1] |= 0x80;
  e = decode_verifying_key(flagged, out);
  EXPECT_EQ(e.code, read_errc::bad_point);
  EXPECT_EQ(e.point, ec::decode_error::compression_flag_mismatch);
  EXPECT_EQ(e.section, section::beta_g1);
  EXPECT_EQ(out, vk);

  // A missing file.
  e = read_verifying_key_file("/nonexistent/cuzk/x.vk", out);
  EXPECT_EQ(e.code, read_errc::io);
  EXPECT_EQ(e.sys_errno, ENOENT);
  EXPECT_NE(e.message().find("No such file"), std::string::npos) << e.message();
}

}  // namespace
}  // namespace cuzk::groth16
