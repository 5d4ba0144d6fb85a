// The snarkjs layer on the committed fixtures (testdata/snarkjs/README.md): the .zkey / .wtns /
// .r1cs readers (valid files, every truncation, targeted and random corruption, sections in any
// order), the JSON files (snarkjs's exact text), ffjavascript's roots of unity, the H scalars
// against a naive O(n^2) twin, and proofs that our verifier accepts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ec/point.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "groth16/verifier.hpp"
#include "poly/domain.hpp"
#include "poly/ntt.hpp"
#include "unit/snarkjs/fixtures.hpp"

namespace sj = cuzk::groth16::snarkjs;
namespace g16 = cuzk::groth16;
using cuzk::ff::fr;

namespace {

using cuzk::test::snarkjs_fixtures::slurp;
using cuzk::test::snarkjs_fixtures::text;

cuzk::base::serial_executor serial;

const std::vector<uint8_t>& zkey_bytes() {
  static const std::vector<uint8_t> b = slurp("chain.zkey");
  return b;
}
const std::vector<uint8_t>& wtns_bytes() {
  static const std::vector<uint8_t> b = slurp("witness.wtns");
  return b;
}
const sj::zkey& fixture_zkey() {
  static const sj::zkey z = [] {
    sj::zkey k;
    auto e = sj::read_zkey(zkey_bytes(), k, serial);
    EXPECT_TRUE(e.ok()) << e.message();
    return k;
  }();
  return z;
}
const std::vector<fr>& fixture_witness() {
  static const std::vector<fr> w = [] {
    std::vector<fr> v;
    auto e = sj::read_wtns(wtns_bytes(), v);
    EXPECT_TRUE(e.ok()) << e.message();
    return v;
  }();
  return w;
}

void put32(std::vector<uint8_t>& b, std::size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t get32(const std::vector<uint8_t>& b, std::size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{b[at + i]} << (8 * i);
  return v;
}

// Payload offset of section id (the first one).
uint64_t section_offset(const std::vector<uint8_t>& b, const char* kind, uint32_t version, uint32_t id) {
  std::vector<sj::section_ref> secs;
  EXPECT_TRUE(sj::scan_container(b, kind, version, secs).ok());
  for (auto& s : secs)
    if (s.id == id) return s.offset;
  ADD_FAILURE() << "no section " << id;
  return 0;
}

// Rebuilds a container from (id, payload) pairs in the given order.
std::vector<uint8_t> assemble(const char* kind, uint32_t version,
                              const std::vector<std::pair<uint32_t, std::vector<uint8_t>>>& secs) {
  std::vector<uint8_t> out(kind, kind + 4);
  auto u32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  u32(version);
  u32(static_cast<uint32_t>(secs.size()));
  for (auto& [id, payload] : secs) {
    u32(id);
    const uint64_t n = payload.size();
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(n >> (8 * i)));
    out.insert(out.end(), payload.begin(), payload.end());
  }
  return out;
}

std::vector<std::pair<uint32_t, std::vector<uint8_t>>> split(const std::vector<uint8_t>& b, const char* kind,
                                                             uint32_t version) {
  std::vector<sj::section_ref> secs;
  EXPECT_TRUE(sj::scan_container(b, kind, version, secs).ok());
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> out;
  for (auto& s : secs) out.push_back({s.id, {b.begin() + s.offset, b.begin() + s.offset + s.size}});
  return out;
}

sj::errc zkey_code(const std::vector<uint8_t>& b) {
  sj::zkey z;
  return sj::read_zkey(b, z, serial).code;
}
sj::errc wtns_code(const std::vector<uint8_t>& b) {
  std::vector<fr> w;
  return sj::read_wtns(b, w).code;
}

constexpr uint64_t kHeaderN = 88;  // offset of nVars inside zkey section 2

}  // namespace

// --- valid files ---------------------------------------------------------------------------------

TEST(SnarkjsReaders, FixtureCounts) {
  const sj::zkey& z = fixture_zkey();
  EXPECT_EQ(z.n_vars, 406u);
  EXPECT_EQ(z.n_public, 3u);
  EXPECT_EQ(z.domain_size, 512u);
  EXPECT_EQ(z.ic.size(), 4u);
  EXPECT_EQ(z.a.size(), 406u);
  EXPECT_EQ(z.b_g2.size(), 406u);
  EXPECT_EQ(z.c.size(), 402u);
  EXPECT_EQ(z.h.size(), 512u);
  // The n_public + 1 extra rows A[n_cons + s] = 1 come last.
  ASSERT_GE(z.coeffs.size(), 4u);
  for (uint32_t s = 0; s < 4; ++s) {
    const auto& c = z.coeffs[z.coeffs.size() - 4 + s];
    EXPECT_EQ(c.matrix, 0u);
    EXPECT_EQ(c.signal, s);
    EXPECT_TRUE(c.value.is_one());
  }
  // Wires in no A/B combination have infinity in A/B1/B2 (all-zero LEM).
  EXPECT_TRUE(std::any_of(z.b_g2.begin(), z.b_g2.end(), [](auto& p) { return p.infinity; }));

  const auto& w = fixture_witness();
  ASSERT_EQ(w.size(), 406u);
  EXPECT_TRUE(w[0].is_one());
  std::vector<fr> pub;
  ASSERT_TRUE(sj::read_public_json(text("public.json"), pub).ok());
  EXPECT_EQ(sj::public_signals(z, w), pub);
  EXPECT_EQ(pub[2], fr::from_u64(3));  // input a
}

TEST(SnarkjsReaders, R1csSatisfiedByWitness) {
  sj::r1cs cs;
  auto e = sj::read_r1cs(slurp("chain.r1cs"), cs);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(cs.n_wires, 406u);
  EXPECT_EQ(cs.n_public(), 3u);
  EXPECT_EQ(cs.n_pub_in, 1u);
  EXPECT_EQ(cs.n_prv_in, 1u);
  EXPECT_EQ(cs.constraints.size(), 403u);
  EXPECT_EQ(sj::first_unsatisfied(cs, fixture_witness()), -1);
  std::vector<fr> bad = fixture_witness();
  bad[5] += fr::one();
  EXPECT_NE(sj::first_unsatisfied(cs, bad), -1);
}

TEST(SnarkjsReaders, SectionsInAnyOrder) {
  auto secs = split(zkey_bytes(), "zkey", 1);
  std::reverse(secs.begin(), secs.end());
  sj::zkey z;
  auto e = sj::read_zkey(assemble("zkey", 1, secs), z, serial);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(z.h, fixture_zkey().h);
  EXPECT_EQ(z.b_g2, fixture_zkey().b_g2);
  EXPECT_EQ(z.coeffs.size(), fixture_zkey().coeffs.size());

  auto ws = split(wtns_bytes(), "wtns", 2);
  std::reverse(ws.begin(), ws.end());
  std::vector<fr> w;
  ASSERT_TRUE(sj::read_wtns(assemble("wtns", 2, ws), w).ok());
  EXPECT_EQ(w, fixture_witness());
}

TEST(SnarkjsReaders, ParallelDecodeEqualsSerial) {
  auto pool = cuzk::base::make_thread_pool_executor(2);
  sj::zkey z;
  ASSERT_TRUE(sj::read_zkey(zkey_bytes(), z, *pool).ok());
  EXPECT_EQ(z.a, fixture_zkey().a);
  EXPECT_EQ(z.h, fixture_zkey().h);
  // And with the bulk subgroup checks on, the honest key still passes.
  sj::read_options opt;
  opt.bulk_subgroup = cuzk::ec::subgroup_check::verify;
  EXPECT_TRUE(sj::read_zkey(zkey_bytes(), z, *pool, opt).ok());
}

TEST(SnarkjsReaders, LemRoundTrip) {
  const auto& z = fixture_zkey();
  const auto off = section_offset(zkey_bytes(), "zkey", 1, 7);
  std::vector<uint8_t> buf(sj::lem_g2_bytes);
  for (std::size_t i = 0; i < z.b_g2.size(); ++i) {
    sj::encode_lem_g2(z.b_g2[i], buf.data());
    ASSERT_EQ(0, std::memcmp(buf.data(), zkey_bytes().data() + off + i * sj::lem_g2_bytes, buf.size())) << i;
  }
}

// --- truncation and corruption ---------------------------------------------------------------------

TEST(SnarkjsReaders, EveryTruncatedZkeyIsRejected) {
  const auto& b = zkey_bytes();
  for (std::size_t n = 0; n < b.size(); ++n) {
    std::span<const uint8_t> cut(b.data(), n);
    sj::zkey z;
    auto e = sj::read_zkey(cut, z, serial);
    ASSERT_FALSE(e.ok()) << "prefix of " << n << " bytes accepted";
    ASSERT_FALSE(e.message().empty());
  }
}

TEST(SnarkjsReaders, EveryTruncatedWtnsIsRejected) {
  const auto& b = wtns_bytes();
  for (std::size_t n = 0; n < b.size(); ++n) {
    std::vector<fr> w;
    ASSERT_FALSE(sj::read_wtns(std::span<const uint8_t>(b.data(), n), w).ok()) << n;
  }
  // The message of a typical one names the section and the sizes.
  std::vector<fr> w;
  auto e = sj::read_wtns(std::span<const uint8_t>(b.data(), b.size() - 1), w);
  EXPECT_EQ(e.code, sj::errc::truncated);
  EXPECT_NE(e.message().find("wtns section 2"), std::string::npos) << e.message();
}

TEST(SnarkjsReaders, ZkeyCorruptions) {
  const auto& orig = zkey_bytes();
  auto with = [&](auto&& edit) {
    std::vector<uint8_t> b = orig;
    edit(b);
    return zkey_code(b);
  };
  const uint64_t s1 = section_offset(orig, "zkey", 1, 1), s2 = section_offset(orig, "zkey", 1, 2),
                 s4 = section_offset(orig, "zkey", 1, 4), s6 = section_offset(orig, "zkey", 1, 6);
  EXPECT_EQ(with([](auto& b) { b[0] = 'x'; }), sj::errc::bad_magic);
  EXPECT_EQ(with([](auto& b) { put32(b, 4, 2); }), sj::errc::bad_version);
  EXPECT_EQ(with([](auto& b) { put32(b, 8, get32(b, 8) + 1); }), sj::errc::truncated);
  EXPECT_EQ(with([&](auto& b) { put32(b, s1, 2); }), sj::errc::unsupported);          // PLONK
  EXPECT_EQ(with([&](auto& b) { b[s2 + 4] ^= 1; }), sj::errc::unsupported);           // q
  EXPECT_EQ(with([&](auto& b) { b[s2 + 56] ^= 1; }), sj::errc::unsupported);          // r
  EXPECT_EQ(with([&](auto& b) { put32(b, s2 + kHeaderN, 407); }), sj::errc::wrong_size);  // nVars
  EXPECT_EQ(with([&](auto& b) { put32(b, s2 + kHeaderN, 3); }), sj::errc::bad_value);     // nPublic + 1 > nVars
  EXPECT_EQ(with([&](auto& b) { put32(b, s2 + kHeaderN + 4, 4); }), sj::errc::wrong_size);   // nPublic
  EXPECT_EQ(with([&](auto& b) { put32(b, s2 + kHeaderN + 8, 511); }), sj::errc::bad_value);  // domainSize
  EXPECT_EQ(with([&](auto& b) { put32(b, s2 + kHeaderN + 8, 1024); }), sj::errc::wrong_size);
  EXPECT_EQ(with([&](auto& b) { b[s2 + kHeaderN + 12 + 5] ^= 0x10; }), sj::errc::bad_point);  // alpha_1.x
  EXPECT_EQ(with([&](auto& b) { std::memset(&b[s2 + kHeaderN + 12], 0, 96); }), sj::errc::bad_point);  // alpha = O
  // Section 4: count, matrix, constraint, signal, value.
  EXPECT_EQ(with([&](auto& b) { put32(b, s4, get32(b, s4) + 1); }), sj::errc::wrong_size);
  EXPECT_EQ(with([&](auto& b) { put32(b, s4 + 4, 2); }), sj::errc::bad_value);
  EXPECT_EQ(with([&](auto& b) { put32(b, s4 + 8, 512); }), sj::errc::bad_value);
  EXPECT_EQ(with([&](auto& b) { put32(b, s4 + 12, 406); }), sj::errc::bad_value);
  EXPECT_EQ(with([&](auto& b) { std::memset(&b[s4 + 16], 0xff, 32); }), sj::errc::bad_value);
  // Points: a coordinate >= q, a point off the curve.
  EXPECT_EQ(with([&](auto& b) { std::memset(&b[s6 + 96 * 7], 0xff, 48); }), sj::errc::bad_point);
  EXPECT_EQ(with([&](auto& b) { b[s6 + 96 * 7 + 3] ^= 0x01; }), sj::errc::bad_point);
  // Section table: a duplicate, a missing section, a section running past the end.
  auto secs = split(orig, "zkey", 1);
  auto dup = secs;
  dup.push_back(secs[0]);
  EXPECT_EQ(zkey_code(assemble("zkey", 1, dup)), sj::errc::duplicate_section);
  auto missing = secs;
  missing.erase(std::remove_if(missing.begin(), missing.end(), [](auto& s) { return s.first == 9; }), missing.end());
  EXPECT_EQ(zkey_code(assemble("zkey", 1, missing)), sj::errc::missing_section);
  EXPECT_EQ(with([](auto& b) { b[12 + 4 + 7] = 0x80; }), sj::errc::truncated);  // first section size 2^63+
  // Trailing garbage after the last section.
  EXPECT_EQ(with([](auto& b) { b.push_back(0); }), sj::errc::wrong_size);

  // Error messages name the section, index and offset.
  std::vector<uint8_t> b = orig;
  b[s6 + 96 * 7 + 3] ^= 0x01;
  sj::zkey z;
  const auto e = sj::read_zkey(b, z, serial);
  std::string want = "zkey section 6 (B1)[7] at offset ";
  want.append(std::to_string(s6 + 96 * 7));
  EXPECT_NE(e.message().find(want), std::string::npos) << e.message();
}

TEST(SnarkjsReaders, WtnsCorruptions) {
  const auto& orig = wtns_bytes();
  auto with = [&](auto&& edit) {
    std::vector<uint8_t> b = orig;
    edit(b);
    return wtns_code(b);
  };
  const uint64_t s1 = section_offset(orig, "wtns", 2, 1), s2 = section_offset(orig, "wtns", 2, 2);
  EXPECT_EQ(with([](auto& b) { b[3] = 'x'; }), sj::errc::bad_magic);
  EXPECT_EQ(with([](auto& b) { put32(b, 4, 1); }), sj::errc::bad_version);
  EXPECT_EQ(with([&](auto& b) { put32(b, s1, 48); }), sj::errc::unsupported);
  EXPECT_EQ(with([&](auto& b) { b[s1 + 4] ^= 2; }), sj::errc::unsupported);
  EXPECT_EQ(with([&](auto& b) { put32(b, s1 + 36, 405); }), sj::errc::wrong_size);
  EXPECT_EQ(with([&](auto& b) { std::memset(&b[s2 + 32 * 9], 0xff, 32); }), sj::errc::bad_value);
  EXPECT_EQ(zkey_code(wtns_bytes()), sj::errc::bad_magic);
}

TEST(SnarkjsReaders, RandomByteFlipsNeverCrash) {
  std::mt19937_64 rng(12345);
  const auto& orig = zkey_bytes();
  int rejected = 0;
  for (int i = 0; i < 300; ++i) {
    std::vector<uint8_t> b = orig;
    const std::size_t at = rng() % b.size();
    b[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
    if (zkey_code(b) != sj::errc::ok) ++rejected;
  }
  // Most flips land in points (off the curve afterwards); flips in section 10 or in a
  // coefficient value are undetectable by a reader.
  EXPECT_GT(rejected, 200);
  const auto& w = wtns_bytes();
  for (int i = 0; i < 300; ++i) {
    std::vector<uint8_t> b = w;
    b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    (void)wtns_code(b);
  }
}

// --- JSON --------------------------------------------------------------------------------------

TEST(SnarkjsJson, DecimalRoundTrip) {
  cuzk::ff::bigint<6> x;
  ASSERT_TRUE(sj::parse_uint<6>("0", x));
  EXPECT_EQ(sj::to_decimal(x), "0");
  const std::string q =
      "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787";
  ASSERT_TRUE(sj::parse_uint<6>(q, x));
  EXPECT_EQ(x, cuzk::ff::fp::modulus);
  EXPECT_EQ(sj::to_decimal(x), q);
  ASSERT_TRUE(sj::parse_uint<6>("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", x));
  EXPECT_EQ(x, cuzk::ff::fp::modulus);
  EXPECT_TRUE(sj::parse_uint<6>("10000000000000000000", x));
  EXPECT_EQ(sj::to_decimal(x), "10000000000000000000");
  EXPECT_FALSE(sj::parse_uint<6>("", x));
  EXPECT_FALSE(sj::parse_uint<6>("12a", x));
  EXPECT_FALSE(sj::parse_uint<6>("-1", x));
  cuzk::ff::bigint<1> one_limb;
  EXPECT_TRUE(sj::parse_uint<1>("18446744073709551615", one_limb));
  EXPECT_FALSE(sj::parse_uint<1>("18446744073709551616", one_limb));
}

TEST(SnarkjsJson, WritesSnarkjsText) {
  // Reading and rewriting snarkjs's own files reproduces them byte for byte.
  g16::proof p;
  ASSERT_TRUE(sj::read_proof_json(text("proof.json"), p).ok());
  EXPECT_EQ(sj::write_proof_json(p), text("proof.json"));
  std::vector<fr> pub;
  ASSERT_TRUE(sj::read_public_json(text("public.json"), pub).ok());
  EXPECT_EQ(sj::write_public_json(pub), text("public.json"));
  EXPECT_EQ(sj::write_vkey_json(fixture_zkey()), text("verification_key.json"));
  sj::json j;
  ASSERT_TRUE(sj::parse_json(text("verification_key.json"), j).ok());
  EXPECT_EQ(sj::stringify(j), text("verification_key.json"));
}

TEST(SnarkjsJson, RejectsMalformed) {
  g16::proof p;
  EXPECT_EQ(sj::read_proof_json("{", p).code, sj::errc::bad_value);
  EXPECT_EQ(sj::read_proof_json("[]", p).code, sj::errc::bad_value);
  EXPECT_EQ(sj::read_proof_json(R"({"pi_a":["1","2","1"]})", p).code, sj::errc::bad_value);
  std::string t = text("proof.json");
  const std::size_t digit = t.find('"', t.find("pi_a") + 8) + 1;  // first digit of pi_a.x
  t[digit] = 'x';
  EXPECT_EQ(sj::read_proof_json(t, p).code, sj::errc::bad_value);
  std::vector<fr> pub;
  EXPECT_EQ(sj::read_public_json(R"(["1", {}])", pub).code, sj::errc::bad_value);
  EXPECT_EQ(sj::read_public_json(
                R"(["52435875175126190479447740508185965837690552500527637822603658699938581184513"])", pub)
                .code,
            sj::errc::bad_point);  // = r
  EXPECT_TRUE(sj::read_public_json(R"(["0x10", 7])", pub).ok());
  EXPECT_EQ(pub, (std::vector<fr>{fr::from_u64(16), fr::from_u64(7)}));
  g16::verifying_key vk;
  uint32_t np;
  EXPECT_TRUE(sj::read_vkey_json(text("verification_key.json"), vk, np).ok());
  EXPECT_EQ(np, 3u);
  std::string v = text("verification_key.json");
  v.replace(v.find("bls12381"), 8, "bn128");
  EXPECT_EQ(sj::read_vkey_json(v, vk, np).code, sj::errc::unsupported);
  // A Jacobian point (z != 1) is read as ffjavascript does: x = X/Z^2, y = Y/Z^3.
  const auto g = cuzk::ec::g1_affine::generator();
  const auto z = cuzk::ff::fp::from_u64(5);
  sj::json jp = sj::json::array({sj::json::str(sj::to_decimal(g.x * z * z)),
                                 sj::json::str(sj::to_decimal(g.y * z * z * z)), sj::json::str("5")});
  cuzk::ec::g1_affine out;
  ASSERT_TRUE(sj::g1_from_json(jp, out, cuzk::ec::subgroup_check::verify, "p").ok());
  EXPECT_EQ(out, g);
}

// --- roots of unity, H scalars, proofs ------------------------------------------------------------

TEST(SnarkjsProver, FfjavascriptRoots) {
  // Fr.w[10] as ffjavascript prints it (shared/notes/snarkjs-formats.md §2.3).
  EXPECT_EQ(sj::to_decimal(sj::ffjs_root_of_unity(10)),
            "21328829733576761151404230261968752855781179864716879432436835449516750606329");
  EXPECT_EQ(sj::ffjs_root_of_unity(32), fr::from_hex("0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"));
  for (unsigned k : {0u, 1u, 2u, 9u, 16u, 31u, 32u}) {
    const uint64_t e = sj::ffjs_omega_exponent(k);
    EXPECT_TRUE(k == 0 || (e & 1)) << k;
    EXPECT_EQ(cuzk::poly::radix2_domain::of_log_size(k).omega().pow_u64(e), sj::ffjs_root_of_unity(k)) << k;
  }
}

TEST(SnarkjsProver, HScalarsMatchNaiveTwin) {
  const auto& z = fixture_zkey();
  const auto& w = fixture_witness();
  const std::size_t n = z.domain_size;
  std::vector<fr> a(n, fr::zero()), b(n, fr::zero()), c(n);
  for (const auto& co : z.coeffs) (co.matrix ? b : a)[co.constraint] += co.value * w[co.signal];
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
  // Interpolate on <omega_s> and evaluate at omega_2n * omega_s^i, O(n^2).
  const fr om = sj::ffjs_root_of_unity(z.log_domain_size());
  const fr g = sj::ffjs_root_of_unity(z.log_domain_size() + 1);
  const fr n_inv = fr::from_u64(n).inverse();
  auto odd = [&](const std::vector<fr>& v) {
    std::vector<fr> coeff(n), out(n);
    cuzk::poly::naive_dft(v, coeff, om.inverse());
    for (auto& x : coeff) x *= n_inv;
    cuzk::poly::naive_dft(coeff, out, om, g);
    return out;
  };
  const auto ao = odd(a), bo = odd(b), co = odd(c);
  auto pool = cuzk::base::make_thread_pool_executor(2);
  const auto d = sj::compute_h_scalars(z, w, *pool);
  ASSERT_EQ(d.size(), n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(d[i], ao[i] * bo[i] - co[i]) << i;
}

TEST(SnarkjsProver, ProofVerifies) {
  const auto& z = fixture_zkey();
  const auto& w = fixture_witness();
  std::mt19937_64 rng(7);
  auto pool = cuzk::base::make_thread_pool_executor(2);
  const auto p = sj::prove(z, w, fr::random(rng), fr::random(rng), *pool);
  const auto pvk = g16::prepare_verifying_key(sj::verifying_key_of(z));
  auto pub = sj::public_signals(z, w);
  EXPECT_EQ(g16::verify(pvk, p, pub), g16::verify_result::valid);
  pub[0] += fr::one();
  EXPECT_EQ(g16::verify(pvk, p, pub), g16::verify_result::invalid);

  // snarkjs's committed proof verifies with the key read from verification_key.json.
  g16::verifying_key vk;
  uint32_t np;
  ASSERT_TRUE(sj::read_vkey_json(text("verification_key.json"), vk, np).ok());
  g16::proof sp;
  ASSERT_TRUE(sj::read_proof_json(text("proof.json"), sp).ok());
  std::vector<fr> spub;
  ASSERT_TRUE(sj::read_public_json(text("public.json"), spub).ok());
  const auto pvk2 = g16::prepare_verifying_key(vk);
  EXPECT_EQ(g16::verify(pvk2, sp, spub), g16::verify_result::valid);
  EXPECT_EQ(g16::verify(pvk2, p, sj::public_signals(z, w)), g16::verify_result::valid);

  // A witness that does not satisfy the circuit gives a proof that does not verify.
  auto bad = w;
  bad[10] += fr::one();
  const auto pb = sj::prove(z, bad, fr::one(), fr::one(), *pool);
  EXPECT_EQ(g16::verify(pvk, pb, sj::public_signals(z, bad)), g16::verify_result::invalid);
}
