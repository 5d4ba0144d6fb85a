#include "groth16/verifying_key.hpp"

#include <limits>
#include <stdexcept>

#include "groth16/file_io.hpp"
#include "groth16/wire.hpp"

namespace cuzk::groth16 {

namespace {

struct fixed_element {
  section s;
  std::size_t offset;
  std::size_t size;
};
constexpr fixed_element vk_fixed[] = {
    {section::alpha_g1, vk_offset_alpha_g1, ec::g1_uncompressed_bytes},
    {section::beta_g1, vk_offset_beta_g1, ec::g1_uncompressed_bytes},
    {section::beta_g2, vk_offset_beta_g2, ec::g2_uncompressed_bytes},
    {section::gamma_g2, vk_offset_gamma_g2, ec::g2_uncompressed_bytes},
    {section::delta_g1, vk_offset_delta_g1, ec::g1_uncompressed_bytes},
    {section::delta_g2, vk_offset_delta_g2, ec::g2_uncompressed_bytes},
};
static_assert(vk_offset_delta_g2 + ec::g2_uncompressed_bytes == vk_offset_ic_len);

}  // namespace

void append_verifying_key(const verifying_key& vk, std::vector<uint8_t>& out) {
  if (vk.ic.size() > std::numeric_limits<uint32_t>::max()) throw std::length_error("verifying_key: ic too long");
  out.reserve(out.size() + verifying_key_size(vk.ic.size()));
  wire::append_uncompressed(out, vk.alpha_g1);
  wire::append_uncompressed(out, vk.beta_g1);
  wire::append_uncompressed(out, vk.beta_g2);
  wire::append_uncompressed(out, vk.gamma_g2);
  wire::append_uncompressed(out, vk.delta_g1);
  wire::append_uncompressed(out, vk.delta_g2);
  wire::append_u32_be(out, static_cast<uint32_t>(vk.ic.size()));
  for (const g1_affine& p : vk.ic) wire::append_uncompressed(out, p);
}

std::vector<uint8_t> encode_verifying_key(const verifying_key& vk) {
  std::vector<uint8_t> out;
  append_verifying_key(vk, out);
  return out;
}

read_error write_verifying_key_file(const std::string& path, const verifying_key& vk) {
  return write_file(path, encode_verifying_key(vk));
}

namespace detail {

read_error scan_run(std::span<const uint8_t> bytes, uint64_t at, section len_section, section points_section,
                    std::size_t point_bytes, point_run& out) {
  uint32_t n = 0;
  read_error e = wire::read_u32_be(bytes, at, len_section, n);
  if (!e.ok()) return e;
  const uint64_t start = at + 4;
  const uint64_t left = bytes.size() - start;  // read_u32_be checked start <= size
  if (uint64_t{n} * point_bytes > left) {      // n < 2^32, point_bytes <= 192: no overflow
    e.code = read_errc::length_exceeds_file;
    e.section = points_section;
    e.offset = start;
    e.count = n;
    e.available = left;
    return e;
  }
  out = {start, n};
  return {};
}

read_error scan_verifying_key(std::span<const uint8_t> bytes, uint64_t at, point_run& ic) {
  for (const fixed_element& f : vk_fixed) {
    const uint64_t off = at + f.offset;
    if (off > bytes.size() || bytes.size() - off < f.size) return wire::truncated(f.s, off, 0, bytes.size());
  }
  point_run run;
  read_error e = scan_run(bytes, at + vk_offset_ic_len, section::ic_len, section::ic, ec::g1_uncompressed_bytes, run);
  if (!e.ok()) return e;
  if (run.count == 0) {
    e.code = read_errc::empty_ic;
    e.section = section::ic_len;
    e.offset = at + vk_offset_ic_len;
    return e;
  }
  ic = run;
  return {};
}

read_error decode_verifying_key_at(std::span<const uint8_t> bytes, uint64_t at, const point_run& ic,
                                   verifying_key& out, ec::subgroup_check check) {
  read_error e;
  if (!(e = wire::decode_point<g1_affine, false>(bytes, at + vk_offset_alpha_g1, section::alpha_g1, 0, out.alpha_g1, check)).ok()) return e;
  if (!(e = wire::decode_point<g1_affine, false>(bytes, at + vk_offset_beta_g1, section::beta_g1, 0, out.beta_g1, check)).ok()) return e;
  if (!(e = wire::decode_point<g2_affine, false>(bytes, at + vk_offset_beta_g2, section::beta_g2, 0, out.beta_g2, check)).ok()) return e;
  if (!(e = wire::decode_point<g2_affine, false>(bytes, at + vk_offset_gamma_g2, section::gamma_g2, 0, out.gamma_g2, check)).ok()) return e;
  if (!(e = wire::decode_point<g1_affine, false>(bytes, at + vk_offset_delta_g1, section::delta_g1, 0, out.delta_g1, check)).ok()) return e;
  if (!(e = wire::decode_point<g2_affine, false>(bytes, at + vk_offset_delta_g2, section::delta_g2, 0, out.delta_g2, check)).ok()) return e;
  out.ic.resize(ic.count);
  for (uint64_t i = 0; i < ic.count; ++i) {
    e = wire::decode_point<g1_affine, false>(bytes, ic.offset + i * ec::g1_uncompressed_bytes, section::ic, i, out.ic[i], check);
    if (!e.ok()) return e;
  }
  return {};
}

}  // namespace detail

read_error decode_verifying_key(std::span<const uint8_t> bytes, verifying_key& out, ec::subgroup_check check) {
  point_run ic;
  read_error e = detail::scan_verifying_key(bytes, 0, ic);
  if (!e.ok()) return e;
  const uint64_t end = ic.offset + ic.count * ec::g1_uncompressed_bytes;
  if (end != bytes.size()) {
    e.code = read_errc::trailing_bytes;
    e.section = section::end;
    e.offset = end;
    e.count = bytes.size() - end;
    return e;
  }
  verifying_key vk;
  e = detail::decode_verifying_key_at(bytes, 0, ic, vk, check);
  if (!e.ok()) return e;
  out = std::move(vk);
  return {};
}

read_error read_verifying_key_file(const std::string& path, verifying_key& out, ec::subgroup_check check) {
  mapped_file f;
  read_error e = mapped_file::open(path, f);
  if (!e.ok()) return e;
  return decode_verifying_key(f.bytes(), out, check);
}

}  // namespace cuzk::groth16
