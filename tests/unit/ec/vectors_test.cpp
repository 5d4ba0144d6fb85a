// zkcrypto's point-encoding vectors (see fixtures/bls12_381/README.md): entry k is k*G for
// k = 0..999. Decoding must give k*G; encoding k*G must reproduce the bytes exactly.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "ec/point.hpp"

namespace cuzk::ec::test {
namespace {

constexpr std::size_t kPoints = 1000;

std::vector<uint8_t> read_fixture(const std::string& name) {
  const std::string path = std::string(CUZK_FIXTURES_DIR) + "/bls12_381/" + name;
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    ADD_FAILURE() << "missing fixture " << path << " (the vectors are required, not optional)";
    return {};
  }
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Decode and re-encode every entry of one file against the running sum k*G.
template <class Curve, std::size_t Size, class Decode, class Encode>
void check_file(const std::string& name, Decode decode, Encode encode) {
  const std::vector<uint8_t> bytes = read_fixture(name);
  ASSERT_EQ(bytes.size(), kPoints * Size) << name;
  jacobian_point<Curve> kg = jacobian_point<Curve>::identity();
  const auto g = affine_point<Curve>::generator();
  for (std::size_t k = 0; k < kPoints; ++k) {
    std::span<const uint8_t, Size> in(bytes.data() + k * Size, Size);
    affine_point<Curve> decoded;
    const decode_error err = decode(in, decoded);
    ASSERT_EQ(err, decode_error::ok) << name << " k=" << k << ": " << to_string(err);
    const affine_point<Curve> expected = kg.to_affine();
    ASSERT_EQ(decoded, expected) << name << " k=" << k;
    ASSERT_EQ(decoded.infinity, k == 0);
    std::array<uint8_t, Size> out{};
    encode(expected, std::span<uint8_t, Size>(out));
    ASSERT_TRUE(std::equal(out.begin(), out.end(), in.begin())) << name << " k=" << k << ": encoding differs";
    kg = kg + g;
  }
}

TEST(ec_vectors, G1Compressed) {
  check_file<g1_curve, g1_compressed_bytes>(
      "g1_compressed_valid_test_vectors.dat",
      [](auto in, g1_affine& out) { return decode_g1_compressed(in, out); },
      [](const g1_affine& p, auto out) { encode_g1_compressed(p, out); });
}

TEST(ec_vectors, G1Uncompressed) {
  check_file<g1_curve, g1_uncompressed_bytes>(
      "g1_uncompressed_valid_test_vectors.dat",
      [](auto in, g1_affine& out) { return decode_g1_uncompressed(in, out); },
      [](const g1_affine& p, auto out) { encode_g1_uncompressed(p, out); });
}

TEST(ec_vectors, G2Compressed) {
  check_file<g2_curve, g2_compressed_bytes>(
      "g2_compressed_valid_test_vectors.dat",
      [](auto in, g2_affine& out) { return decode_g2_compressed(in, out); },
      [](const g2_affine& p, auto out) { encode_g2_compressed(p, out); });
}

TEST(ec_vectors, G2Uncompressed) {
  check_file<g2_curve, g2_uncompressed_bytes>(
      "g2_uncompressed_valid_test_vectors.dat",
      [](auto in, g2_affine& out) { return decode_g2_uncompressed(in, out); },
      [](const g2_affine& p, auto out) { encode_g2_uncompressed(p, out); });
}

// The dynamic-length entry points dispatch on length and agree with the fixed ones.
TEST(ec_vectors, DynamicLengthDecodeAgrees) {
  const auto c1 = read_fixture("g1_compressed_valid_test_vectors.dat");
  const auto u1 = read_fixture("g1_uncompressed_valid_test_vectors.dat");
  const auto c2 = read_fixture("g2_compressed_valid_test_vectors.dat");
  const auto u2 = read_fixture("g2_uncompressed_valid_test_vectors.dat");
  ASSERT_EQ(c1.size(), kPoints * 48);
  ASSERT_EQ(u1.size(), kPoints * 96);
  ASSERT_EQ(c2.size(), kPoints * 96);
  ASSERT_EQ(u2.size(), kPoints * 192);
  for (std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{999}}) {
    g1_affine a, b;
    ASSERT_EQ(decode_g1(std::span<const uint8_t>(c1.data() + 48 * k, 48), a), decode_error::ok);
    ASSERT_EQ(decode_g1(std::span<const uint8_t>(u1.data() + 96 * k, 96), b), decode_error::ok);
    EXPECT_EQ(a, b);
    g2_affine c, d;
    ASSERT_EQ(decode_g2(std::span<const uint8_t>(c2.data() + 96 * k, 96), c), decode_error::ok);
    ASSERT_EQ(decode_g2(std::span<const uint8_t>(u2.data() + 192 * k, 192), d), decode_error::ok);
    EXPECT_EQ(c, d);
  }
}

}  // namespace
}  // namespace cuzk::ec::test
