// Zcash / IETF point encodings, byte-compatible with zkcrypto bls12_381, blst, bellperson and
// Filecoin's parameter and proof files:
//
//   G1 compressed 48 B = x;  uncompressed 96 B = x || y
//   G2 compressed 96 B = x.c1 || x.c0;  uncompressed 192 B = x.c1 || x.c0 || y.c1 || y.c0
//
// Each Fp element is 48 bytes big-endian. The top 3 bits of the first byte are flags:
//   0x80 compressed, 0x40 point at infinity, 0x20 sign (compressed only: y is the
//   lexicographically largest root; Fp2 compares c1 first and c0 when c1 == 0).
// The identity is 0xc0 00.. (compressed) or 0x40 00.. (uncompressed).
//
// Decoders validate completely and report the first failure, checked in this order:
//   compression flag vs length, sign flag on uncompressed, infinity form, coordinate ranges
//   (x < p, per Fp component for G2; then y), on-curve (for compressed: x^3 + b is a square),
//   subgroup membership (unless subgroup_check::skip). On failure out is left untouched.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/curves.hpp"

namespace cuzk::ec {

inline constexpr std::size_t g1_compressed_bytes = 48;
inline constexpr std::size_t g1_uncompressed_bytes = 96;
inline constexpr std::size_t g2_compressed_bytes = 96;
inline constexpr std::size_t g2_uncompressed_bytes = 192;

enum class decode_error : uint8_t {
  ok = 0,
  wrong_length,               // dynamic-length decode: not one of the two sizes of the group
  compression_flag_mismatch,  // 0x80 set on an uncompressed-size input, or clear on a compressed one
  sign_flag_on_uncompressed,  // 0x20 set on an uncompressed encoding (infinity or not)
  infinity_with_sign,         // compressed infinity with the sign flag set
  noncanonical_infinity,      // infinity flag with any other nonzero bit or byte
  coordinate_not_canonical,   // a coordinate (an Fp component) >= p
  not_on_curve,               // compressed: x^3 + b has no square root; uncompressed: y^2 != x^3 + b
  not_in_subgroup,            // on the curve but not in the order-r subgroup
};

const char* to_string(decode_error e);

// Callers that verified the bytes by a trusted digest (parameter files) may skip the subgroup
// check, the dominant cost of decoding.
enum class subgroup_check : uint8_t { verify, skip };

// --- encode (the point must be on the curve; infinity encodes canonically) ---------------------
void encode_g1_compressed(const g1_affine& p, std::span<uint8_t, g1_compressed_bytes> out);
void encode_g1_uncompressed(const g1_affine& p, std::span<uint8_t, g1_uncompressed_bytes> out);
void encode_g2_compressed(const g2_affine& p, std::span<uint8_t, g2_compressed_bytes> out);
void encode_g2_uncompressed(const g2_affine& p, std::span<uint8_t, g2_uncompressed_bytes> out);

// --- decode ------------------------------------------------------------------------------------
decode_error decode_g1_compressed(std::span<const uint8_t, g1_compressed_bytes> in, g1_affine& out,
                                  subgroup_check check = subgroup_check::verify);
decode_error decode_g1_uncompressed(std::span<const uint8_t, g1_uncompressed_bytes> in, g1_affine& out,
                                    subgroup_check check = subgroup_check::verify);
decode_error decode_g2_compressed(std::span<const uint8_t, g2_compressed_bytes> in, g2_affine& out,
                                  subgroup_check check = subgroup_check::verify);
decode_error decode_g2_uncompressed(std::span<const uint8_t, g2_uncompressed_bytes> in, g2_affine& out,
                                    subgroup_check check = subgroup_check::verify);

// Either form, chosen by length (48/96 for G1, 96/192 for G2); the compression flag must agree
// with the length. Note that 96 bytes is an uncompressed G1 point or a compressed G2 point:
// the group is the caller's choice, not guessed.
decode_error decode_g1(std::span<const uint8_t> in, g1_affine& out, subgroup_check check = subgroup_check::verify);
decode_error decode_g2(std::span<const uint8_t> in, g2_affine& out, subgroup_check check = subgroup_check::verify);

}  // namespace cuzk::ec
