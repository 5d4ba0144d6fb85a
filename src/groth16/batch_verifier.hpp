// Batch verification by a random linear combination (bellperson's verify_proofs_batch, Zcash
// protocol spec appendix B.2), generalised to proofs under several verifying keys. With a
// non-zero random r_j per proof it checks
//   prod_j e(r_j A_j, B_j) * prod_k [ e(sum_{j in k} r_j IC_j, -gamma_k) e(sum_{j in k} r_j C_j, -delta_k) ]
//     == prod_k e(alpha_k, beta_k)^(sum_{j in k} r_j)
// (k over distinct keys, grouped by pointer) with one final exponentiation. If every proof is
// valid the check passes; if any is invalid it fails except with probability <= 2^-128 over
// 128-bit coefficients (bellperson also draws u128s). So it accepts iff all proofs verify.
//
// Cost: per proof one unprepared Miller loop (sharing the accumulator squarings) and two 128-bit
// G1 multiplications (r A, r C); per key (1 + inputs) G1 scalar multiplications, two prepared
// Miller loops and one GT exponentiation; one final exponentiation in all. n single
// verifications would cost n final exponentiations and 2n prepared Miller loops more.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "groth16/verifier.hpp"

namespace cuzk::groth16 {

struct batch_item {
  const prepared_verifying_key* pvk;
  const proof* p;
  std::span<const fr> public_inputs;  // without ONE, as for verify()
};

// With the coefficients given, one per item. Returns wrong_input_count if any item's input count
// does not match its key (nothing checked), bad_argument for a null pointer, a coefficient count
// other than items.size() or a zero coefficient (a zero would leave its proof unchecked). An
// empty batch is valid (all of its zero proofs verify).
verify_result verify_batch(std::span<const batch_item> items, std::span<const fr> coefficients);

// A non-zero 128-bit coefficient from two 64-bit draws of rng (any callable returning uint64_t,
// like the Rng of fr::random).
template <class Rng>
fr batch_coefficient(Rng& rng) {
  for (;;) {
    const uint64_t lo = static_cast<uint64_t>(rng());
    const uint64_t hi = static_cast<uint64_t>(rng());
    if (lo != 0 || hi != 0) return fr::from_canonical(fr::repr{{lo, hi, 0, 0}});
  }
}

// With coefficients drawn from rng (the randomness must be unpredictable to whoever made the
// proofs: seed it from a CSPRNG in production).
template <class Rng>
verify_result verify_batch(std::span<const batch_item> items, Rng& rng) {
  std::vector<fr> r(items.size());
  for (fr& c : r) c = batch_coefficient(rng);
  return verify_batch(items, std::span<const fr>(r));
}

}  // namespace cuzk::groth16
