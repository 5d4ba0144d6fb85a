// uint64 gadget as storage-proofs-core's UInt64 (rfp:storage-proofs-core/src/gadgets/uint64.rs):
// 64 booleans, least significant first; Filecoin allocates a PoRep challenge with it and packs
// it into one public input.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/circuit/boolean.hpp"
#include "gadgets/circuit/multipack.hpp"

namespace cuzk::gadgets {

struct uint64 {
  std::array<boolean, 64> bits{};  // LE
  uint64_t value = 0;

  static uint64 constant(uint64_t v) {
    uint64 r;
    r.value = v;
    for (unsigned i = 0; i < 64; ++i) r.bits[i] = boolean::constant(((v >> i) & 1) != 0);
    return r;
  }

  // 64 allocated bits, LE, namespaces "allocated bit i" (1 constraint each).
  template <r1cs::constraint_system CS>
  static r1cs::result<uint64> alloc(CS& cs, uint64_t v) {
    uint64 r;
    r.value = v;
    for (unsigned i = 0; i < 64; ++i) {
      r1cs::scoped_namespace ns(cs, [i] { return "allocated bit " + std::to_string(i); });
      CUZK_R1CS_TRY(allocated_bit b, allocated_bit::alloc(cs, ((v >> i) & 1) != 0));
      r.bits[i] = b;
    }
    return r;
  }

  std::vector<boolean> to_bits_le() const { return {bits.begin(), bits.end()}; }
  std::vector<boolean> to_bits_be() const { return {bits.rbegin(), bits.rend()}; }

  static uint64 from_bits_be(std::span<const boolean> be) {
    assert(be.size() == 64);
    uint64 r;
    for (unsigned i = 0; i < 64; ++i) {
      r.bits[i] = be[63 - i];
      r.value |= static_cast<uint64_t>(be[63 - i].get_value()) << i;
    }
    return r;
  }
  static uint64 from_bits_le(std::span<const boolean> le) {
    assert(le.size() == 64);
    uint64 r;
    for (unsigned i = 0; i < 64; ++i) {
      r.bits[i] = le[i];
      r.value |= static_cast<uint64_t>(le[i].get_value()) << i;
    }
    return r;
  }

  // One public input (pack_into_inputs of the 64 bits).
  template <r1cs::constraint_system CS>
  r1cs::result<void> pack_into_input(CS& cs) const {
    return pack_into_inputs(cs, std::span<const boolean>(bits));
  }
};

}  // namespace cuzk::gadgets
