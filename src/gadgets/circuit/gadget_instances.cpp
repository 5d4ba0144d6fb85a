#include "gadgets/circuit/gadget_instances.hpp"

#include <cstring>

namespace cuzk::gadgets::instances {

std::vector<bool> label_constant_mask() {
  std::vector<bool> c(label_preimage_bytes * 8, false);
  c[248] = true;                                                // replica id pad bit
  for (std::size_t i = 256; i < 288; ++i) c[i] = true;          // layer index (constant u32)
  for (std::size_t i = 352; i < 512; ++i) c[i] = true;          // zero padding to 64 bytes
  for (std::size_t p = 0; p < label_parents; ++p) c[512 + 256 * p + 248] = true;  // parent pad bits
  return c;
}

std::array<uint8_t, 1248> make_label_preimage(const std::array<uint8_t, 32>& replica_id, uint32_t layer,
                                              uint64_t node,
                                              const std::array<std::array<uint8_t, 32>, 37>& parents) {
  std::array<uint8_t, 1248> m{};
  std::memcpy(m.data(), replica_id.data(), 32);
  m[31] &= 0x7f;
  for (int i = 0; i < 4; ++i) m[32 + i] = static_cast<uint8_t>(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) m[36 + i] = static_cast<uint8_t>(node >> (56 - 8 * i));
  for (std::size_t p = 0; p < parents.size(); ++p) {
    std::memcpy(m.data() + 64 + 32 * p, parents[p].data(), 32);
    m[64 + 32 * p + 31] &= 0x7f;
  }
  return m;
}

}  // namespace cuzk::gadgets::instances
