// Native twin of the Poseidon circuit: neptune's optimized permutation, recording the circuit's
// intermediate values (see poseidon_witness.hpp). Cost: the permutation (about 2,000 Fr
// products for arity 8) plus 2 squarings per S-box already counted in it; one store per value.
#include "gadgets/native/poseidon_witness.hpp"

#include <stdexcept>

#include "gadgets/native/poseidon_native.hpp"

namespace cuzk::gadgets::native {

std::size_t poseidon_witness_size(const poseidon_params& p) {
  return 3 * p.arity + 4 * p.width * (p.full_rounds - 1) + 4 * p.partial_rounds + 1;
}

fr poseidon_witness(const poseidon_params& p, const fr& domain_tag, std::span<const fr> preimage, std::span<fr> aux) {
  if (preimage.size() != p.arity) throw std::invalid_argument("poseidon_witness: preimage size must equal the arity");
  if (aux.size() < poseidon_witness_size(p)) throw std::invalid_argument("poseidon_witness: aux span too small");
  const std::size_t t = p.width;
  if (t > 64) throw std::invalid_argument("poseidon_witness: width above 64");
  fr s[64], tmp[64];
  fr* out = aux.data();
  const fr* rc = p.compressed_round_constants.data();

  // S-box on an allocated input v: records v^2, v^4, v^5 + post and returns the latter.
  auto sbox = [&out](const fr& v, const fr* post) {
    const fr v2 = v.square(), v4 = v2.square();
    fr v5 = v4 * v;
    if (post) v5 += *post;
    out[0] = v2;
    out[1] = v4;
    out[2] = v5;
    out += 3;
    return v5;
  };
  auto dense = [&](const poseidon_matrix& m) {
    for (std::size_t j = 0; j < t; ++j) tmp[j] = fr_dot_product(s, m.a.data() + j, t, t);
    for (std::size_t j = 0; j < t; ++j) s[j] = tmp[j];
  };
  // A full round whose S-box inputs are linear combinations: each is allocated first.
  auto full_round = [&](const fr* post) {
    for (std::size_t i = 0; i < t; ++i) {
      *out++ = s[i];
      s[i] = sbox(s[i], post ? post + i : nullptr);
    }
  };

  // First full round: the tag's S-box is a constant; the preimage S-boxes add rk first.
  {
    const fr x0 = domain_tag + rc[0];
    s[0] = x0.square().square() * x0 + rc[t];
    for (std::size_t i = 1; i < t; ++i) s[i] = sbox(preimage[i - 1] + rc[i], rc + t + i);
    rc += 2 * t;
  }
  dense(p.half_full_rounds == 1 ? p.pre_sparse_matrix : p.mds);
  for (std::size_t r = 1; r < p.half_full_rounds; ++r, rc += t) {
    full_round(rc);
    dense(r + 1 == p.half_full_rounds ? p.pre_sparse_matrix : p.mds);
  }
  const fr* sp = p.sparse_flat.data();
  for (std::size_t r = 0; r < p.partial_rounds; ++r, ++rc, sp += 2 * t - 1) {
    *out++ = s[0];
    const fr s0 = sbox(s[0], rc);
    s[0] = s0;
    const fr new0 = fr_dot_product(s, sp, t);
    for (std::size_t i = 1; i < t; ++i) s[i] += s0 * sp[t + i - 1];
    s[0] = new0;
  }
  for (std::size_t r = 0; r + 1 < p.half_full_rounds; ++r, rc += t) {
    full_round(rc);
    dense(p.mds);
  }
  full_round(nullptr);
  dense(p.mds);
  *out++ = s[1];
  return s[1];
}

}  // namespace cuzk::gadgets::native
