// uint32 gadget with bellpepper's shapes (bp:src/gadgets/uint32.rs): 32 booleans, least
// significant first. Rotations and shifts rearrange bits (free); xor/ch/maj work bit by bit
// through boolean.hpp (bits 0..31 in order, so constants cost nothing); add_many allocates the
// full-width sum bits and hands the carry equality to a multi_eq.
//
// add_many of n operands (2 <= n <= 10) allocates ceil(log2(n * (2^32 - 1) + 1)) result bits
// (n = 2: 33, 3-4: 34, 5-8: 35, 9-10: 36), each with its boolean constraint, unless every
// operand bit is constant (then the result is a constant, free).
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/circuit/boolean.hpp"
#include "gadgets/circuit/multieq.hpp"

namespace cuzk::gadgets {

struct uint32 {
  std::array<boolean, 32> bits{};  // LE
  uint32_t value = 0;              // meaningful when values are computed or all bits are constant

  static uint32 constant(uint32_t v) {
    uint32 r;
    r.value = v;
    for (unsigned i = 0; i < 32; ++i) r.bits[i] = boolean::constant(((v >> i) & 1) != 0);
    return r;
  }

  // 32 allocated bits, LE, in namespaces "allocated bit i".
  template <r1cs::constraint_system CS>
  static r1cs::result<uint32> alloc(CS& cs, uint32_t v) {
    uint32 r;
    r.value = v;
    for (unsigned i = 0; i < 32; ++i) {
      r1cs::scoped_namespace ns(cs, [i] { return "allocated bit " + std::to_string(i); });
      CUZK_R1CS_TRY(allocated_bit b, allocated_bit::alloc(cs, ((v >> i) & 1) != 0));
      r.bits[i] = b;
    }
    return r;
  }

  bool is_constant() const {
    for (const boolean& b : bits)
      if (!b.is_constant()) return false;
    return true;
  }

  std::vector<boolean> into_bits_le() const { return {bits.begin(), bits.end()}; }
  std::vector<boolean> into_bits_be() const { return {bits.rbegin(), bits.rend()}; }

  // Precondition: be.size() == 32 (most significant first).
  static uint32 from_bits_be(std::span<const boolean> be) {
    assert(be.size() == 32);
    uint32 r;
    for (unsigned i = 0; i < 32; ++i) {
      r.bits[i] = be[31 - i];
      r.value |= static_cast<uint32_t>(be[31 - i].get_value()) << i;
    }
    return r;
  }
  // Precondition: le.size() == 32.
  static uint32 from_bits_le(std::span<const boolean> le) {
    assert(le.size() == 32);
    uint32 r;
    for (unsigned i = 0; i < 32; ++i) {
      r.bits[i] = le[i];
      r.value |= static_cast<uint32_t>(le[i].get_value()) << i;
    }
    return r;
  }

  uint32 rotr(unsigned by) const {
    by %= 32;
    uint32 r;
    for (unsigned i = 0; i < 32; ++i) r.bits[i] = bits[(i + by) % 32];
    r.value = std::rotr(value, static_cast<int>(by));
    return r;
  }
  uint32 shr(unsigned by) const {
    by %= 32;
    uint32 r;
    for (unsigned i = 0; i + by < 32; ++i) r.bits[i] = bits[i + by];  // the rest stays constant false
    r.value = value >> by;
    return r;
  }

  // Bitwise xor, namespaces "xor of bit i".
  template <r1cs::constraint_system CS>
  r1cs::result<uint32> xor_(CS& cs, const uint32& other) const {
    uint32 r;
    r.value = value ^ other.value;
    for (unsigned i = 0; i < 32; ++i) {
      r1cs::scoped_namespace ns(cs, [i] { return "xor of bit " + std::to_string(i); });
      CUZK_R1CS_TRY(r.bits[i], boolean::xor_(cs, bits[i], other.bits[i]));
    }
    return r;
  }

  // Bitwise SHA-256 Ch / Maj, namespaces "ch i" / "maj i".
  template <r1cs::constraint_system CS>
  static r1cs::result<uint32> sha256_ch(CS& cs, const uint32& a, const uint32& b, const uint32& c) {
    uint32 r;
    r.value = (a.value & b.value) ^ (~a.value & c.value);
    for (unsigned i = 0; i < 32; ++i) {
      r1cs::scoped_namespace ns(cs, [i] { return "ch " + std::to_string(i); });
      CUZK_R1CS_TRY(r.bits[i], boolean::sha256_ch(cs, a.bits[i], b.bits[i], c.bits[i]));
    }
    return r;
  }
  template <r1cs::constraint_system CS>
  static r1cs::result<uint32> sha256_maj(CS& cs, const uint32& a, const uint32& b, const uint32& c) {
    uint32 r;
    r.value = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    for (unsigned i = 0; i < 32; ++i) {
      r1cs::scoped_namespace ns(cs, [i] { return "maj " + std::to_string(i); });
      CUZK_R1CS_TRY(r.bits[i], boolean::sha256_maj(cs, a.bits[i], b.bits[i], c.bits[i]));
    }
    return r;
  }

  // Number of result bits add_many allocates for n operands: bit length of n * (2^32 - 1).
  static constexpr unsigned add_many_bits(std::size_t n) {
    return static_cast<unsigned>(std::bit_width(static_cast<uint64_t>(n) * 0xffffffffull));
  }

  // Sum mod 2^32 of 2..10 operands. Allocates the full sum's bits ("result bit i") and adds
  // sum(operand bits) = sum(result bits) to me. The CS is me's.
  template <r1cs::constraint_system CS>
  static r1cs::result<uint32> add_many(multi_eq<CS>& me, std::span<const uint32> operands) {
    assert(operands.size() >= 2 && operands.size() <= 10);
    CS& cs = me.cs();
    uint64_t sum = 0;
    bool all_constants = true;
    for (const uint32& op : operands) {
      sum += op.value;
      all_constants = all_constants && op.is_constant();
    }
    if (all_constants) return constant(static_cast<uint32_t>(sum));

    const unsigned nbits = add_many_bits(operands.size());
    uint32 r;
    r.value = static_cast<uint32_t>(sum);
    std::array<r1cs::variable, 36> result_vars{};
    for (unsigned i = 0; i < nbits; ++i) {
      r1cs::scoped_namespace ns(cs, [i] { return "result bit " + std::to_string(i); });
      CUZK_R1CS_TRY(allocated_bit b, allocated_bit::alloc(cs, ((sum >> i) & 1) != 0));
      result_vars[i] = b.var;
      if (i < 32) r.bits[i] = b;
    }
    if constexpr (needs_linear_combinations<CS>) {
      lc_t lhs, rhs;
      for (const uint32& op : operands)
        for (unsigned j = 0; j < 32; ++j) op.bits[j].add_lc_to(lhs, CS::one(), pow2_fr(j));
      for (unsigned i = 0; i < nbits; ++i) rhs.add_term(result_vars[i], pow2_fr(i));
      me.enforce_equal(nbits, lhs, rhs);
    } else {
      me.enforce_equal(nbits, lc_t{}, lc_t{});
    }
    return r;
  }
};

}  // namespace cuzk::gadgets
