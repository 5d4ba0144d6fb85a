// A Groth16 prover for snarkjs proving keys (.zkey) on BLS12-381, producing proofs that
// `snarkjs groth16 verify` accepts. It computes exactly the scalars snarkjs's groth16_prove.js
// computes (shared/notes/snarkjs-formats.md §2.3), with our NTT and MSM layers:
//
//   a_j = sum A-coefficients(j, s) w_s, b_j likewise (zkey section 4, which also holds the
//   n_public + 1 extra rows A[n_cons + s] = 1); c_j = a_j b_j (C is never read);
//   per vector: interpolate on H = <omega_s>, evaluate on the odd coset omega_{2n} H;
//   d_i = a_i b_i - c_i at omega_{2n}^{2i+1}, which pairs with the zkey's H section
//   (L^{2n}_{2i+1}(tau) / delta).
//
// omega_s is ffjavascript's root of unity (5^((r-1)/2^32) squared down), not bellperson's
// (7^...), which our radix2_domain uses. Both generate the same subgroup H: omega_s = omega_b^k
// for an odd k (found once by Pohlig-Hellman), so constraint j goes to NTT slot k*j mod n and
// H point i takes the coset value at slot k*i mod n; the NTTs run unchanged on our domain and
// only the coset shift is snarkjs's, omega_{2n} (g with g^2 = omega_s).
//
// Blinding as snarkjs: A = piA + alpha1 + r delta1, B = piB + beta2 + s delta2,
// B1 = piB1 + beta1 + s delta1, C = piC + H + s A + r B1 - r s delta1.
// r and s are parameters (the caller draws them; this layer draws no randomness).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/executor.hpp"
#include "groth16/proof.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::groth16::snarkjs {

// ffjavascript's Fr.w[k]: the primitive 2^k-th root of unity 5^((r-1)/2^32)^(2^(32-k)), k <= 32.
fr ffjs_root_of_unity(unsigned log_n);
// k with bellperson_omega(n)^k == ffjs_root_of_unity(log n) (odd; k < n).
uint64_t ffjs_omega_exponent(unsigned log_n);

struct prove_timings {
  double h_ms = 0;    // a, b, c and the six NTTs (compute_h_scalars)
  double msm_ms = 0;  // the five MSMs
  double total_ms = 0;
};

// The H scalars snarkjs computes (standard-form values as Fr elements), in H-point order:
// d[i] = (A*B - C)(omega_{2n}^{2i+1}). Exposed for tests.
std::vector<fr> compute_h_scalars(const zkey& z, std::span<const fr> witness, base::executor& ex);

// Throws std::invalid_argument when witness.size() != z.n_vars.
proof prove(const zkey& z, std::span<const fr> witness, const fr& r, const fr& s, base::executor& ex,
            prove_timings* timings = nullptr);

// The verifying key in a zkey (ic, alpha, beta, gamma, delta).
verifying_key verifying_key_of(const zkey& z);

// public signals = w[1 .. n_public].
std::vector<fr> public_signals(const zkey& z, std::span<const fr> witness);

}  // namespace cuzk::groth16::snarkjs
