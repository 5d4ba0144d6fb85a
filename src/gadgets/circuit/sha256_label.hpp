// Filecoin's PoRep labelling hash as a circuit (rfp:storage-proofs-porep stacked
// circuit/create_label.rs): SHA-256 over the 1,248-byte preimage
//   replica_id (256 bits) || layer (u32 BE) || node (u64 BE) || zeros to 64 bytes
//   || 37 parents (256 bits each)
// (20 blocks with padding), the digest's bits renumbered within each byte and the first 254
// packed into one number: the label as an Fr (top two bits cleared, the native
// sha256_trunc254 read little-endian).
//
// Cost with Filecoin's inputs (replica id and parents from to_bits_le + reverse_bit_numbering,
// so bit 248 of each is the constant pad; constant layer; allocated node bits): 522,268
// constraints for the hash, then 1 (pack_bits).
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "gadgets/circuit/multipack.hpp"
#include "gadgets/circuit/sha256.hpp"
#include "gadgets/circuit/uint32.hpp"
#include "gadgets/circuit/uint64.hpp"

namespace cuzk::gadgets {

inline constexpr std::size_t label_parents = 37;           // DRG 6 + expander 8, repeated
inline constexpr std::size_t label_preimage_bytes = 1248;  // (1 + 1 + 37) * 32

// storage-proofs-core's reverse_bit_numbering: pad with constant false to whole bytes, then
// reverse the bit order inside each byte (LE field bits <-> FIPS byte bit order).
inline std::vector<boolean> reverse_bit_numbering(std::vector<boolean> bits) {
  while (bits.size() % 8 != 0) bits.push_back(boolean::constant(false));
  for (std::size_t i = 0; i < bits.size(); i += 8)
    for (std::size_t j = 0; j < 4; ++j) std::swap(bits[i + j], bits[i + 7 - j]);
  return bits;
}

// create_label_circuit. replica_id: 32..256 bits; parents: 37 vectors of at most 256 bits
// (each padded with constant false to 256). Hash in namespace "hash", packing in "result_num".
template <r1cs::constraint_system CS>
r1cs::result<allocated_num> create_label_circuit(CS& cs, std::span<const boolean> replica_id,
                                                 const std::vector<std::vector<boolean>>& parents,
                                                 const uint32& layer_index, const uint64& node) {
  assert(replica_id.size() >= 32 && replica_id.size() <= 256);
  assert(parents.size() == label_parents);
  std::vector<boolean> msg(replica_id.begin(), replica_id.end());
  msg.reserve(label_preimage_bytes * 8);
  while (msg.size() < 256) msg.push_back(boolean::constant(false));
  for (const boolean& b : layer_index.into_bits_be()) msg.push_back(b);
  for (const boolean& b : node.to_bits_be()) msg.push_back(b);
  while (msg.size() < 512) msg.push_back(boolean::constant(false));
  for (const std::vector<boolean>& p : parents) {
    msg.insert(msg.end(), p.begin(), p.end());
    while (msg.size() % 256 != 0) msg.push_back(boolean::constant(false));
  }
  assert(msg.size() == label_preimage_bytes * 8);

  std::vector<boolean> digest;
  {
    r1cs::scoped_namespace ns(cs, "hash");
    CUZK_R1CS_TRY(digest, sha256(cs, std::span<const boolean>(msg)));
  }
  const std::vector<boolean> bits = reverse_bit_numbering(std::move(digest));
  r1cs::scoped_namespace ns(cs, "result_num");
  return pack_bits(cs, std::span<const boolean>(bits).first(fr_capacity));
}

}  // namespace cuzk::gadgets
