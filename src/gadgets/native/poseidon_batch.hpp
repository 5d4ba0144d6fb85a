// Batched native Poseidon: many independent hashes of one arity (a tree level, a column batch)
// at once. On CPUs with AVX-512 IFMA (vpmadd52luq/vpmadd52huq: 8 lanes of 52 x 52 -> 104-bit
// products) eight hashes run side by side, one per 64-bit lane, over 5 limbs of 52 bits; the
// scalar optimized permutation (poseidon_native.hpp) is the fallback and the reference the
// tests compare against.
//
// IFMA arithmetic (per lane): Montgomery form with R' = 2^260 (5 x 52 bits), values kept in
// [0, 2p) between operations (p = r, the BLS12-381 scalar modulus, ~0.453 * 2^256):
//   * product: 25 + 25 low/high multiply-adds, then a CIOS-style reduction of 5 x (1 + 10)
//     multiply-adds; for inputs < 4p the result is < p (1 + 4p / R') < 2p;
//   * dot products (the MDS and sparse-matrix rows): all t products accumulated unreduced in 10
//     columns (each < 2^60 for t <= 17), one reduction: result < p (1 + 2t p / R') < 2p for
//     state < 2p and constants < p, which holds up to width 17 (t p / R' < 0.49);
//   * additions subtract 2p when the sum reaches it, so every state element stays < 2p;
//   * outputs are fully reduced and converted to the scalar Montgomery form (R = 2^256).
// Widths 3, 5, 9, 12 and 17 (arities 2, 4, 8, 11, 16) take the IFMA path; others the scalar one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gadgets/native/poseidon_params.hpp"

namespace cuzk::gadgets::native {

// True when the CPU and OS support AVX-512 F and IFMA (checked once).
bool has_avx512_ifma();

enum class poseidon_kernel : uint8_t { automatic, scalar, ifma };

class poseidon_batch_hasher {
 public:
  // Precomputes the constants in the IFMA form: one scalar product per constant (arity 8:
  // 2 t^2 + 8t + R_P + R_P (2t - 1) = 1,260 of them, about 30 us).
  // kernel = ifma on a CPU without IFMA, or for an unsupported width, falls back to scalar.
  explicit poseidon_batch_hasher(const poseidon_params& p, poseidon_kernel kernel = poseidon_kernel::automatic);

  const poseidon_params& params() const { return *p_; }
  poseidon_kernel kernel() const { return kernel_; }

  // out[k] = Poseidon(domain_tag, in[k * arity .. (k + 1) * arity)) for k < count (full-width
  // preimages, as Merkle trees and column hashes use). in and out may not overlap.
  void hash(const fr* in, std::size_t count, fr* out, const fr& domain_tag) const {
    run(in, count, out, domain_tag, nullptr, nullptr);
  }
  // With the MerkleTree tag 2^arity - 1.
  void hash(const fr* in, std::size_t count, fr* out) const { hash(in, count, out, p_->merkle_domain_tag); }

  // The same hashes, and for each the Poseidon circuit's witness (poseidon_witness.hpp):
  // poseidon_witness_size(params()) values per hash, hash k's at aux + k * that size. Costs one
  // extra lane product per recorded value (arity 8: 505 values, about +35%).
  void witness(const fr* in, std::size_t count, fr* out, fr* aux, const fr& domain_tag) const {
    run(in, count, out, domain_tag, aux, nullptr);
  }
  // Same, hash k's witness at aux_rows[k] (e.g. inside each of several PoR witnesses).
  void witness(const fr* in, std::size_t count, fr* out, fr* const* aux_rows, const fr& domain_tag) const {
    run(in, count, out, domain_tag, nullptr, aux_rows);
  }

 private:
  void run(const fr* in, std::size_t count, fr* out, const fr& domain_tag, fr* aux, fr* const* aux_rows) const;

  const poseidon_params* p_;
  poseidon_kernel kernel_;
  // Constants as 5 x 52-bit limbs in the IFMA Montgomery form (x * 2^260 mod p), canonical.
  std::vector<uint64_t> crc_, mds_, pre_sparse_, sparse_;
};

// Cached batch hashers for Filecoin's constants (arity 2, 4, 8, 11, 16, 24, 36), automatic
// kernel; built on first use (thread-safe).
const poseidon_batch_hasher& poseidon_batch_for_arity(std::size_t arity);

}  // namespace cuzk::gadgets::native
