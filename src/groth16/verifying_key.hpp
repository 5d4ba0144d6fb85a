// The Groth16 verifying key and bellperson's .vk byte layout (filecoin.md §1.2), which is also
// the head of a .params file:
//   alpha_g1 (G1, 96) beta_g1 (G1, 96) beta_g2 (G2, 192) gamma_g2 (G2, 192) delta_g1 (G1, 96)
//   delta_g2 (G2, 192) u32-BE ic_len, ic_len x G1 (96)      -- all points uncompressed
// Size = 868 + 96 ic_len. ic has one point per public input INCLUDING the constant ONE.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "ec/encoding.hpp"
#include "groth16/read_error.hpp"

namespace cuzk::groth16 {

using ec::g1_affine;
using ec::g2_affine;

struct verifying_key {
  g1_affine alpha_g1;
  g1_affine beta_g1;
  g2_affine beta_g2;
  g2_affine gamma_g2;
  g1_affine delta_g1;
  g2_affine delta_g2;
  std::vector<g1_affine> ic;

  bool operator==(const verifying_key&) const = default;
};

// Byte offsets of the fixed part, then of the ic length field.
inline constexpr std::size_t vk_offset_alpha_g1 = 0;
inline constexpr std::size_t vk_offset_beta_g1 = 96;
inline constexpr std::size_t vk_offset_beta_g2 = 192;
inline constexpr std::size_t vk_offset_gamma_g2 = 384;
inline constexpr std::size_t vk_offset_delta_g1 = 576;
inline constexpr std::size_t vk_offset_delta_g2 = 672;
inline constexpr std::size_t vk_offset_ic_len = 864;
inline constexpr std::size_t vk_offset_ic = 868;

inline constexpr std::size_t verifying_key_size(std::size_t ic_len) { return vk_offset_ic + 96 * ic_len; }

// Points that are contiguous in a file: count points starting at byte offset.
struct point_run {
  uint64_t offset = 0;
  uint64_t count = 0;
};

// --- encode ------------------------------------------------------------------------------------
// Throws std::length_error when ic has more than 2^32 - 1 points. Points are written as they are
// (the writer does not reject identities; the reader does).
void append_verifying_key(const verifying_key& vk, std::vector<uint8_t>& out);
std::vector<uint8_t> encode_verifying_key(const verifying_key& vk);
read_error write_verifying_key_file(const std::string& path, const verifying_key& vk);

// --- decode ------------------------------------------------------------------------------------
// The whole input must be one key. Checks the structure first, without decoding any point: the
// fixed part and the length field are present (truncated), the declared ic points fit
// (length_exceeds_file), ic_len > 0 (empty_ic), nothing follows (trailing_bytes); then decodes
// the points in file order (bad_point with the ec decode_error, identity_point). On-curve is
// always checked; subgroup membership unless check == skip. out is untouched on failure.
read_error decode_verifying_key(std::span<const uint8_t> bytes, verifying_key& out,
                                ec::subgroup_check check = ec::subgroup_check::verify);
read_error read_verifying_key_file(const std::string& path, verifying_key& out,
                                   ec::subgroup_check check = ec::subgroup_check::verify);

namespace detail {
// The key starting at byte `at` (0 for a .vk, 0 for the head of a .params): checks that the fixed
// part and the ic_len field are present and that the ic points fit, without decoding any point.
read_error scan_verifying_key(std::span<const uint8_t> bytes, uint64_t at, point_run& ic);
// Decodes the key laid out as scan_verifying_key found it. out.ic is resized.
read_error decode_verifying_key_at(std::span<const uint8_t> bytes, uint64_t at, const point_run& ic,
                                   verifying_key& out, ec::subgroup_check check);
// Reads the u32-BE length at `at` (section len_section) and checks that that many points of
// point_bytes each fit after it (section points_section); the run starts at at + 4.
read_error scan_run(std::span<const uint8_t> bytes, uint64_t at, section len_section, section points_section,
                    std::size_t point_bytes, point_run& out);
}  // namespace detail

}  // namespace cuzk::groth16
