// Bit packing with bellpepper's shapes (bp:src/gadgets/multipack.rs): bits are packed LE into
// field elements of at most Fr::CAPACITY = 254 bits, as public inputs (pack_into_inputs, one
// input and one constraint per chunk) or as one aux number (pack_bits, the first 254 bits).
// compute_multipacking is the verifier-side twin of pack_into_inputs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/circuit/boolean.hpp"
#include "gadgets/circuit/multieq.hpp"
#include "gadgets/circuit/num.hpp"

namespace cuzk::gadgets {

// Each byte's bits, most significant first.
inline std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes) {
  std::vector<bool> out;
  out.reserve(bytes.size() * 8);
  for (uint8_t v : bytes)
    for (int i = 7; i >= 0; --i) out.push_back(((v >> i) & 1) != 0);
  return out;
}
// Each byte's bits, least significant first.
inline std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes) {
  std::vector<bool> out;
  out.reserve(bytes.size() * 8);
  for (uint8_t v : bytes)
    for (int i = 0; i < 8; ++i) out.push_back(((v >> i) & 1) != 0);
  return out;
}

// The field elements pack_into_inputs allocates: chunks of 254 bits, each read LE.
inline std::vector<fr> compute_multipacking(const std::vector<bool>& bits) {
  std::vector<fr> out;
  for (std::size_t start = 0; start < bits.size(); start += fr_capacity) {
    fr cur = fr::zero();
    for (std::size_t j = 0; j < fr_capacity && start + j < bits.size(); ++j)
      if (bits[start + j]) cur += pow2_fr(j);
    out.push_back(cur);
  }
  return out;
}

namespace detail {
// sum 2^j bits[j] (bellpepper's Num built by add_bool_with_coeff), value and LC.
template <class CS>
fr packed_value(std::span<const boolean> bits) {
  fr v = fr::zero();
  if constexpr (CS::computes_values)
    for (std::size_t j = 0; j < bits.size(); ++j)
      if (bits[j].get_value()) v += pow2_fr(j);
  return v;
}
template <class CS>
lc_t packed_lc(std::span<const boolean> bits) {
  lc_t lc;
  for (std::size_t j = 0; j < bits.size(); ++j) bits[j].add_lc_to(lc, CS::one(), pow2_fr(j));
  return lc;
}
}  // namespace detail

// One public input per 254-bit chunk ("input i") with "packing constraint i":
// (sum 2^j b_j) * ONE = input.
template <r1cs::constraint_system CS>
r1cs::result<void> pack_into_inputs(CS& cs, std::span<const boolean> bits) {
  for (std::size_t start = 0, i = 0; start < bits.size(); start += fr_capacity, ++i) {
    const auto chunk = bits.subspan(start, std::min(fr_capacity, bits.size() - start));
    const fr v = detail::packed_value<CS>(chunk);
    CUZK_R1CS_TRY(r1cs::variable input, cs.alloc_input([i] { return "input " + std::to_string(i); }, [&] { return v; }));
    cs.enforce([i] { return "packing constraint " + std::to_string(i); },
               [&](lc_t) { return detail::packed_lc<CS>(chunk); }, [](lc_t lc) { return lc + CS::one(); },
               [&](lc_t lc) { return lc + input; });
  }
  return r1cs::ok();
}

// The first 254 bits packed into one aux number (namespace "input", then "packing constraint").
template <r1cs::constraint_system CS>
r1cs::result<allocated_num> pack_bits(CS& cs, std::span<const boolean> bits) {
  const auto chunk = bits.first(std::min(fr_capacity, bits.size()));
  const fr v = detail::packed_value<CS>(chunk);
  allocated_num n;
  {
    r1cs::scoped_namespace ns(cs, "input");
    CUZK_R1CS_TRY(n, allocated_num::alloc(cs, [&] { return v; }));
  }
  cs.enforce("packing constraint", [&](lc_t) { return detail::packed_lc<CS>(chunk); },
             [](lc_t lc) { return lc + CS::one(); }, [&](lc_t lc) { return lc + n.var; });
  return n;
}

}  // namespace cuzk::gadgets
