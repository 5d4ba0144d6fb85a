// The snarkjs .zkey / .wtns writers: a key written by snarkjs (testdata/snarkjs) re-encodes to
// its own bytes section by section (sections 1-9; 10 is our csHash); the committed circom witness
// re-encodes to its own bytes; a key made from the test circuit's shape reads back through the
// validating reader and proves with the snarkjs-path prover, and our verifier accepts exactly the
// true statement. The cross-check against snarkjs itself is tests/snarkjs/zkey_writer.mjs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "groth16/snarkjs_format.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "groth16/snarkjs_writer.hpp"
#include "groth16/verifier.hpp"
#include "support/seed.hpp"
#include "testcircuit/mimc_chain.hpp"
#include "unit/snarkjs/fixtures.hpp"

namespace sj = cuzk::groth16::snarkjs;
namespace g16 = cuzk::groth16;
using cuzk::ff::fr;

namespace {

using cuzk::test::snarkjs_fixtures::slurp;

cuzk::base::serial_executor serial;

std::vector<uint8_t> section(const std::vector<uint8_t>& file, const char* kind, uint32_t version, uint32_t id) {
  std::vector<sj::section_ref> secs;
  const sj::error e = sj::scan_container(file, kind, version, secs);
  EXPECT_TRUE(e.ok()) << e.message();
  for (const auto& s : secs)
    if (s.id == id) return {file.begin() + static_cast<std::ptrdiff_t>(s.offset),
                            file.begin() + static_cast<std::ptrdiff_t>(s.offset + s.size)};
  ADD_FAILURE() << "section " << id << " missing";
  return {};
}

}  // namespace

TEST(SnarkjsWriter, ReencodesSnarkjsZkeySectionBySection) {
  const std::vector<uint8_t> orig = slurp("chain.zkey");
  sj::zkey z;
  ASSERT_TRUE(sj::read_zkey(orig, z, serial).ok());
  const std::vector<uint8_t> ours = sj::encode_zkey(z, serial);
  for (uint32_t id = 1; id <= 9; ++id)
    EXPECT_EQ(section(ours, "zkey", 1, id), section(orig, "zkey", 1, id)) << "section " << id;
  const std::vector<uint8_t> mpc = section(ours, "zkey", 1, 10);
  ASSERT_EQ(mpc.size(), 68u);  // csHash, zero contributions
  EXPECT_EQ(std::vector<uint8_t>(mpc.begin() + 64, mpc.end()), std::vector<uint8_t>(4, 0));
  sj::zkey back;
  ASSERT_TRUE(sj::read_zkey(ours, back, serial).ok());
}

TEST(SnarkjsWriter, ReencodesCircomWitness) {
  const std::vector<uint8_t> orig = slurp("witness.wtns");
  std::vector<fr> w;
  ASSERT_TRUE(sj::read_wtns(orig, w).ok());
  EXPECT_EQ(sj::encode_wtns(w), orig);
}

TEST(SnarkjsWriter, TestCircuitKeyProvesAndVerifies) {
  cuzk::test::seeded_rng rng;
  const auto circuit = cuzk::testcircuit::circuit_cache::global().get(7);
  const auto tw = g16::toxic_waste::random(rng);
  const sj::zkey made = sj::make_zkey(circuit->shape, tw, serial);
  const std::vector<uint8_t> bytes = sj::encode_zkey(made, serial);

  sj::zkey z;
  sj::read_options strict;
  strict.bulk_subgroup = cuzk::ec::subgroup_check::verify;
  const sj::error e = sj::read_zkey(bytes, z, serial, strict);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(z.n_vars, circuit->shape.num_columns());
  EXPECT_EQ(z.n_public, 2u);
  EXPECT_EQ(z.domain_size, 128u);

  const auto cw = cuzk::testcircuit::compute_witness(*circuit, fr::random(rng));
  std::vector<fr> w(cw.inputs);
  w.insert(w.end(), cw.aux.begin(), cw.aux.end());
  std::vector<fr> w_back;
  ASSERT_TRUE(sj::read_wtns(sj::encode_wtns(w), w_back).ok());
  ASSERT_EQ(w_back, w);

  const g16::proof p = sj::prove(z, w, fr::random(rng), fr::random(rng), serial);
  const auto pvk = g16::prepare_verifying_key(sj::verifying_key_of(z));
  std::vector<fr> pub = sj::public_signals(z, w);
  EXPECT_EQ(g16::verify(pvk, p, pub), g16::verify_result::valid);
  pub[1] += fr::one();
  EXPECT_NE(g16::verify(pvk, p, pub), g16::verify_result::valid);

  // A witness that breaks one constraint gives a proof that does not verify.
  std::vector<fr> bad = w;
  bad.back() += fr::one();
  const g16::proof q = sj::prove(z, bad, fr::random(rng), fr::random(rng), serial);
  EXPECT_NE(g16::verify(pvk, q, sj::public_signals(z, bad)), g16::verify_result::valid);
}
