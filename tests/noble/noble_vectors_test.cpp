// The committed @noble/curves vectors (testdata/noble, made by tools/gen/noble_vectors.mjs):
// field arithmetic, scalar multiples of random points and pairings, compared byte for byte.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "ec/point.hpp"
#include "pairing/pairing.hpp"

namespace {

using namespace cuzk;
using ec::g1_affine;
using ec::g2_affine;
using ff::fp;
using ff::fr;

using fields = std::vector<std::string>;

// Data lines of testdata/noble/<name>, split on spaces; comments skipped. Fails the test if the
// file is missing or empty, so a lost vector set cannot pass silently.
std::vector<fields> load(const std::string& name) {
  std::ifstream in(std::string(CUZK_TESTDATA_DIR) + "/noble/" + name);
  EXPECT_TRUE(in.good()) << "cannot open testdata/noble/" << name;
  std::vector<fields> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    fields f;
    for (std::string w; ls >> w;) f.push_back(w);
    rows.push_back(f);
  }
  EXPECT_FALSE(rows.empty()) << name << " has no vectors";
  return rows;
}

std::vector<uint8_t> bytes(const std::string& hex) {
  std::vector<uint8_t> out(hex.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return out;
}

std::string hex(const uint8_t* p, std::size_t n) {
  std::string s;
  char buf[3];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", p[i]);
    s += buf;
  }
  return s;
}

template <class F>
F field(const std::string& h) {
  F x;
  auto b = bytes(h);
  EXPECT_EQ(b.size(), F::bytes);
  EXPECT_TRUE(F::from_bytes_be(b.data(), x)) << h;
  return x;
}

template <class F>
std::string field_hex(const F& x) {
  uint8_t b[F::bytes];
  x.to_bytes_be(b);
  return hex(b, F::bytes);
}

template <class F>
void check_field_file(const std::string& name) {
  for (const fields& f : load(name)) {
    ASSERT_EQ(f.size(), 4u);
    const std::string& op = f[0];
    F a = field<F>(f[1]);
    SCOPED_TRACE(name + ": " + op + " " + f[1] + " " + f[2]);
    if (op == "mul") EXPECT_EQ(field_hex(a * field<F>(f[2])), f[3]);
    else if (op == "add") EXPECT_EQ(field_hex(a + field<F>(f[2])), f[3]);
    else if (op == "sub") EXPECT_EQ(field_hex(a - field<F>(f[2])), f[3]);
    else if (op == "inv") EXPECT_EQ(field_hex(a.inverse()), f[3]);
    else if (op == "sqrt") {
      F root;
      bool exists = a.sqrt(root);
      if (f[3] == "none") {
        EXPECT_FALSE(exists);
      } else {
        // Either root is correct; noble returns a^((p+1)/4) as we do, so expect the same one.
        ASSERT_TRUE(exists);
        EXPECT_EQ(field_hex(root), f[3]);
      }
    } else {
      ADD_FAILURE() << "unknown op " << op;
    }
  }
}

TEST(NobleVectors, FpArithmetic) { check_field_file<fp>("fp.txt"); }
TEST(NobleVectors, FrArithmetic) { check_field_file<fr>("fr.txt"); }

template <class Affine, std::size_t C, std::size_t U, class Decode, class EncodeC, class EncodeU>
void check_mul_file(const std::string& name, Decode decode, EncodeC encode_c, EncodeU encode_u) {
  using jac = ec::jacobian_point<typename Affine::curve>;
  for (const fields& f : load(name)) {
    ASSERT_EQ(f.size(), 4u);
    SCOPED_TRACE(name + " k=" + f[1]);
    Affine p, q_c, q_u;
    ASSERT_EQ(decode(bytes(f[0]), p), ec::decode_error::ok);
    Affine q = ec::scalar_mul(jac::from_affine(p), field<fr>(f[1])).to_affine();
    uint8_t c[C], u[U];
    encode_c(q, std::span<uint8_t, C>(c));
    encode_u(q, std::span<uint8_t, U>(u));
    EXPECT_EQ(hex(c, C), f[2]);
    EXPECT_EQ(hex(u, U), f[3]);
    ASSERT_EQ(decode(bytes(f[2]), q_c), ec::decode_error::ok);
    ASSERT_EQ(decode(bytes(f[3]), q_u), ec::decode_error::ok);
    EXPECT_EQ(q_c, q);
    EXPECT_EQ(q_u, q);
  }
}

TEST(NobleVectors, G1ScalarMultiples) {
  check_mul_file<g1_affine, 48, 96>(
      "g1_mul.txt", [](const std::vector<uint8_t>& b, g1_affine& p) { return ec::decode_g1(b, p); },
      ec::encode_g1_compressed, ec::encode_g1_uncompressed);
}

TEST(NobleVectors, G2ScalarMultiples) {
  check_mul_file<g2_affine, 96, 192>(
      "g2_mul.txt", [](const std::vector<uint8_t>& b, g2_affine& p) { return ec::decode_g2(b, p); },
      ec::encode_g2_compressed, ec::encode_g2_uncompressed);
}

TEST(NobleVectors, Pairings) {
  for (const fields& f : load("pairing.txt")) {
    ASSERT_EQ(f.size(), 3u);
    g1_affine p;
    g2_affine q;
    ASSERT_EQ(ec::decode_g1(bytes(f[0]), p), ec::decode_error::ok);
    ASSERT_EQ(ec::decode_g2(bytes(f[1]), q), ec::decode_error::ok);
    uint8_t out[576];
    pairing::pairing(p, q).to_bytes_be(out);
    EXPECT_EQ(hex(out, sizeof out), f[2]) << "e(" << f[0] << ", " << f[1] << ")";
  }
}

}  // namespace
