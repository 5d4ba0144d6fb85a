// Zcash / IETF point encodings (see encoding.hpp for the format and the order of checks).
#include "ec/encoding.hpp"

#include <algorithm>
#include <cstring>

#include "ec/subgroup.hpp"

namespace cuzk::ec {

namespace {

constexpr uint8_t flag_compressed = 0x80;
constexpr uint8_t flag_infinity = 0x40;
constexpr uint8_t flag_sign = 0x20;
constexpr uint8_t flag_mask = flag_compressed | flag_infinity | flag_sign;
constexpr std::size_t fp_bytes = fp::bytes;  // 48

// Per-field byte layout: Fp is one 48-byte big-endian integer; Fp2 is c1 then c0.
template <class F>
struct field_io;

template <>
struct field_io<fp> {
  static constexpr std::size_t size = fp_bytes;
  static void write(const fp& a, uint8_t* out) { a.to_bytes_be(out); }
  // in's flag bits must already be cleared. False if >= p.
  static bool read(const uint8_t* in, fp& out) { return fp::from_bytes_be(in, out); }
};

template <>
struct field_io<fp2> {
  static constexpr std::size_t size = 2 * fp_bytes;
  static void write(const fp2& a, uint8_t* out) {
    a.c1.to_bytes_be(out);
    a.c0.to_bytes_be(out + fp_bytes);
  }
  // Each component is range-checked on its own (a c1 >= p is not folded into c0).
  static bool read(const uint8_t* in, fp2& out) {
    fp2 r;
    if (!fp::from_bytes_be(in, r.c1)) return false;
    if (!fp::from_bytes_be(in + fp_bytes, r.c0)) return false;
    out = r;
    return true;
  }
};

template <class Curve>
void encode_compressed(const affine_point<Curve>& p, uint8_t* out) {
  using io = field_io<typename Curve::field>;
  if (p.infinity) {
    std::memset(out, 0, io::size);
    out[0] = flag_compressed | flag_infinity;
    return;
  }
  io::write(p.x, out);
  out[0] |= flag_compressed;
  if (p.y.is_lexicographically_largest()) out[0] |= flag_sign;
}

template <class Curve>
void encode_uncompressed(const affine_point<Curve>& p, uint8_t* out) {
  using io = field_io<typename Curve::field>;
  if (p.infinity) {
    std::memset(out, 0, 2 * io::size);
    out[0] = flag_infinity;
    return;
  }
  io::write(p.x, out);
  io::write(p.y, out + io::size);
}

bool rest_is_zero(const uint8_t* in, std::size_t n) {
  // Everything but the flag bits of the first byte.
  if ((in[0] & static_cast<uint8_t>(~flag_mask)) != 0) return false;
  return std::all_of(in + 1, in + n, [](uint8_t b) { return b == 0; });
}

template <class Curve>
decode_error finish(const affine_point<Curve>& p, affine_point<Curve>& out, subgroup_check check) {
  if (check == subgroup_check::verify && !is_in_subgroup(p)) return decode_error::not_in_subgroup;
  out = p;
  return decode_error::ok;
}

template <class Curve>
decode_error decode_compressed(const uint8_t* in, affine_point<Curve>& out, subgroup_check check) {
  using field = typename Curve::field;
  using io = field_io<field>;
  const uint8_t flags = in[0] & flag_mask;
  if (!(flags & flag_compressed)) return decode_error::compression_flag_mismatch;
  if (flags & flag_infinity) {
    if (flags & flag_sign) return decode_error::infinity_with_sign;
    if (!rest_is_zero(in, io::size)) return decode_error::noncanonical_infinity;
    out = affine_point<Curve>::identity();
    return decode_error::ok;
  }
  uint8_t buf[io::size];
  std::memcpy(buf, in, io::size);
  buf[0] &= static_cast<uint8_t>(~flag_mask);
  field x;
  if (!io::read(buf, x)) return decode_error::coordinate_not_canonical;
  field y;
  if (!(x.square() * x + Curve::b).sqrt(y)) return decode_error::not_on_curve;
  // Of the two roots y and -y, pick the one whose "largest" bit matches the sign flag.
  if (y.is_lexicographically_largest() != static_cast<bool>(flags & flag_sign)) y = -y;
  return finish(affine_point<Curve>{x, y, false}, out, check);
}

template <class Curve>
decode_error decode_uncompressed(const uint8_t* in, affine_point<Curve>& out, subgroup_check check) {
  using field = typename Curve::field;
  using io = field_io<field>;
  const uint8_t flags = in[0] & flag_mask;
  if (flags & flag_compressed) return decode_error::compression_flag_mismatch;
  if (flags & flag_sign) return decode_error::sign_flag_on_uncompressed;
  if (flags & flag_infinity) {
    if (!rest_is_zero(in, 2 * io::size)) return decode_error::noncanonical_infinity;
    out = affine_point<Curve>::identity();
    return decode_error::ok;
  }
  // No flags are set here, so the bytes are the coordinates as they stand.
  field x, y;
  if (!io::read(in, x) || !io::read(in + io::size, y)) return decode_error::coordinate_not_canonical;
  affine_point<Curve> p{x, y, false};
  if (!p.is_on_curve()) return decode_error::not_on_curve;
  return finish(p, out, check);
}

}  // namespace

const char* to_string(decode_error e) {
  switch (e) {
    case decode_error::ok: return "ok";
    case decode_error::wrong_length: return "wrong encoding length for this group";
    case decode_error::compression_flag_mismatch: return "compression flag does not match the encoding length";
    case decode_error::sign_flag_on_uncompressed: return "sign flag set on an uncompressed encoding";
    case decode_error::infinity_with_sign: return "point at infinity with the sign flag set";
    case decode_error::noncanonical_infinity: return "point at infinity with nonzero coordinate bits";
    case decode_error::coordinate_not_canonical: return "coordinate not below the field modulus";
    case decode_error::not_on_curve: return "point not on the curve";
    case decode_error::not_in_subgroup: return "point not in the prime-order subgroup";
  }
  return "unknown decode_error";
}

void encode_g1_compressed(const g1_affine& p, std::span<uint8_t, g1_compressed_bytes> out) {
  encode_compressed(p, out.data());
}
void encode_g1_uncompressed(const g1_affine& p, std::span<uint8_t, g1_uncompressed_bytes> out) {
  encode_uncompressed(p, out.data());
}
void encode_g2_compressed(const g2_affine& p, std::span<uint8_t, g2_compressed_bytes> out) {
  encode_compressed(p, out.data());
}
void encode_g2_uncompressed(const g2_affine& p, std::span<uint8_t, g2_uncompressed_bytes> out) {
  encode_uncompressed(p, out.data());
}

decode_error decode_g1_compressed(std::span<const uint8_t, g1_compressed_bytes> in, g1_affine& out,
                                  subgroup_check check) {
  return decode_compressed(in.data(), out, check);
}
decode_error decode_g1_uncompressed(std::span<const uint8_t, g1_uncompressed_bytes> in, g1_affine& out,
                                    subgroup_check check) {
  return decode_uncompressed(in.data(), out, check);
}
decode_error decode_g2_compressed(std::span<const uint8_t, g2_compressed_bytes> in, g2_affine& out,
                                  subgroup_check check) {
  return decode_compressed(in.data(), out, check);
}
decode_error decode_g2_uncompressed(std::span<const uint8_t, g2_uncompressed_bytes> in, g2_affine& out,
                                    subgroup_check check) {
  return decode_uncompressed(in.data(), out, check);
}

decode_error decode_g1(std::span<const uint8_t> in, g1_affine& out, subgroup_check check) {
  if (in.size() == g1_compressed_bytes) return decode_compressed(in.data(), out, check);
  if (in.size() == g1_uncompressed_bytes) return decode_uncompressed(in.data(), out, check);
  return decode_error::wrong_length;
}
decode_error decode_g2(std::span<const uint8_t> in, g2_affine& out, subgroup_check check) {
  if (in.size() == g2_compressed_bytes) return decode_compressed(in.data(), out, check);
  if (in.size() == g2_uncompressed_bytes) return decode_uncompressed(in.data(), out, check);
  return decode_error::wrong_length;
}

}  // namespace cuzk::ec
