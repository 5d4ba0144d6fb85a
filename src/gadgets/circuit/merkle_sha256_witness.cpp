// Native twin of the binary SHA-256 PoR (see merkle_sha256_witness.hpp). Cost per level: two
// SHA-256 compressions' worth of circuit values (~44,800, from witness::sha256) plus 515 bits.
#include "gadgets/circuit/merkle_sha256_witness.hpp"

#include <array>
#include <stdexcept>

#include "gadgets/circuit/sha256_witness.hpp"

namespace cuzk::gadgets::witness {

namespace {

// One level's values after the index bit, sibling and picks: both children's bits, the
// SHA-256 values, the packed node. Returns the node.
template <class Sink>
fr node_hash(Sink& sink, const fr& left, const fr& right) {
  to_bits_le(sink, left);
  to_bits_le(sink, right);
  std::array<uint8_t, 64> msg{};
  left.to_bytes_le(msg.data());
  right.to_bytes_le(msg.data() + 32);
  std::array<uint8_t, 64> constant{};
  constant[31] = constant[63] = 0x80;  // each child's padding bit 255
  const std::array<word, 8> h = sha256(sink, message_view{msg, constant});
  std::array<uint8_t, 32> digest;
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t k = 0; k < 4; ++k) digest[4 * i + k] = static_cast<uint8_t>(h[i].v >> (24 - 8 * k));
  digest[31] &= 0x3f;
  fr node;
  (void)fr::from_bytes_le(digest.data(), node);  // < 2^254 < r: always canonical
  sink.put_fr(node);
  return node;
}

std::size_t level_size() {
  counting_sink c;
  (void)node_hash(c, fr::zero(), fr::zero());
  return 4 + c.n;  // + index bit, sibling, two picks
}

}  // namespace

std::size_t por_sha256_witness_size(std::size_t levels) {
  static const std::size_t per_level = level_size();
  return 2 + levels * per_level;
}

fr por_sha256_witness(const fr& leaf, std::span<const native::merkle_path_level<fr>> path, const fr& root,
                      native::por_root_visibility visibility, std::vector<fr>& aux, std::vector<fr>& inputs) {
  if (path.size() > 254) throw std::invalid_argument("por_sha256_witness: more than 254 levels");
  for (const auto& level : path)
    if (level.siblings.size() != 1 || level.index > 1) throw std::invalid_argument("por_sha256_witness: binary levels only");
  const std::size_t at = aux.size();
  aux.resize(at + por_sha256_witness_size(path.size()));
  buffer_sink sink(aux.data() + at);
  sink.put_fr(leaf);
  fr cur = leaf, packed = fr::zero(), weight = fr::one();
  for (const auto& level : path) {
    const bool b = level.index == 1;
    const fr& s = level.siblings[0];
    sink.put(b);
    sink.put_fr(s);
    const fr left = b ? s : cur, right = b ? cur : s;  // insert_2's picks
    sink.put_fr(left);
    sink.put_fr(right);
    cur = node_hash(sink, left, right);
    if (b) packed += weight;
    weight = weight + weight;
  }
  sink.put_fr(root);
  if (!path.empty()) inputs.push_back(packed);
  if (visibility == native::por_root_visibility::public_root) inputs.push_back(root);
  return cur;
}

}  // namespace cuzk::gadgets::witness
