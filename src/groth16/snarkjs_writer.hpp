// Writers for snarkjs's binary files on BLS12-381: a Groth16 .zkey made from one of our recorded
// circuit shapes and known toxic waste, and a .wtns for a witness. With them snarkjs and cuzk
// prove the same circuit from the same files, which is how the two provers are timed side by
// side at 2^16..2^20 (snarkjs's own phase 2 does not finish there on 2 cores) and an independent
// check of the snarkjs-side algebra: snarkjs proves with our key and verifies with the key it
// exports from it.
//
// The key is the one snarkjs's `zkey new` + contributions would give for the same r1cs and
// toxic waste (shared/notes/snarkjs-formats.md §2.3), with the wire order w = inputs || aux of
// the shape (input 0 = ONE, then the public signals, then the private ones):
//
//   constraints  the shape's rows, then nPublic + 1 extra rows A[nCons + s] = w_s (s = 0..nPublic),
//                which are bellperson's `input_s * 0 = 0` rows; domain n = 2^ceil(log2(nCons +
//                nPublic + 1)); constraint j sits at omega_s^j with omega_s ffjavascript's root
//                (5^((r-1)/2^32) squared down), not bellperson's
//   L_j(tau)     = (tau^n - 1) / n * x_j / (tau - x_j),  x_j = omega_s^j  (one batch inversion)
//   A_i, B_i, C_i (tau) = sum_j M[j][i] L_j(tau)
//   section 3    IC_i = (beta A_i + alpha B_i + C_i) / gamma          i = 0..nPublic
//   section 4    the A terms then the B terms of each row (row order), then the extra rows; value
//                v stored as v R^2 mod r (R = 2^256)
//   section 5-7  A_i g1, B_i g1, B_i g2 for every wire (identity = zero bytes)
//   section 8    (beta A_i + alpha B_i + C_i) / delta g1             private wires
//   section 9    L^{2n}_{2i+1}(tau) / delta g1, i < n: the odd points of the 2n-domain of
//                omega_{2n,s} (ffjavascript's 2n-th root, whose square is omega_s)
//   section 10   csHash (BLAKE2b-512 of sections 2..9 as written; snarkjs hashes its own
//                transcript, which it only reads back in `zkey verify`) and zero contributions
//   header       alpha g1, beta g1, beta g2, gamma g2, delta g1, delta g2; sections in
//                snarkjs's order 1, 2, 4, 3, 9, 8, 5, 6, 7, 10
//
// Cost: 2n + 3 nnz Fr multiplications, one inversion per chunk; fixed-base multiplications:
// n + 3 nVars G1, nVars G2 (groth16/fixed_base.hpp); seconds at n = 2^20 on 2 cores.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/executor.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_format.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::groth16::snarkjs {

// The key for shape and toxic waste. Throws setup_error for gamma or delta = 0 or tau in one of
// the two domains (probability ~2^-230 for random waste), std::invalid_argument for a malformed
// shape or one too large for the format (u32 counts, domain <= 2^28 here).
zkey make_zkey(const cuzk::r1cs::r1cs_shape& shape, const toxic_waste& tw, base::executor& ex);

// The .zkey bytes (version 1, ten sections) of z. z.coeffs.value are the plain coefficients.
std::vector<uint8_t> encode_zkey(const zkey& z, base::executor& ex);
error write_zkey_file(const std::string& path, const zkey& z, base::executor& ex);

// The .wtns bytes (version 2): header (n8 = 32, r, count) and the values, LE standard form.
std::vector<uint8_t> encode_wtns(std::span<const fr> witness);
error write_wtns_file(const std::string& path, std::span<const fr> witness);

}  // namespace cuzk::groth16::snarkjs
