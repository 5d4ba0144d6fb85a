// Decoder for Filecoin's PoSt vanilla proof of one sector: bincode 1.x (little-endian, u64
// lengths, u32 enum tags) of rust-fil-proofs' FallbackPoStSectorProof<Tree> (filecoin-proofs
// types/mod.rs; storage-proofs-post fallback/vanilla.rs Proof/SectorProof; storage-proofs-core
// merkle/proof.rs MerkleProof/InclusionPath; filecoin.md §2.3):
//
//   u64 sector_id | [32] comm_r | u64 n_sectors, per SectorProof:
//     u64 n_inclusion_proofs, per MerkleProof: u32 variant, then
//       0 Single: [32] root, [32] leaf, path
//       1 Sub:    base path, sub path, [32] root, [32] leaf
//       2 Top:    base path, sub path, top path, [32] root, [32] leaf
//     [32] comm_c | [32] comm_r_last
//   path = u64 n_elements, per element: u64 n_hashes, n_hashes x [32], u64 index
//
// Every 32-byte value is a PoseidonDomain: a little-endian Fr representation, which must be
// canonical (< r). The decoder is written for untrusted input (it will decode daemon requests):
// every read is bounds-checked before it happens, a declared count is checked against the bytes
// left before anything is allocated, a path element's index must address one of its
// n_hashes + 1 positions, and the input must be consumed exactly. Errors name the field and
// the byte offset.
//
// (Format decoding belongs to the filecoin/ layer; it lives here until that layer exists.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/native/merkle_tree.hpp"

namespace cuzk::gadgets::native {

enum class vproof_errc : uint8_t {
  ok = 0,
  truncated,           // the input ends inside a fixed-size field
  count_exceeds_input, // a u64 count whose minimal encoding would run past the end
  bad_variant,         // a MerkleProof variant tag other than 0, 1, 2
  non_canonical_fr,    // a 32-byte domain value >= r
  index_out_of_range,  // a path element index > n_hashes
  trailing_bytes,      // bytes after the last field
};

struct vproof_error {
  vproof_errc code = vproof_errc::ok;
  uint64_t offset = 0;  // byte offset of the offending field
  uint64_t value = 0;   // the declared count / tag / index, or the trailing byte count
  std::string field;    // which field, e.g. "sectors[0].inclusion_proofs[3].base[2].index"

  bool ok() const { return code == vproof_errc::ok; }
  // One line, e.g. "sectors[0].inclusion_proofs[3].base[2].index at offset 1234: path element
  // index out of range (9)".
  std::string message() const;
};

const char* to_string(vproof_errc c);

enum class merkle_proof_kind : uint32_t { single = 0, sub = 1, top = 2 };

// One MerkleProof. Single proofs keep their path in `base`.
struct post_merkle_proof {
  merkle_proof_kind kind = merkle_proof_kind::single;
  std::vector<merkle_path_level<fr>> base, sub, top;
  fr root, leaf;

  // base, then sub, then top: the path merkle_path_root hashes up.
  std::vector<merkle_path_level<fr>> levels() const;
};

struct post_sector_proof {
  std::vector<post_merkle_proof> inclusion_proofs;
  fr comm_c, comm_r_last;
};

struct fallback_post_sector_proof {
  uint64_t sector_id = 0;
  fr comm_r;
  std::vector<post_sector_proof> sectors;
};

// Decodes `bytes` (the whole input) into out. On error `out` is unspecified.
vproof_error decode_fallback_post_sector_proof(std::span<const uint8_t> bytes, fallback_post_sector_proof& out);

}  // namespace cuzk::gadgets::native
