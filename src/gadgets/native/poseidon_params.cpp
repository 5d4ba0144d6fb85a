// Construction of neptune's Poseidon constants (see poseidon_params.hpp for the sources).
#include "gadgets/native/poseidon_params.hpp"

#include <array>
#include <mutex>
#include <stdexcept>
#include <string>

namespace cuzk::gadgets::native {

namespace {

using u128 = unsigned __int128;

// ---- Grain LFSR (Poseidon paper, Appendix F; neptune round_constants.rs) --------------------
// 80-bit state b_0..b_79 held with b_i at bit i. Update b_{i+80} = b_{i+62} ^ b_{i+51} ^
// b_{i+38} ^ b_{i+23} ^ b_{i+13} ^ b_i; the first 160 outputs are discarded; outputs are then
// taken in pairs (a, b) and b is emitted only when a = 1 (self-shrinking).
class grain_lfsr {
 public:
  grain_lfsr(unsigned field, unsigned sbox, unsigned field_bits, unsigned t, unsigned r_f, unsigned r_p) {
    std::size_t pos = 0;
    auto append = [&](unsigned nbits, uint64_t v) {
      for (unsigned i = nbits; i-- > 0;) state_ |= static_cast<u128>((v >> i) & 1) << pos++;
    };
    append(2, field);         // b0..b1
    append(4, sbox);          // b2..b5
    append(12, field_bits);   // b6..b17
    append(12, t);            // b18..b29
    append(10, r_f);          // b30..b39
    append(10, r_p);          // b40..b49
    append(30, 0x3fffffff);   // b50..b79
    for (int i = 0; i < 160; ++i) (void)step();
  }

  // Next bit of the self-shrinking output.
  bool next() {
    while (!step()) (void)step();
    return step();
  }

 private:
  bool step() {
    const u128 s = state_;
    const uint64_t b = static_cast<uint64_t>((s >> 62) ^ (s >> 51) ^ (s >> 38) ^ (s >> 23) ^ (s >> 13) ^ s) & 1;
    state_ = (s >> 1) | (static_cast<u128>(b) << 79);
    return b != 0;
  }
  u128 state_ = 0;
};

// ---- small dense matrix algebra over Fr (setup only) ------------------------------------------

poseidon_matrix make_matrix(std::size_t n) {
  poseidon_matrix m;
  m.n = n;
  m.a.assign(n * n, fr::zero());
  return m;
}

poseidon_matrix identity(std::size_t n) {
  poseidon_matrix m = make_matrix(n);
  for (std::size_t i = 0; i < n; ++i) m.at(i, i) = fr::one();
  return m;
}

poseidon_matrix mat_mul(const poseidon_matrix& a, const poseidon_matrix& b) {
  const std::size_t n = a.n;
  poseidon_matrix c = make_matrix(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      const fr aik = a.at(i, k);
      if (aik.is_zero()) continue;
      for (std::size_t j = 0; j < n; ++j) c.at(i, j) += aik * b.at(k, j);
    }
  }
  return c;
}

// Gauss-Jordan elimination; the inverse is unique, so it equals neptune's matrix::invert.
poseidon_matrix invert(const poseidon_matrix& m) {
  const std::size_t n = m.n;
  poseidon_matrix a = m, inv = identity(n);
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t piv = col;
    while (piv < n && a.at(piv, col).is_zero()) ++piv;
    if (piv == n) throw std::logic_error("poseidon: singular matrix");
    if (piv != col) {
      for (std::size_t j = 0; j < n; ++j) {
        std::swap(a.at(piv, j), a.at(col, j));
        std::swap(inv.at(piv, j), inv.at(col, j));
      }
    }
    const fr p_inv = a.at(col, col).inverse();
    for (std::size_t j = 0; j < n; ++j) {
      a.at(col, j) *= p_inv;
      inv.at(col, j) *= p_inv;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (i == col) continue;
      const fr f = a.at(i, col);
      if (f.is_zero()) continue;
      for (std::size_t j = 0; j < n; ++j) {
        a.at(i, j) -= f * a.at(col, j);
        inv.at(i, j) -= f * inv.at(col, j);
      }
    }
  }
  return inv;
}

poseidon_matrix minor00(const poseidon_matrix& m) {
  poseidon_matrix r = make_matrix(m.n - 1);
  for (std::size_t i = 1; i < m.n; ++i)
    for (std::size_t j = 1; j < m.n; ++j) r.at(i - 1, j - 1) = m.at(i, j);
  return r;
}

// M v (v as a column vector): neptune's left_apply_matrix.
std::vector<fr> left_apply(const poseidon_matrix& m, const fr* v) {
  std::vector<fr> r(m.n, fr::zero());
  for (std::size_t i = 0; i < m.n; ++i)
    for (std::size_t j = 0; j < m.n; ++j) r[i] += m.at(i, j) * v[j];
  return r;
}

// neptune mds.rs make_prime: M' = [[1, 0], [0, M_hat]].
poseidon_matrix make_prime(const poseidon_matrix& m) {
  poseidon_matrix r = make_matrix(m.n);
  r.at(0, 0) = fr::one();
  for (std::size_t i = 1; i < m.n; ++i)
    for (std::size_t j = 1; j < m.n; ++j) r.at(i, j) = m.at(i, j);
  return r;
}

// neptune mds.rs make_double_prime: M'' = [[m00, v], [w_hat, I]] with v = M[0][1..],
// w = M[1..][0], w_hat = M_hat^-1 w.
poseidon_matrix make_double_prime(const poseidon_matrix& m, const poseidon_matrix& m_hat_inv) {
  const std::size_t n = m.n;
  std::vector<fr> w(n - 1);
  for (std::size_t i = 1; i < n; ++i) w[i - 1] = m.at(i, 0);
  const std::vector<fr> w_hat = left_apply(m_hat_inv, w.data());
  poseidon_matrix r = make_matrix(n);
  r.at(0, 0) = m.at(0, 0);
  for (std::size_t j = 1; j < n; ++j) r.at(0, j) = m.at(0, j);
  for (std::size_t i = 1; i < n; ++i) {
    r.at(i, 0) = w_hat[i - 1];
    r.at(i, i) = fr::one();
  }
  return r;
}

// neptune mds.rs factor_to_sparse_matrices: starting from curr = base, R_P times factor
// curr = M' M'' (keep M''), then curr = base M'. The last curr is the pre-sparse matrix; the
// kept M'' are applied in reverse order of production.
void factor_to_sparse(const poseidon_matrix& base, std::size_t n, poseidon_matrix& pre_sparse,
                      std::vector<poseidon_sparse_matrix>& sparse) {
  poseidon_matrix curr = base;
  std::vector<poseidon_matrix> all;
  all.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const poseidon_matrix m_hat_inv = invert(minor00(curr));
    all.push_back(make_double_prime(curr, m_hat_inv));
    curr = mat_mul(base, make_prime(curr));
  }
  pre_sparse = curr;
  sparse.clear();
  for (std::size_t k = n; k-- > 0;) {
    const poseidon_matrix& m = all[k];
    poseidon_sparse_matrix s;
    for (std::size_t i = 0; i < m.n; ++i) s.w_hat.push_back(m.at(i, 0));
    for (std::size_t j = 1; j < m.n; ++j) s.v_rest.push_back(m.at(0, j));
    sparse.push_back(std::move(s));
  }
}

// neptune preprocessing.rs compress_round_constants with partial_preprocessed = R_P (all
// partial rounds preprocessed; the only mode neptune uses).
std::vector<fr> compress_round_constants(std::size_t t, std::size_t r_f, std::size_t r_p, const std::vector<fr>& rc,
                                         const poseidon_matrix& m_inv) {
  auto round_keys = [&](std::size_t r) { return rc.data() + r * t; };
  const std::size_t half = r_f / 2;
  std::vector<fr> res;
  res.reserve(r_f * t + r_p);
  res.insert(res.end(), round_keys(0), round_keys(0) + t);
  // Post-S-box keys of the first half's full rounds, pulled back through M (all but the last,
  // whose key comes out of the partial-round preprocessing).
  for (std::size_t i = 0; i + 1 < half; ++i) {
    const std::vector<fr> inv = left_apply(m_inv, round_keys(i + 1));
    res.insert(res.end(), inv.begin(), inv.end());
  }
  // Walk the partial rounds backwards: pull the accumulated key through M^-1, keep its first
  // component as that round's single post-S-box constant, fold the rest into the round before.
  std::vector<fr> partial_keys;
  const std::size_t final_round = half + r_p;
  std::vector<fr> acc(round_keys(final_round), round_keys(final_round) + t);
  for (std::size_t i = 0; i < r_p; ++i) {
    std::vector<fr> inv = left_apply(m_inv, acc.data());
    partial_keys.push_back(inv[0]);
    inv[0] = fr::zero();
    const fr* prev = round_keys(final_round - i - 1);
    for (std::size_t j = 0; j < t; ++j) acc[j] = prev[j] + inv[j];
  }
  const std::vector<fr> last_first_half = left_apply(m_inv, acc.data());
  res.insert(res.end(), last_first_half.begin(), last_first_half.end());
  res.insert(res.end(), partial_keys.rbegin(), partial_keys.rend());
  for (std::size_t i = 1; i < half; ++i) {
    const std::vector<fr> inv = left_apply(m_inv, round_keys(i + half + r_p));
    res.insert(res.end(), inv.begin(), inv.end());
  }
  return res;
}

}  // namespace

std::vector<fr> poseidon_grain_round_constants(std::size_t width, std::size_t full_rounds,
                                               std::size_t partial_rounds, std::size_t count) {
  constexpr unsigned field_bits = 255;  // fr::bits
  static_assert(fr::bits == field_bits);
  grain_lfsr grain(1, 1, field_bits, static_cast<unsigned>(width), static_cast<unsigned>(full_rounds),
                   static_cast<unsigned>(partial_rounds));
  std::vector<fr> out;
  out.reserve(count);
  while (out.size() < count) {
    // 255 bits, most significant first (neptune get_next_bytes: 7 bits, then 31 bytes; the
    // bytes are a big-endian integer); reject candidates >= r.
    ff::bigint<4> c{};
    for (unsigned i = field_bits; i-- > 0;) {
      if (grain.next()) c.w[i / 64] |= uint64_t{1} << (i % 64);
    }
    fr f;
    if (fr::from_canonical_checked(c, f)) out.push_back(f);
  }
  return out;
}

bool poseidon_standard_rounds(std::size_t arity, std::size_t& full_rounds, std::size_t& partial_rounds) {
  // neptune round_numbers.rs calc_round_numbers(t, security_margin = true), M = 128, 256-bit
  // prime (the values for Filecoin's arities; pinned by the constant-file tests).
  full_rounds = 8;
  switch (arity) {
    case 2: partial_rounds = 55; return true;
    case 4: partial_rounds = 56; return true;
    case 8: partial_rounds = 57; return true;
    case 11: partial_rounds = 57; return true;
    case 16: partial_rounds = 59; return true;
    case 24: partial_rounds = 59; return true;
    case 36: partial_rounds = 60; return true;
    default: return false;
  }
}

fr poseidon_merkle_tag(std::size_t arity) {
  if (arity == 0 || arity > 63) throw std::invalid_argument("poseidon_merkle_tag: arity out of range");
  return fr::from_u64((uint64_t{1} << arity) - 1);
}

fr poseidon_custom_tag(uint64_t id) {
  if (id == 0 || id > 256) throw std::invalid_argument("poseidon_custom_tag: id must be in [1, 256]");
  return fr::from_u64(id << 40);
}

fr poseidon_constant_length_tag(uint64_t length) {
  return fr::from_canonical(ff::bigint<4>{{0, length, 0, 0}});
}

poseidon_params make_poseidon_params(std::size_t arity, std::size_t full_rounds, std::size_t partial_rounds) {
  if (arity == 0 || arity > 63 || full_rounds < 2 || full_rounds % 2 != 0 || partial_rounds == 0)
    throw std::invalid_argument("make_poseidon_params: unsupported parameters");
  poseidon_params p;
  const std::size_t t = arity + 1;
  p.arity = arity;
  p.width = t;
  p.full_rounds = full_rounds;
  p.half_full_rounds = full_rounds / 2;
  p.partial_rounds = partial_rounds;
  p.merkle_domain_tag = poseidon_merkle_tag(arity);
  p.round_constants = poseidon_grain_round_constants(t, full_rounds, partial_rounds, (full_rounds + partial_rounds) * t);

  // Cauchy matrix with x_i = i, y_j = t + j: M[i][j] = 1 / (x_i + y_j). Symmetric.
  p.mds = make_matrix(t);
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = 0; j < t; ++j) p.mds.at(i, j) = fr::from_u64(i + t + j).inverse();
  p.mds_inv = invert(p.mds);

  p.compressed_round_constants = compress_round_constants(t, full_rounds, partial_rounds, p.round_constants, p.mds_inv);
  // neptune factors transpose(M); M is symmetric, so that is M itself.
  factor_to_sparse(p.mds, partial_rounds, p.pre_sparse_matrix, p.sparse_matrices);
  p.sparse_flat.reserve(partial_rounds * (2 * t - 1));
  for (const poseidon_sparse_matrix& s : p.sparse_matrices) {
    p.sparse_flat.insert(p.sparse_flat.end(), s.w_hat.begin(), s.w_hat.end());
    p.sparse_flat.insert(p.sparse_flat.end(), s.v_rest.begin(), s.v_rest.end());
  }
  return p;
}

const poseidon_params& poseidon_constants(std::size_t arity) {
  static constexpr std::array<std::size_t, 7> arities = {2, 4, 8, 11, 16, 24, 36};
  static std::array<std::once_flag, 7> once;
  static std::array<poseidon_params, 7> sets;
  for (std::size_t k = 0; k < arities.size(); ++k) {
    if (arities[k] != arity) continue;
    std::call_once(once[k], [k] {
      std::size_t r_f = 0, r_p = 0;
      (void)poseidon_standard_rounds(arities[k], r_f, r_p);
      sets[k] = make_poseidon_params(arities[k], r_f, r_p);
    });
    return sets[k];
  }
  throw std::invalid_argument("poseidon_constants: arity " + std::to_string(arity) +
                              " is not one of Filecoin's {2, 4, 8, 11, 16, 24, 36}");
}

}  // namespace cuzk::gadgets::native
