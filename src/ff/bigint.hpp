// Fixed-width unsigned integers as little-endian 64-bit limbs, with the carry primitives every
// field routine is built from. Everything here is constexpr so that Montgomery constants are
// derived from the modulus at compile time (see mont_field.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/hd.hpp"

namespace cuzk::ff {

using u128 = unsigned __int128;

template <std::size_t N>
struct bigint {
  static constexpr std::size_t limbs = N;
  uint64_t w[N];  // w[0] is least significant

  constexpr bool operator==(const bigint&) const = default;
};

// a + b + carry -> (sum, carry out). One add-with-carry.
CUZK_HD_CONSTEXPR uint64_t adc(uint64_t a, uint64_t b, uint64_t& carry) {
  u128 t = static_cast<u128>(a) + b + carry;
  carry = static_cast<uint64_t>(t >> 64);
  return static_cast<uint64_t>(t);
}

// a - b - borrow -> (difference, borrow out in {0,1}).
CUZK_HD_CONSTEXPR uint64_t sbb(uint64_t a, uint64_t b, uint64_t& borrow) {
  u128 t = static_cast<u128>(a) - b - borrow;
  borrow = static_cast<uint64_t>(t >> 127);
  return static_cast<uint64_t>(t);
}

// acc + a*b + carry -> (low word, carry = high word). One multiply-accumulate; never overflows
// 128 bits because (2^64-1)^2 + 2*(2^64-1) = 2^128 - 1.
CUZK_HD_CONSTEXPR uint64_t mac(uint64_t acc, uint64_t a, uint64_t b, uint64_t& carry) {
  u128 t = static_cast<u128>(a) * b + acc + carry;
  carry = static_cast<uint64_t>(t >> 64);
  return static_cast<uint64_t>(t);
}

template <std::size_t N>
CUZK_HD_CONSTEXPR bool is_zero(const bigint<N>& a) {
  uint64_t acc = 0;
  for (std::size_t i = 0; i < N; ++i) acc |= a.w[i];
  return acc == 0;
}

// a < b as unsigned integers.
template <std::size_t N>
CUZK_HD_CONSTEXPR bool less_than(const bigint<N>& a, const bigint<N>& b) {
  uint64_t borrow = 0;
  for (std::size_t i = 0; i < N; ++i) (void)sbb(a.w[i], b.w[i], borrow);
  return borrow != 0;
}

// a += b, returns the carry out.
template <std::size_t N>
CUZK_HD_CONSTEXPR uint64_t add_in_place(bigint<N>& a, const bigint<N>& b) {
  uint64_t carry = 0;
  for (std::size_t i = 0; i < N; ++i) a.w[i] = adc(a.w[i], b.w[i], carry);
  return carry;
}

// a -= b, returns the borrow out.
template <std::size_t N>
CUZK_HD_CONSTEXPR uint64_t sub_in_place(bigint<N>& a, const bigint<N>& b) {
  uint64_t borrow = 0;
  for (std::size_t i = 0; i < N; ++i) a.w[i] = sbb(a.w[i], b.w[i], borrow);
  return borrow;
}

template <std::size_t N>
CUZK_HD_CONSTEXPR bool test_bit(const bigint<N>& a, std::size_t bit) {
  return (a.w[bit / 64] >> (bit % 64)) & 1;
}

// Index of the highest set bit plus one (0 for zero).
template <std::size_t N>
CUZK_HD_CONSTEXPR std::size_t bit_length(const bigint<N>& a) {
  for (std::size_t i = N; i-- > 0;) {
    if (a.w[i] != 0) {
      std::size_t b = 64;
      while (((a.w[i] >> (b - 1)) & 1) == 0) --b;
      return i * 64 + b;
    }
  }
  return 0;
}

// a >>= 1 (logical).
template <std::size_t N>
CUZK_HD_CONSTEXPR void shr1(bigint<N>& a) {
  for (std::size_t i = 0; i + 1 < N; ++i) a.w[i] = (a.w[i] >> 1) | (a.w[i + 1] << 63);
  a.w[N - 1] >>= 1;
}

template <std::size_t N>
constexpr bigint<N> from_u64(uint64_t v) {
  bigint<N> r{};
  r.w[0] = v;
  return r;
}

// Parses a hexadecimal literal ("0x..." optional, '_' separators allowed) at compile time.
// A malformed literal or one that does not fit is a compile error when used in a constant
// expression (the throw cannot be evaluated), and throws at run time otherwise.
template <std::size_t N>
constexpr bigint<N> hex(std::string_view s) {
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  bigint<N> r{};
  std::size_t nibble = 0;
  for (std::size_t i = s.size(); i-- > 0;) {
    char c = s[i];
    if (c == '_') continue;
    uint64_t v = 0;
    if (c >= '0' && c <= '9') v = static_cast<uint64_t>(c - '0');
    else if (c >= 'a' && c <= 'f') v = static_cast<uint64_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v = static_cast<uint64_t>(c - 'A' + 10);
    else throw "bigint::hex: not a hex digit";
    if (nibble >= N * 16) {
      if (v != 0) throw "bigint::hex: literal too large";
      ++nibble;
      continue;
    }
    r.w[nibble / 16] |= v << (4 * (nibble % 16));
    ++nibble;
  }
  return r;
}

}  // namespace cuzk::ff
