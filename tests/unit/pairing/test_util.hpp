// Helpers shared by the pairing tests: arbitrary-precision unsigned integers (only what the
// tests need to derive exponents such as p^k and (p^4 - p^2 + 1)/r from p, r and x), and a
// deliberately naive affine scalar multiplication (the independent twin of the ec layer's).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "ec/curves.hpp"
#include "ff/bigint.hpp"

namespace cuzk::test {

// Little-endian 64-bit limbs, no leading-zero trimming required.
using nat = std::vector<uint64_t>;

template <std::size_t N>
nat to_nat(const ff::bigint<N>& a) {
  return nat(a.w, a.w + N);
}
inline nat nat_u64(uint64_t v) { return nat{v}; }

inline nat nat_add(const nat& a, const nat& b) {
  nat r(std::max(a.size(), b.size()) + 1, 0);
  uint64_t carry = 0;
  for (std::size_t i = 0; i < r.size(); ++i)
    r[i] = ff::adc(i < a.size() ? a[i] : 0, i < b.size() ? b[i] : 0, carry);
  return r;
}
// a - b, requires a >= b.
inline nat nat_sub(const nat& a, const nat& b) {
  nat r(a.size(), 0);
  uint64_t borrow = 0;
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = ff::sbb(a[i], i < b.size() ? b[i] : 0, borrow);
  for (std::size_t i = a.size(); i < b.size(); ++i)
    if (b[i] != 0) borrow = 1;
  if (borrow) throw std::logic_error("nat_sub: negative");
  return r;
}
inline nat nat_mul(const nat& a, const nat& b) {
  nat r(a.size() + b.size(), 0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    uint64_t carry = 0;
    for (std::size_t j = 0; j < b.size(); ++j) r[i + j] = ff::mac(r[i + j], a[i], b[j], carry);
    r[i + b.size()] = carry;
  }
  return r;
}
inline nat nat_pow(const nat& a, unsigned k) {
  nat r = nat_u64(1);
  for (unsigned i = 0; i < k; ++i) r = nat_mul(r, a);
  return r;
}
// a / d for a small divisor; rem receives a mod d.
inline nat nat_div_small(const nat& a, uint64_t d, uint64_t& rem) {
  nat q(a.size(), 0);
  ff::u128 r = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    r = (r << 64) | a[i];
    q[i] = static_cast<uint64_t>(r / d);
    r %= d;
  }
  rem = static_cast<uint64_t>(r);
  return q;
}
inline bool nat_eq(const nat& a, const nat& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    if ((i < a.size() ? a[i] : 0) != (i < b.size() ? b[i] : 0)) return false;
  return true;
}
// Narrow to a fixed-width bigint (throws if it does not fit).
template <std::size_t N>
ff::bigint<N> to_bigint(const nat& a) {
  ff::bigint<N> r{};
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i < N) r.w[i] = a[i];
    else if (a[i] != 0) throw std::logic_error("to_bigint: does not fit");
  }
  return r;
}

// Affine chord-and-tangent arithmetic with one field inversion per step: slow and obviously
// correct, the twin of the ec layer's projective formulas.
template <class Affine>
Affine affine_add(const Affine& p, const Affine& q) {
  using F = typename Affine::field;
  if (p.infinity) return q;
  if (q.infinity) return p;
  F lambda;
  if (p.x == q.x) {
    if (p.y != q.y || p.y.is_zero()) return Affine::identity();
    const F x2 = p.x * p.x;
    lambda = (x2 + x2 + x2) * (p.y + p.y).inverse();
  } else {
    lambda = (q.y - p.y) * (q.x - p.x).inverse();
  }
  const F x3 = lambda * lambda - p.x - q.x;
  return {x3, lambda * (p.x - x3) - p.y, false};
}

template <class Affine, std::size_t N>
Affine affine_mul(const Affine& p, const ff::bigint<N>& k) {
  Affine acc = Affine::identity();
  for (std::size_t i = ff::bit_length(k); i-- > 0;) {
    acc = affine_add(acc, acc);
    if (ff::test_bit(k, i)) acc = affine_add(acc, p);
  }
  return acc;
}
template <class Affine>
Affine affine_mul(const Affine& p, const ff::fr& k) {
  return affine_mul(p, k.to_canonical());
}

}  // namespace cuzk::test
