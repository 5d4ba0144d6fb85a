// SHA-256 circuit with bellpepper's exact shape (bp:src/gadgets/sha256.rs, the sapling-crypto
// design): message schedule and rounds on uint32 gadgets, one multi_eq per compression call,
// and the additions deferred so that e and a are each produced by one add_many:
//   new e = add_many(h, S1, ch, K_i, w_i, d)          (6 operands, 35 bits)
//   new a = add_many(h, S1, ch, K_i, w_i, S0, maj)    (7 operands, 35 bits)
// computed at the start of the next round (or folded into the final h0 / h4 additions, 8 and 7
// operands). Constant inputs (the IV of the first block, padding, constant message bits) make
// bits free, so the cost depends on which input bits are constants:
//   one compression with 512 allocated input bits and the constant IV: 25,840 constraints;
//   Filecoin's 1,248-byte label preimage (sha256 with padding): 522,268.
// Bits are big-endian within each 32-bit word and words in order (FIPS byte order, each byte
// most significant bit first).
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/circuit/uint32.hpp"
#include "gadgets/native/sha256_native.hpp"

namespace cuzk::gadgets {

using sha256_words = std::array<uint32, 8>;

inline sha256_words sha256_iv_words() {
  sha256_words iv;
  for (std::size_t i = 0; i < 8; ++i) iv[i] = uint32::constant(native::sha256_iv[i]);
  return iv;
}

// One compression of a 512-bit block (big-endian bits) into current (bellpepper's
// sha256_compression_function). Namespaces: "w extension i", "compression round i" with
// "deferred e computation" / "deferred a computation" / "first xor for s1" ..., "new h1" ...
template <r1cs::constraint_system CS>
r1cs::result<sha256_words> sha256_compression_function(CS& cs, std::span<const boolean> input,
                                                       const sha256_words& current) {
  assert(input.size() == 512);
  std::array<uint32, 64> w;
  for (std::size_t i = 0; i < 16; ++i) w[i] = uint32::from_bits_be(input.subspan(32 * i, 32));

  multi_eq<CS> me(cs);  // flushed when this function returns, after h7 (as bellpepper's drop)

  for (unsigned i = 16; i < 64; ++i) {
    r1cs::scoped_namespace ns(cs, [i] { return "w extension " + std::to_string(i); });
    uint32 s0, s1;
    {
      r1cs::scoped_namespace n1(cs, "first xor for s0");
      CUZK_R1CS_TRY(s0, w[i - 15].rotr(7).xor_(cs, w[i - 15].rotr(18)));
    }
    {
      r1cs::scoped_namespace n1(cs, "second xor for s0");
      CUZK_R1CS_TRY(s0, s0.xor_(cs, w[i - 15].shr(3)));
    }
    {
      r1cs::scoped_namespace n1(cs, "first xor for s1");
      CUZK_R1CS_TRY(s1, w[i - 2].rotr(17).xor_(cs, w[i - 2].rotr(19)));
    }
    {
      r1cs::scoped_namespace n1(cs, "second xor for s1");
      CUZK_R1CS_TRY(s1, s1.xor_(cs, w[i - 2].shr(10)));
    }
    r1cs::scoped_namespace n1(cs, "computation of w[i]");
    const std::array<uint32, 4> ops{w[i - 16], s0, w[i - 7], s1};
    CUZK_R1CS_TRY(w[i], uint32::add_many(me, std::span<const uint32>(ops)));
  }

  // A working variable that is either known or the pending operand list of its addition.
  struct deferred {
    std::array<uint32, 8> ops;
    std::size_t n = 0;  // 0: concrete (ops[0] holds the value)
  };
  auto compute = [&](const deferred& pending, const char* name, const uint32* extra) -> r1cs::result<uint32> {
    if (pending.n == 0) return pending.ops[0];
    std::array<uint32, 9> all;
    std::size_t n = 0;
    for (std::size_t k = 0; k < pending.n; ++k) all[n++] = pending.ops[k];
    if (extra) all[n++] = *extra;
    r1cs::scoped_namespace ns(cs, name);
    return uint32::add_many(me, std::span<const uint32>(all.data(), n));
  };

  deferred a, e;
  a.ops[0] = current[0];
  e.ops[0] = current[4];
  uint32 b = current[1], c = current[2], d = current[3];
  uint32 f = current[5], g = current[6], h = current[7];

  for (unsigned i = 0; i < 64; ++i) {
    r1cs::scoped_namespace ns(cs, [i] { return "compression round " + std::to_string(i); });
    CUZK_R1CS_TRY(uint32 new_e, compute(e, "deferred e computation", nullptr));
    uint32 s1;
    {
      r1cs::scoped_namespace n1(cs, "first xor for s1");
      CUZK_R1CS_TRY(s1, new_e.rotr(6).xor_(cs, new_e.rotr(11)));
    }
    {
      r1cs::scoped_namespace n1(cs, "second xor for s1");
      CUZK_R1CS_TRY(s1, s1.xor_(cs, new_e.rotr(25)));
    }
    uint32 ch;
    {
      r1cs::scoped_namespace n1(cs, "ch");
      CUZK_R1CS_TRY(ch, uint32::sha256_ch(cs, new_e, f, g));
    }
    CUZK_R1CS_TRY(uint32 new_a, compute(a, "deferred a computation", nullptr));
    uint32 s0;
    {
      r1cs::scoped_namespace n1(cs, "first xor for s0");
      CUZK_R1CS_TRY(s0, new_a.rotr(2).xor_(cs, new_a.rotr(13)));
    }
    {
      r1cs::scoped_namespace n1(cs, "second xor for s0");
      CUZK_R1CS_TRY(s0, s0.xor_(cs, new_a.rotr(22)));
    }
    uint32 maj;
    {
      r1cs::scoped_namespace n1(cs, "maj");
      CUZK_R1CS_TRY(maj, uint32::sha256_maj(cs, new_a, b, c));
    }
    // temp1 = (h, S1, ch, K_i, w_i) with the old h; e also takes the old d.
    const uint32 k = uint32::constant(native::sha256_k[i]);
    e.ops = {h, s1, ch, k, w[i], d};
    e.n = 6;
    a.ops = {h, s1, ch, k, w[i], s0, maj};
    a.n = 7;
    h = g;
    g = f;
    f = new_e;
    d = c;
    c = b;
    b = new_a;
  }

  sha256_words out;
  {
    CUZK_R1CS_TRY(out[0], compute(a, "deferred h0 computation", &current[0]));
  }
  const std::array<const uint32*, 3> bcd{&b, &c, &d};
  for (std::size_t j = 1; j <= 3; ++j) {
    r1cs::scoped_namespace ns(cs, [j] { return "new h" + std::to_string(j); });
    const std::array<uint32, 2> ops{current[j], *bcd[j - 1]};
    CUZK_R1CS_TRY(out[j], uint32::add_many(me, std::span<const uint32>(ops)));
  }
  {
    CUZK_R1CS_TRY(out[4], compute(e, "deferred h4 computation", &current[4]));
  }
  const std::array<const uint32*, 3> fgh{&f, &g, &h};
  for (std::size_t j = 5; j <= 7; ++j) {
    r1cs::scoped_namespace ns(cs, [j] { return "new h" + std::to_string(j); });
    const std::array<uint32, 2> ops{current[j], *fgh[j - 5]};
    CUZK_R1CS_TRY(out[j], uint32::add_many(me, std::span<const uint32>(ops)));
  }
  return out;
}

// The 256 output bits (big-endian words) of a state.
inline std::vector<boolean> sha256_words_to_bits(const sha256_words& s) {
  std::vector<boolean> out;
  out.reserve(256);
  for (const uint32& word : s)
    for (unsigned i = 32; i-- > 0;) out.push_back(word.bits[i]);
  return out;
}

// One compression of a 512-bit block from the IV, no padding (bellpepper's
// sha256_block_no_padding).
template <r1cs::constraint_system CS>
r1cs::result<std::vector<boolean>> sha256_block_no_padding(CS& cs, std::span<const boolean> input) {
  CUZK_R1CS_TRY(sha256_words s, sha256_compression_function(cs, input, sha256_iv_words()));
  return sha256_words_to_bits(s);
}

// SHA-256 of a whole number of bytes given as big-endian bits, padded with constant bits
// (1, zeros, 64-bit length); blocks in namespaces "block i". Returns the 256 digest bits.
template <r1cs::constraint_system CS>
r1cs::result<std::vector<boolean>> sha256(CS& cs, std::span<const boolean> input) {
  assert(input.size() % 8 == 0);
  std::vector<boolean> padded(input.begin(), input.end());
  const uint64_t plen = input.size();
  padded.push_back(boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(boolean::constant(false));
  for (unsigned i = 64; i-- > 0;) padded.push_back(boolean::constant(((plen >> i) & 1) != 0));
  sha256_words cur = sha256_iv_words();
  for (std::size_t blk = 0; blk * 512 < padded.size(); ++blk) {
    r1cs::scoped_namespace ns(cs, [blk] { return "block " + std::to_string(blk); });
    CUZK_R1CS_TRY(cur, sha256_compression_function(cs, std::span<const boolean>(padded).subspan(512 * blk, 512), cur));
  }
  return sha256_words_to_bits(cur);
}

}  // namespace cuzk::gadgets
