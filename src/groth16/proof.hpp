// A Groth16 proof (A in G1, B in G2, C in G1) and its 192-byte wire form, byte-compatible with
// bellperson's Proof::write / read_many: compressed A (48) || compressed B (96) || compressed C (48)
// (filecoin.md §1.4). Multi-partition proofs are plain concatenations in partition order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/curves.hpp"
#include "ec/encoding.hpp"
#include "groth16/read_error.hpp"

namespace cuzk::groth16 {

using ec::g1_affine;
using ec::g2_affine;

struct proof {
  g1_affine a;
  g2_affine b;
  g1_affine c;

  bool operator==(const proof&) const = default;
};

inline constexpr std::size_t proof_bytes = ec::g1_compressed_bytes + ec::g2_compressed_bytes + ec::g1_compressed_bytes;
static_assert(proof_bytes == 192);
inline constexpr std::size_t proof_offset_a = 0;
inline constexpr std::size_t proof_offset_b = ec::g1_compressed_bytes;
inline constexpr std::size_t proof_offset_c = ec::g1_compressed_bytes + ec::g2_compressed_bytes;

// The points must be on their curves (an identity element encodes canonically, but no reader
// accepts it back).
void encode_proof(const proof& p, std::span<uint8_t, proof_bytes> out);
std::array<uint8_t, proof_bytes> encode_proof(const proof& p);
// Appends the concatenation of the proofs' encodings.
void append_proofs(std::span<const proof> proofs, std::vector<uint8_t>& out);

// Decodes A, B, C in that order and reports the first failure: section proof_a / proof_b /
// proof_c, offset of the element, the ec decode_error (bad_point) or identity_point (bellperson
// rejects the identity in every element). out is untouched on failure.
read_error decode_proof(std::span<const uint8_t, proof_bytes> in, proof& out,
                        ec::subgroup_check check = ec::subgroup_check::verify);
// A concatenation of proofs: size must be a non-zero multiple of 192 (else wrong_size with count =
// the size). Errors carry index = the proof's position and offset = the absolute byte offset.
// out is replaced on success and untouched on failure.
read_error decode_proofs(std::span<const uint8_t> in, std::vector<proof>& out,
                         ec::subgroup_check check = ec::subgroup_check::verify);

}  // namespace cuzk::groth16
