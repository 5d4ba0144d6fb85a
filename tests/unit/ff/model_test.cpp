// mont_field against a deliberately naive, independent big-integer model: little-endian
// vectors of 32-bit words, schoolbook multiplication and bit-by-bit shift-subtract reduction.
// Nothing here uses ff/ arithmetic; values cross between the two worlds only as canonical
// big-endian bytes, so the byte encodings are checked at the same time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"
#include "support/seed.hpp"

namespace {

using cuzk::ff::fp;
using cuzk::ff::fr;

// ---- the model ---------------------------------------------------------------------------
struct nat {
  std::vector<uint32_t> w;  // little-endian, no leading zero words (zero = empty)

  void trim() {
    while (!w.empty() && w.back() == 0) w.pop_back();
  }
  bool operator==(const nat& o) const { return w == o.w; }
};

nat nat_u64(uint64_t v) {
  nat r;
  r.w = {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
  r.trim();
  return r;
}

nat nat_hex(const std::string& s) {
  nat r;
  int shift = 0;
  uint32_t cur = 0;
  for (std::size_t i = s.size(); i-- > 0;) {
    char c = s[i];
    uint32_t d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : c - 'A' + 10;
    cur |= d << shift;
    shift += 4;
    if (shift == 32) {
      r.w.push_back(cur);
      cur = 0;
      shift = 0;
    }
  }
  if (shift) r.w.push_back(cur);
  r.trim();
  return r;
}

nat nat_from_be(const uint8_t* b, std::size_t n) {
  nat r;
  r.w.assign((n + 3) / 4, 0);
  for (std::size_t i = 0; i < n; ++i) r.w[i / 4] |= static_cast<uint32_t>(b[n - 1 - i]) << (8 * (i % 4));
  r.trim();
  return r;
}

std::vector<uint8_t> nat_to_be(const nat& a, std::size_t n) {
  std::vector<uint8_t> out(n, 0);
  for (std::size_t i = 0; i < n && i / 4 < a.w.size(); ++i) out[n - 1 - i] = static_cast<uint8_t>(a.w[i / 4] >> (8 * (i % 4)));
  return out;
}

int cmp(const nat& a, const nat& b) {
  if (a.w.size() != b.w.size()) return a.w.size() < b.w.size() ? -1 : 1;
  for (std::size_t i = a.w.size(); i-- > 0;)
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
  return 0;
}

nat add(const nat& a, const nat& b) {
  nat r;
  r.w.resize(std::max(a.w.size(), b.w.size()) + 1);
  uint64_t c = 0;
  for (std::size_t i = 0; i < r.w.size(); ++i) {
    c += (i < a.w.size() ? a.w[i] : 0ull) + (i < b.w.size() ? b.w[i] : 0ull);
    r.w[i] = static_cast<uint32_t>(c);
    c >>= 32;
  }
  r.trim();
  return r;
}

nat sub(const nat& a, const nat& b) {  // requires a >= b
  nat r;
  r.w.resize(a.w.size());
  int64_t borrow = 0;
  for (std::size_t i = 0; i < a.w.size(); ++i) {
    int64_t d = static_cast<int64_t>(a.w[i]) - (i < b.w.size() ? b.w[i] : 0) - borrow;
    borrow = d < 0;
    r.w[i] = static_cast<uint32_t>(d + (borrow << 32));
  }
  r.trim();
  return r;
}

nat mul(const nat& a, const nat& b) {
  nat r;
  r.w.assign(a.w.size() + b.w.size() + 1, 0);
  for (std::size_t i = 0; i < a.w.size(); ++i) {
    uint64_t c = 0;
    for (std::size_t j = 0; j < b.w.size(); ++j) {
      c += static_cast<uint64_t>(a.w[i]) * b.w[j] + r.w[i + j];
      r.w[i + j] = static_cast<uint32_t>(c);
      c >>= 32;
    }
    for (std::size_t k = i + b.w.size(); c; ++k) {
      c += r.w[k];
      r.w[k] = static_cast<uint32_t>(c);
      c >>= 32;
    }
  }
  r.trim();
  return r;
}

std::size_t nbits(const nat& a) {
  if (a.w.empty()) return 0;
  std::size_t b = 32 * a.w.size();
  uint32_t top = a.w.back();
  while (!(top & 0x80000000u)) {
    top <<= 1;
    --b;
  }
  return b;
}

bool bit(const nat& a, std::size_t i) { return i / 32 < a.w.size() && ((a.w[i / 32] >> (i % 32)) & 1); }

// a mod m by binary long division: r = 2r + bit, subtract m when r >= m (in place, one
// word longer than m so the doubling cannot overflow).
nat mod(const nat& a, const nat& m) {
  const std::size_t n = m.w.size() + 1;
  std::vector<uint32_t> r(n, 0);
  auto geq = [&] {
    for (std::size_t i = n; i-- > 0;) {
      const uint32_t mi = i < m.w.size() ? m.w[i] : 0;
      if (r[i] != mi) return r[i] > mi;
    }
    return true;
  };
  for (std::size_t i = nbits(a); i-- > 0;) {
    uint32_t carry = bit(a, i);
    for (std::size_t j = 0; j < n; ++j) {
      const uint32_t top = r[j] >> 31;
      r[j] = (r[j] << 1) | carry;
      carry = top;
    }
    if (geq()) {
      int64_t borrow = 0;
      for (std::size_t j = 0; j < n; ++j) {
        int64_t d = static_cast<int64_t>(r[j]) - (j < m.w.size() ? m.w[j] : 0) - borrow;
        borrow = d < 0;
        r[j] = static_cast<uint32_t>(d + (borrow << 32));
      }
    }
  }
  nat out;
  out.w = std::move(r);
  out.trim();
  return out;
}

nat powmod(const nat& a, const nat& e, const nat& m) {
  nat r = mod(nat_u64(1), m);
  for (std::size_t i = nbits(e); i-- > 0;) {
    r = mod(mul(r, r), m);
    if (bit(e, i)) r = mod(mul(r, a), m);
  }
  return r;
}

// ---- bridging ----------------------------------------------------------------------------
template <class F>
nat to_nat(const F& x) {
  uint8_t b[F::bytes];
  x.to_bytes_be(b);
  return nat_from_be(b, F::bytes);
}

template <class F>
F from_nat(const nat& x) {
  auto b = nat_to_be(x, F::bytes);
  F r;
  EXPECT_TRUE(F::from_bytes_be(b.data(), r));
  return r;
}

template <class F>
nat modulus_nat();
template <>
nat modulus_nat<fp>() {
  return nat_hex("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
}
template <>
nat modulus_nat<fr>() {
  return nat_hex("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
}

// Edge integers in [0, p), built in the model.
template <class F>
std::vector<nat> edge_nats() {
  const nat p = modulus_nat<F>();
  const std::size_t limbs = F::N, words = 2 * limbs;
  std::vector<nat> v;
  v.push_back(nat{});
  v.push_back(nat_u64(1));
  v.push_back(nat_u64(2));
  v.push_back(nat_u64(~uint64_t{0}));
  v.push_back(sub(p, nat_u64(1)));
  v.push_back(sub(p, nat_u64(2)));
  nat half;  // (p - 1) / 2, by a one-bit right shift
  {
    nat pm1 = sub(p, nat_u64(1));
    half.w.assign(pm1.w.size(), 0);
    for (std::size_t i = 0; i < pm1.w.size(); ++i)
      half.w[i] = (pm1.w[i] >> 1) | (i + 1 < pm1.w.size() ? pm1.w[i + 1] << 31 : 0);
    half.trim();
  }
  v.push_back(half);
  v.push_back(add(half, nat_u64(1)));
  nat rr;  // R = 2^(64N)
  rr.w.assign(words + 1, 0);
  rr.w[words] = 1;
  v.push_back(mod(rr, p));             // R mod p
  v.push_back(mod(mul(rr, rr), p));    // R^2 mod p
  nat ones;                            // all-ones below the top limb, top limb = p's top - 1
  ones.w.assign(words, 0xffffffffu);
  ones.w[words - 1] = p.w[words - 1];
  ones.w[words - 2] = p.w[words - 2] - 1;  // p's second word is not 0 for either modulus
  ones.trim();
  v.push_back(ones);
  nat zeros;  // top limb = p's top limb, lower limbs zero
  zeros.w.assign(words, 0);
  zeros.w[words - 1] = p.w[words - 1];
  zeros.w[words - 2] = p.w[words - 2];
  zeros.trim();
  v.push_back(zeros);
  for (const auto& x : v) EXPECT_LT(cmp(x, p), 0);
  return v;
}

template <class F>
class ff_model : public ::testing::Test {};
using Fields = ::testing::Types<fp, fr>;
TYPED_TEST_SUITE(ff_model, Fields);

template <class F>
void check_ring_ops(const nat& A, const nat& B, const nat& p) {
  const F a = from_nat<F>(A), b = from_nat<F>(B);
  ASSERT_EQ(to_nat(a), A);
  ASSERT_EQ(to_nat(a + b), mod(add(A, B), p));
  ASSERT_EQ(to_nat(a - b), mod(sub(add(A, p), B), p));
  ASSERT_EQ(to_nat(-a), mod(sub(p, A), p));
  ASSERT_EQ(to_nat(a * b), mod(mul(A, B), p));
  ASSERT_EQ(to_nat(F::mul_portable(a, b)), mod(mul(A, B), p));
  ASSERT_EQ(to_nat(a.square()), mod(mul(A, A), p));
  ASSERT_EQ(to_nat(a.dbl()), mod(add(A, A), p));
}

TYPED_TEST(ff_model, EdgeValues) {
  using F = TypeParam;
  const nat p = modulus_nat<F>();
  const auto edges = edge_nats<F>();
  for (const auto& A : edges)
    for (const auto& B : edges) check_ring_ops<F>(A, B, p);
  // Montgomery constants as integers.
  ASSERT_EQ(to_nat(F::one()), nat_u64(1));
  ASSERT_EQ(to_nat(F::from_montgomery_repr(F::r2)), edges[8]);  // R^2 / R = R mod p
}

TYPED_TEST(ff_model, RandomRingOps) {
  using F = TypeParam;
  const nat p = modulus_nat<F>();
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 300; ++i) {
    const F a = F::random(rng), b = F::random(rng);
    check_ring_ops<F>(to_nat(a), to_nat(b), p);
  }
}

TYPED_TEST(ff_model, Inverse) {
  using F = TypeParam;
  const nat p = modulus_nat<F>();
  cuzk::test::seeded_rng rng;
  std::vector<F> xs = {F::one(), F::one() + F::one(), -F::one(), F::from_montgomery_repr(F::r2)};
  for (int i = 0; i < 30; ++i) xs.push_back(F::random(rng));
  for (const F& a : xs) {
    const F inv = a.inverse();
    ASSERT_EQ(mod(mul(to_nat(a), to_nat(inv)), p), nat_u64(1));
  }
  ASSERT_TRUE(F::zero().inverse().is_zero());
}

TYPED_TEST(ff_model, Pow) {
  using F = TypeParam;
  const nat p = modulus_nat<F>();
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 20; ++i) {
    const F a = F::random(rng);
    const uint64_t e = rng() >> (rng() % 64);
    ASSERT_EQ(to_nat(a.pow_u64(e)), powmod(to_nat(a), nat_u64(e), p));
  }
  for (int i = 0; i < 3; ++i) {  // full-width exponents (slow in the model)
    const F a = F::random(rng);
    typename F::repr e;
    for (std::size_t j = 0; j < F::N; ++j) e.w[j] = rng();
    nat E;
    for (std::size_t j = 0; j < F::N; ++j) {
      E.w.push_back(static_cast<uint32_t>(e.w[j]));
      E.w.push_back(static_cast<uint32_t>(e.w[j] >> 32));
    }
    E.trim();
    ASSERT_EQ(to_nat(a.pow(e)), powmod(to_nat(a), E, p));
  }
  ASSERT_TRUE(F::zero().pow_u64(0).is_one());
  ASSERT_TRUE(F::zero().pow_u64(5).is_zero());
}

// Canonical encodings: the field's bytes equal the model's, in both byte orders, and
// from_canonical on limbs agrees with the model's integer.
TYPED_TEST(ff_model, Bytes) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 200; ++i) {
    const F a = F::random(rng);
    const typename F::repr c = a.to_canonical();
    nat C;
    for (std::size_t j = 0; j < F::N; ++j) {
      C.w.push_back(static_cast<uint32_t>(c.w[j]));
      C.w.push_back(static_cast<uint32_t>(c.w[j] >> 32));
    }
    C.trim();
    ASSERT_EQ(to_nat(a), C);
    uint8_t le[F::bytes], be[F::bytes];
    a.to_bytes_le(le);
    a.to_bytes_be(be);
    const auto want = nat_to_be(C, F::bytes);
    for (std::size_t j = 0; j < F::bytes; ++j) {
      ASSERT_EQ(be[j], want[j]);
      ASSERT_EQ(le[j], want[F::bytes - 1 - j]);
    }
    ASSERT_EQ(F::from_canonical(c), a);
  }
}

// Legendre symbol against Euler's criterion in the model.
TYPED_TEST(ff_model, Legendre) {
  using F = TypeParam;
  const nat p = modulus_nat<F>();
  nat e = sub(p, nat_u64(1));
  // (p - 1) / 2
  for (std::size_t i = 0; i < e.w.size(); ++i) e.w[i] = (e.w[i] >> 1) | (i + 1 < e.w.size() ? e.w[i + 1] << 31 : 0);
  e.trim();
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 4; ++i) {
    const F a = F::random(rng);
    const nat r = powmod(to_nat(a), e, p);
    const int want = r == nat_u64(1) ? 1 : -1;
    ASSERT_EQ(a.legendre(), want);
  }
}

}  // namespace
