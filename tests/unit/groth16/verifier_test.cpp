// The verifier and the batch verifier: bellman's 12 fixture cases (exactly the 6 valid ones
// accepted), toy statements with a known trapdoor, tampering, input counts, batch arguments.
#include <gtest/gtest.h>

#include <optional>

#include "groth16/batch_verifier.hpp"
#include "groth16/verifier.hpp"
#include "support/seed.hpp"
#include "unit/groth16/test_util.hpp"

namespace cuzk::groth16 {
namespace {

using test::fr_from_decimal;
using test::from_hex;
using test::json;

struct bellman_case {
  std::size_t index;
  bool valid;                          // as the fixture says
  std::optional<std::string> vk_error;  // why the key's points did not decode, if they did not
  read_error proof_error;
  verifying_key vk;
  std::array<uint8_t, proof_bytes> proof_bytes_{};
  proof pf;
  std::vector<fr> inputs;
};

g1_affine g1_hex(const json& j, std::optional<std::string>& err, const char* what) {
  g1_affine p = g1_affine::identity();
  const auto b = from_hex(j.s);
  const ec::decode_error d = ec::decode_g1(b, p);
  if (d != ec::decode_error::ok && !err) err = std::string(what) + ": " + ec::to_string(d);
  return p;
}
g2_affine g2_hex(const json& j, std::optional<std::string>& err, const char* what) {
  g2_affine p = g2_affine::identity();
  const auto b = from_hex(j.s);
  const ec::decode_error d = ec::decode_g2(b, p);
  if (d != ec::decode_error::ok && !err) err = std::string(what) + ": " + ec::to_string(d);
  return p;
}

const std::vector<bellman_case>& bellman_cases() {
  static const std::vector<bellman_case> cases = [] {
    const json root = json::parse(test::read_text_file(CUZK_FIXTURES_DIR "/bellman/groth16_vectors.json"));
    std::vector<bellman_case> out;
    for (std::size_t i = 0; i < root.items.size(); ++i) {
      const json& c = root[i];
      bellman_case bc;
      bc.index = i;
      bc.valid = c["valid"].b;
      const json& vk = c["vk"];
      bc.vk.alpha_g1 = g1_hex(vk["alpha_g1"], bc.vk_error, "alpha_g1");
      bc.vk.beta_g1 = g1_hex(vk["beta_g1"], bc.vk_error, "beta_g1");
      bc.vk.beta_g2 = g2_hex(vk["beta_g2"], bc.vk_error, "beta_g2");
      bc.vk.gamma_g2 = g2_hex(vk["gamma_g2"], bc.vk_error, "gamma_g2");
      bc.vk.delta_g1 = g1_hex(vk["delta_g1"], bc.vk_error, "delta_g1");
      bc.vk.delta_g2 = g2_hex(vk["delta_g2"], bc.vk_error, "delta_g2");
      for (const json& p : vk["ic"].items) bc.vk.ic.push_back(g1_hex(p, bc.vk_error, "ic"));
      const json& pr = c["proof"];
      const auto bytes = from_hex(pr["a"].s + pr["b"].s + pr["c"].s);
      if (bytes.size() != proof_bytes) throw std::runtime_error("fixture proof is not 192 bytes");
      std::copy(bytes.begin(), bytes.end(), bc.proof_bytes_.begin());
      bc.proof_error = decode_proof(bc.proof_bytes_, bc.pf);
      for (const json& x : pr["public_inputs"].items) bc.inputs.push_back(fr_from_decimal(x.s));
      out.push_back(std::move(bc));
    }
    return out;
  }();
  return cases;
}

// The fixture's verdict through our decoders and verifier: true iff everything decodes and the
// equation holds.
bool accepts(const bellman_case& c, std::string* why = nullptr) {
  if (c.vk_error) {
    if (why) *why = "vk rejected: " + *c.vk_error;
    return false;
  }
  if (!c.proof_error.ok()) {
    if (why) *why = "proof rejected: " + c.proof_error.message();
    return false;
  }
  const verify_result r = verify(prepare_verifying_key(c.vk), c.pf, c.inputs);
  if (why) *why = std::string("verify: ") + to_string(r);
  return r == verify_result::valid;
}

TEST(Groth16Verifier, BellmanFixturesExactlyTheValidOnes) {
  const auto& cases = bellman_cases();
  ASSERT_EQ(cases.size(), 12u);
  int valid = 0;
  for (const bellman_case& c : cases) {
    std::string why;
    const bool ok = accepts(c, &why);
    std::printf("[ case %2zu ] fixture valid=%d inputs=%zu -> %s\n", c.index, c.valid, c.inputs.size(), why.c_str());
    EXPECT_EQ(ok, c.valid) << "case " << c.index << ": " << why;
    valid += c.valid;
  }
  EXPECT_EQ(valid, 6);
}

TEST(Groth16Verifier, BellmanKeysRoundTripThroughVkFormat) {
  for (const bellman_case& c : bellman_cases()) {
    if (c.vk_error) continue;
    verifying_key back;
    read_error e = decode_verifying_key(encode_verifying_key(c.vk), back);
    ASSERT_TRUE(e.ok()) << c.index << ": " << e.message();
    EXPECT_EQ(back, c.vk);
    EXPECT_EQ(encode_proof(c.pf), c.proof_bytes_) << c.index;  // proof re-encodes byte for byte
  }
}

TEST(Groth16Verifier, WrongInputCount) {
  const bellman_case& c = bellman_cases()[5];  // valid, 15 inputs
  ASSERT_TRUE(c.valid);
  const auto pvk = prepare_verifying_key(c.vk);
  std::vector<fr> more = c.inputs;
  more.push_back(fr::one());
  EXPECT_EQ(verify(pvk, c.pf, more), verify_result::wrong_input_count);
  EXPECT_EQ(verify(pvk, c.pf, std::span<const fr>(c.inputs).first(1)), verify_result::wrong_input_count);
  EXPECT_EQ(verify(pvk, c.pf, {}), verify_result::wrong_input_count);
  EXPECT_EQ(verify(pvk, c.pf, c.inputs), verify_result::valid);
}

TEST(Groth16Verifier, TamperedInputsAndProofBytes) {
  cuzk::test::seeded_rng rng;
  const bellman_case& c = bellman_cases()[5];
  const auto pvk = prepare_verifying_key(c.vk);
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    std::vector<fr> x = c.inputs;
    x[i] += fr::one();
    EXPECT_EQ(verify(pvk, c.pf, x), verify_result::invalid) << i;
  }
  // Flip one random bit of every byte of the proof: decode error or invalid, never valid.
  int decode_errors = 0, invalid = 0;
  for (std::size_t k = 0; k < proof_bytes; ++k) {
    auto bytes = c.proof_bytes_;
    bytes[k] ^= static_cast<uint8_t>(1u << (rng() % 8));
    proof p;
    read_error e = decode_proof(bytes, p);
    if (!e.ok()) {
      ++decode_errors;
      const section expect = k < proof_offset_b ? section::proof_a : k < proof_offset_c ? section::proof_b : section::proof_c;
      EXPECT_EQ(e.section, expect) << k;
      continue;
    }
    EXPECT_EQ(verify(pvk, p, c.inputs), verify_result::invalid) << "byte " << k;
    ++invalid;
  }
  std::printf("[ tamper   ] 192 flipped bytes: %d decode errors, %d invalid\n", decode_errors, invalid);
  // Changes that keep valid group elements: negate each element (flip its sign flag), swap A, C.
  for (std::size_t at : {proof_offset_a, proof_offset_b, proof_offset_c}) {
    auto bytes = c.proof_bytes_;
    bytes[at] ^= 0x20;
    proof p;
    ASSERT_TRUE(decode_proof(bytes, p).ok()) << at;
    EXPECT_EQ(verify(pvk, p, c.inputs), verify_result::invalid) << at;
  }
  proof swapped = c.pf;
  std::swap(swapped.a, swapped.c);
  EXPECT_EQ(verify(pvk, swapped, c.inputs), verify_result::invalid);
}

TEST(Groth16Verifier, ToyStatements) {
  cuzk::test::seeded_rng rng;
  for (std::size_t n : {0u, 1u, 4u}) {
    const auto key = test::make_toy_key(rng, n);
    const auto pvk = prepare_verifying_key(key.vk);
    std::vector<fr> x(n);
    for (fr& v : x) v = fr::random(rng);
    const proof p = test::make_toy_proof(rng, key, x);
    EXPECT_EQ(verify(pvk, p, x), verify_result::valid) << n;
    proof q = p;
    q.c = (ec::g1_jacobian::from_affine(q.c) + ec::g1_affine::generator()).to_affine();
    EXPECT_EQ(verify(pvk, q, x), verify_result::invalid) << n;
    // Round trip through the wire form keeps it valid.
    proof r;
    ASSERT_TRUE(decode_proof(encode_proof(p), r).ok());
    EXPECT_EQ(verify(pvk, r, x), verify_result::valid);
  }
}

// --- batch -------------------------------------------------------------------------------------

struct prepared_case {
  const bellman_case* c;
  prepared_verifying_key pvk;
};

std::vector<prepared_case> decodable_cases() {
  std::vector<prepared_case> out;
  for (const bellman_case& c : bellman_cases())
    if (!c.vk_error && c.proof_error.ok()) out.push_back({&c, prepare_verifying_key(c.vk)});
  return out;
}

batch_item item(const prepared_case& p) { return {&p.pvk, &p.c->pf, p.c->inputs}; }

TEST(Groth16BatchVerifier, BellmanValidTogetherAndAnyInvalidRejected) {
  cuzk::test::seeded_rng rng;
  const auto cases = decodable_cases();
  std::vector<batch_item> good;
  std::vector<batch_item> bad;
  for (const prepared_case& p : cases) (p.c->valid ? good : bad).push_back(item(p));
  ASSERT_EQ(good.size(), 6u);
  EXPECT_EQ(verify_batch(std::span<const batch_item>(good), rng), verify_result::valid);
  // Every decodable invalid case spoils the batch, wherever it sits.
  for (std::size_t k = 0; k < bad.size(); ++k) {
    std::vector<batch_item> mixed = good;
    mixed.insert(mixed.begin() + static_cast<std::ptrdiff_t>(k % (good.size() + 1)), bad[k]);
    EXPECT_EQ(verify_batch(std::span<const batch_item>(mixed), rng), verify_result::invalid) << k;
  }
  // Singletons agree with verify().
  for (const prepared_case& p : cases) {
    const batch_item one[] = {item(p)};
    EXPECT_EQ(verify_batch(std::span<const batch_item>(one), rng) == verify_result::valid, p.c->valid) << p.c->index;
  }
}

TEST(Groth16BatchVerifier, SharedKeyManyProofs) {
  cuzk::test::seeded_rng rng;
  const auto key = test::make_toy_key(rng, 3);
  const auto pvk = prepare_verifying_key(key.vk);
  const auto key2 = test::make_toy_key(rng, 1);
  const auto pvk2 = prepare_verifying_key(key2.vk);
  std::vector<std::vector<fr>> inputs;
  std::vector<proof> proofs;
  std::vector<const prepared_verifying_key*> keys;
  for (int j = 0; j < 6; ++j) {
    const bool second = j % 3 == 2;
    std::vector<fr> x(second ? 1 : 3);
    for (fr& v : x) v = fr::random(rng);
    proofs.push_back(test::make_toy_proof(rng, second ? key2 : key, x));
    inputs.push_back(std::move(x));
    keys.push_back(second ? &pvk2 : &pvk);
  }
  auto items = [&] {
    std::vector<batch_item> v;
    for (std::size_t j = 0; j < proofs.size(); ++j) v.push_back({keys[j], &proofs[j], inputs[j]});
    return v;
  };
  EXPECT_EQ(verify_batch(std::span<const batch_item>(items()), rng), verify_result::valid);
  // Swapping the inputs of two proofs under the same key: each proof now fails alone.
  std::swap(inputs[0], inputs[1]);
  EXPECT_EQ(verify_batch(std::span<const batch_item>(items()), rng), verify_result::invalid);
  std::swap(inputs[0], inputs[1]);
  // Two invalid proofs whose errors would cancel with equal coefficients: C_0 + G, C_1 - G.
  proofs[0].c = (ec::g1_jacobian::from_affine(proofs[0].c) + g1_affine::generator()).to_affine();
  proofs[1].c = (ec::g1_jacobian::from_affine(proofs[1].c) - g1_affine::generator()).to_affine();
  std::vector<fr> equal(proofs.size(), fr::one());
  EXPECT_EQ(verify_batch(std::span<const batch_item>(items()), std::span<const fr>(equal)), verify_result::valid)
      << "equal coefficients are blind to cancelling errors (why they must be random)";
  EXPECT_EQ(verify_batch(std::span<const batch_item>(items()), rng), verify_result::invalid);
}

TEST(Groth16BatchVerifier, Arguments) {
  cuzk::test::seeded_rng rng;
  const auto cases = decodable_cases();
  const prepared_case& p = cases.front();
  ASSERT_TRUE(p.c->valid);
  const batch_item one[] = {item(p)};
  const fr zero[] = {fr::zero()};
  const fr two[] = {fr::one(), fr::one()};
  EXPECT_EQ(verify_batch(std::span<const batch_item>(one), std::span<const fr>(zero)), verify_result::bad_argument);
  EXPECT_EQ(verify_batch(std::span<const batch_item>(one), std::span<const fr>(two)), verify_result::bad_argument);
  const batch_item null_key[] = {{nullptr, &p.c->pf, p.c->inputs}};
  EXPECT_EQ(verify_batch(std::span<const batch_item>(null_key), rng), verify_result::bad_argument);
  const batch_item short_inputs[] = {{&p.pvk, &p.c->pf, {}}};
  EXPECT_EQ(verify_batch(std::span<const batch_item>(short_inputs), rng), verify_result::wrong_input_count);
  EXPECT_EQ(verify_batch(std::span<const batch_item>(), rng), verify_result::valid);
  const fr big[] = {fr::from_u64(12345)};
  EXPECT_EQ(verify_batch(std::span<const batch_item>(one), std::span<const fr>(big)), verify_result::valid);
  EXPECT_FALSE(batch_coefficient(rng).is_zero());
}

}  // namespace
}  // namespace cuzk::groth16
