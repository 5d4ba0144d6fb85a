// Native witness twins of the SHA-256 circuit (sha256.hpp) and of Filecoin's label hash
// (sha256_label.hpp): they compute exactly the aux values the circuit allocates, in allocation
// order, with plain 32-bit word arithmetic and no constraint objects. This is the per-proof hot
// path: a 32 GiB PoRep partition's ~130M aux values are almost all SHA-256 bits.
//
// How it stays exact: every word carries, besides its boolean values, a mask of the bits that
// are circuit constants and a mask of the allocated bits that are negated (bellpepper's
// Boolean::Not). Each operation allocates where the gadget would: xor only where both operands
// are allocated; ch/maj per bellpepper's constant cases (all-allocated words take a 32-bit fast
// path); add_many all result bits unless every operand bit is constant. The tests compare the
// twin's output with the circuit run on the witness builder, value for value.
//
// Values are emitted through a sink: `put(bool)` for a 0/1 value, `put_fr(const fr&)` for a
// field element.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::gadgets::witness {

using fr = ff::fr;

// A 32-bit word as the circuit sees it (bit i = 2^i).
struct word {
  uint32_t v = 0;   // boolean values
  uint32_t cm = 0;  // 1 = constant bit
  uint32_t nm = 0;  // 1 = allocated and negated (never set on constant bits)
  static word constant(uint32_t x) { return {x, ~0u, 0}; }
  static word allocated(uint32_t x) { return {x, 0, 0}; }
};

// Writes aux values into a caller-sized buffer (no bounds checks on the hot path; size it with
// a counting_sink run or the documented counts).
class buffer_sink {
 public:
  explicit buffer_sink(fr* out) : out_(out), begin_(out) {}
  void put(bool b) { *out_++ = b ? one_ : zero_; }
  void put_fr(const fr& x) { *out_++ = x; }
  std::size_t written() const { return static_cast<std::size_t>(out_ - begin_); }

 private:
  fr* out_;
  fr* begin_;
  fr zero_ = fr::zero();
  fr one_ = fr::one();
};

// Counts values only.
struct counting_sink {
  std::size_t n = 0;
  void put(bool) { ++n; }
  void put_fr(const fr&) { ++n; }
};

// A message for the full-hash twin: bytes plus, per byte, a mask of its constant bits (bit 7 =
// the byte's first, most significant bit). Empty mask = every bit allocated.
struct message_view {
  std::span<const uint8_t> bytes;
  std::span<const uint8_t> constant_mask;
};

// Twin of sha256_compression_function: in = the 16 message words (from_bits_be of the block),
// state = current hash words; returns the new state, emitting allocations.
template <class Sink>
std::array<word, 8> compress(Sink& sink, const std::array<word, 16>& in, const std::array<word, 8>& state);

// Twin of sha256() (constant padding appended): returns the final state.
template <class Sink>
std::array<word, 8> sha256(Sink& sink, message_view msg);

// Twin of create_label_circuit for a 1,248-byte preimage whose constant bits are Filecoin's
// (instances::label_constant_mask): the SHA-256 aux values then the packed label (one Fr).
// Returns the label (also the last value emitted).
template <class Sink>
fr label(Sink& sink, std::span<const uint8_t, 1248> preimage);

// Number of aux values label() emits (the SHA-256 bits and the packed label): 521,749.
std::size_t label_aux_count();

// Twin of field_into_allocated_bits_le / AllocatedNum::to_bits_le: the 255 low bits of x.
template <class Sink>
void to_bits_le(Sink& sink, const fr& x) {
  const fr::repr c = x.to_canonical();
  for (std::size_t i = 0; i < fr::bits; ++i) sink.put(((c.w[i / 64] >> (i % 64)) & 1) != 0);
}

// Instantiated for buffer_sink and counting_sink in sha256_witness.cpp.
extern template std::array<word, 8> compress(buffer_sink&, const std::array<word, 16>&, const std::array<word, 8>&);
extern template std::array<word, 8> compress(counting_sink&, const std::array<word, 16>&, const std::array<word, 8>&);
extern template std::array<word, 8> sha256(buffer_sink&, message_view);
extern template std::array<word, 8> sha256(counting_sink&, message_view);
extern template fr label(buffer_sink&, std::span<const uint8_t, 1248>);
extern template fr label(counting_sink&, std::span<const uint8_t, 1248>);

}  // namespace cuzk::gadgets::witness
