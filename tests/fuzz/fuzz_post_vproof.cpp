// Fuzz target: the PoSt vanilla proof decoder (bincode of FallbackPoStSectorProof; the bytes a
// WindowPoSt/WinningPoSt request carries). Properties:
//   - never crashes, never allocates more than the input can describe;
//   - a rejected input gets an error code, a field name and an offset inside the input;
//   - an accepted input re-encodes to exactly the same bytes (bincode has one encoding per
//     value and the decoder must consume the input exactly), so nothing is silently dropped.
// Seed: the real proof in the shared fixtures (filecoin/curio/post.vproof) and truncations of it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "gadgets/native/post_vanilla_proof.hpp"

namespace {

namespace nat = cuzk::gadgets::native;

// The inverse of the decoder, written from the layout in post_vanilla_proof.hpp.
class bincode_writer {
 public:
  void u64(uint64_t v) { put_le(v, 8); }
  void u32(uint32_t v) { put_le(v, 4); }
  void fr(const nat::fr& v) {
    uint8_t b[32];
    v.to_bytes_le(b);
    out.insert(out.end(), b, b + 32);
  }
  void path(const std::vector<nat::merkle_path_level<nat::fr>>& levels) {
    u64(levels.size());
    for (const auto& l : levels) {
      u64(l.siblings.size());
      for (const auto& s : l.siblings) fr(s);
      u64(l.index);
    }
  }
  std::vector<uint8_t> out;

 private:
  void put_le(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
};

std::vector<uint8_t> encode(const nat::fallback_post_sector_proof& p) {
  bincode_writer w;
  w.u64(p.sector_id);
  w.fr(p.comm_r);
  w.u64(p.sectors.size());
  for (const auto& s : p.sectors) {
    w.u64(s.inclusion_proofs.size());
    for (const auto& m : s.inclusion_proofs) {
      w.u32(static_cast<uint32_t>(m.kind));
      if (m.kind == nat::merkle_proof_kind::single) {  // root and leaf first, then the path
        w.fr(m.root);
        w.fr(m.leaf);
        w.path(m.base);
        continue;
      }
      w.path(m.base);  // sub and top: the paths first, then root and leaf
      w.path(m.sub);
      if (m.kind == nat::merkle_proof_kind::top) w.path(m.top);
      w.fr(m.root);
      w.fr(m.leaf);
    }
    w.fr(s.comm_c);
    w.fr(s.comm_r_last);
  }
  return w.out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nat::fallback_post_sector_proof proof;
  const auto err = nat::decode_fallback_post_sector_proof(std::span<const uint8_t>(data, size), proof);
  if (!err.ok()) {
    if (err.field.empty() || err.offset > size || err.message().empty()) std::abort();
    return 0;
  }
  const auto again = encode(proof);
  if (again.size() != size || (size != 0 && std::memcmp(again.data(), data, size) != 0)) std::abort();
  return 0;
}
