// Internal to groth16/: bounds-checked reading and appending of the wire elements shared by the
// .vk, .params and proof formats (u32 big-endian lengths, uncompressed and compressed points).
// Every read checks the bytes are there first and reports a read_error naming the element.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/encoding.hpp"
#include "groth16/read_error.hpp"

namespace cuzk::groth16::wire {

inline read_error truncated(section s, uint64_t offset, uint64_t index, std::size_t total) {
  read_error e;
  e.code = read_errc::truncated;
  e.section = s;
  e.offset = offset;
  e.index = index;
  e.available = offset < total ? total - offset : 0;
  return e;
}

inline read_error point_error(section s, uint64_t offset, uint64_t index, ec::decode_error d) {
  read_error e;
  e.code = read_errc::bad_point;
  e.section = s;
  e.offset = offset;
  e.index = index;
  e.point = d;
  return e;
}

inline read_error identity_error(section s, uint64_t offset, uint64_t index) {
  read_error e;
  e.code = read_errc::identity_point;
  e.section = s;
  e.offset = offset;
  e.index = index;
  return e;
}

// Decodes one point (ec::g1_affine or ec::g2_affine) at bytes[offset..), uncompressed or
// compressed per Compressed; checks the bounds first. The point at infinity is always an error:
// bellperson rejects it for every point of its proofs, ic and query vectors (filecoin.md
// §1.2-1.4); we also reject it for the vk's fixed points, which bellperson would accept but no
// real key has (an identity gamma or delta would make the key unsound).
template <class Affine, bool Compressed>
read_error decode_point(std::span<const uint8_t> bytes, uint64_t offset, section s, uint64_t index, Affine& out,
                        ec::subgroup_check check);

template <>
inline read_error decode_point<ec::g1_affine, false>(std::span<const uint8_t> bytes, uint64_t offset, section s,
                                                     uint64_t index, ec::g1_affine& out, ec::subgroup_check check) {
  constexpr std::size_t n = ec::g1_uncompressed_bytes;
  if (offset > bytes.size() || bytes.size() - offset < n) return truncated(s, offset, index, bytes.size());
  ec::decode_error d = ec::decode_g1_uncompressed(std::span<const uint8_t, n>(bytes.data() + offset, n), out, check);
  if (d != ec::decode_error::ok) return point_error(s, offset, index, d);
  if (out.infinity) return identity_error(s, offset, index);
  return {};
}

template <>
inline read_error decode_point<ec::g2_affine, false>(std::span<const uint8_t> bytes, uint64_t offset, section s,
                                                     uint64_t index, ec::g2_affine& out, ec::subgroup_check check) {
  constexpr std::size_t n = ec::g2_uncompressed_bytes;
  if (offset > bytes.size() || bytes.size() - offset < n) return truncated(s, offset, index, bytes.size());
  ec::decode_error d = ec::decode_g2_uncompressed(std::span<const uint8_t, n>(bytes.data() + offset, n), out, check);
  if (d != ec::decode_error::ok) return point_error(s, offset, index, d);
  if (out.infinity) return identity_error(s, offset, index);
  return {};
}

template <>
inline read_error decode_point<ec::g1_affine, true>(std::span<const uint8_t> bytes, uint64_t offset, section s,
                                                    uint64_t index, ec::g1_affine& out, ec::subgroup_check check) {
  constexpr std::size_t n = ec::g1_compressed_bytes;
  if (offset > bytes.size() || bytes.size() - offset < n) return truncated(s, offset, index, bytes.size());
  ec::decode_error d = ec::decode_g1_compressed(std::span<const uint8_t, n>(bytes.data() + offset, n), out, check);
  if (d != ec::decode_error::ok) return point_error(s, offset, index, d);
  if (out.infinity) return identity_error(s, offset, index);
  return {};
}

template <>
inline read_error decode_point<ec::g2_affine, true>(std::span<const uint8_t> bytes, uint64_t offset, section s,
                                                    uint64_t index, ec::g2_affine& out, ec::subgroup_check check) {
  constexpr std::size_t n = ec::g2_compressed_bytes;
  if (offset > bytes.size() || bytes.size() - offset < n) return truncated(s, offset, index, bytes.size());
  ec::decode_error d = ec::decode_g2_compressed(std::span<const uint8_t, n>(bytes.data() + offset, n), out, check);
  if (d != ec::decode_error::ok) return point_error(s, offset, index, d);
  if (out.infinity) return identity_error(s, offset, index);
  return {};
}

// u32 big-endian at bytes[offset..offset+4).
inline read_error read_u32_be(std::span<const uint8_t> bytes, uint64_t offset, section s, uint32_t& out) {
  if (offset > bytes.size() || bytes.size() - offset < 4) return truncated(s, offset, 0, bytes.size());
  const uint8_t* p = bytes.data() + offset;
  out = (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
  return {};
}

inline void append_u32_be(std::vector<uint8_t>& out, uint32_t v) {
  out.push_back(static_cast<uint8_t>(v >> 24));
  out.push_back(static_cast<uint8_t>(v >> 16));
  out.push_back(static_cast<uint8_t>(v >> 8));
  out.push_back(static_cast<uint8_t>(v));
}

inline void append_uncompressed(std::vector<uint8_t>& out, const ec::g1_affine& p) {
  const std::size_t at = out.size();
  out.resize(at + ec::g1_uncompressed_bytes);
  ec::encode_g1_uncompressed(p, std::span<uint8_t, ec::g1_uncompressed_bytes>(out.data() + at, ec::g1_uncompressed_bytes));
}

inline void append_uncompressed(std::vector<uint8_t>& out, const ec::g2_affine& p) {
  const std::size_t at = out.size();
  out.resize(at + ec::g2_uncompressed_bytes);
  ec::encode_g2_uncompressed(p, std::span<uint8_t, ec::g2_uncompressed_bytes>(out.data() + at, ec::g2_uncompressed_bytes));
}

}  // namespace cuzk::groth16::wire
