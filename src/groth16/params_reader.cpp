#include "groth16/params_reader.hpp"

#include <stdexcept>
#include <type_traits>

#include "groth16/file_io.hpp"
#include "groth16/wire.hpp"

namespace cuzk::groth16 {

read_error scan_parameters(std::span<const uint8_t> bytes, params_layout& layout) {
  params_layout l;
  read_error e = detail::scan_verifying_key(bytes, 0, l.ic);
  if (!e.ok()) return e;
  uint64_t at = l.ic.offset + l.ic.count * ec::g1_uncompressed_bytes;
  struct step {
    section len;
    section points;
    std::size_t point_bytes;
    point_run* run;
  };
  const step steps[] = {
      {section::h_len, section::h, ec::g1_uncompressed_bytes, &l.h},
      {section::l_len, section::l, ec::g1_uncompressed_bytes, &l.l},
      {section::a_len, section::a, ec::g1_uncompressed_bytes, &l.a},
      {section::b_g1_len, section::b_g1, ec::g1_uncompressed_bytes, &l.b_g1},
      {section::b_g2_len, section::b_g2, ec::g2_uncompressed_bytes, &l.b_g2},
  };
  for (const step& s : steps) {
    e = detail::scan_run(bytes, at, s.len, s.points, s.point_bytes, *s.run);
    if (!e.ok()) return e;
    at = s.run->offset + s.run->count * s.point_bytes;
  }
  if (at != bytes.size()) {
    e.code = read_errc::trailing_bytes;
    e.section = section::end;
    e.offset = at;
    e.count = bytes.size() - at;
    return e;
  }
  l.size = at;
  layout = l;
  return {};
}

namespace {

template <class Affine>
read_error decode_run(std::span<const uint8_t> bytes, section which, const point_run& run, uint64_t first,
                      std::span<Affine> out, ec::subgroup_check check) {
  constexpr std::size_t point_bytes =
      std::is_same_v<Affine, g1_affine> ? ec::g1_uncompressed_bytes : ec::g2_uncompressed_bytes;
  if (first > run.count || out.size() > run.count - first) throw std::out_of_range("decode_run: range outside the run");
  for (std::size_t i = 0; i < out.size(); ++i) {
    const uint64_t index = first + i;
    read_error e =
        wire::decode_point<Affine, false>(bytes, run.offset + index * point_bytes, which, index, out[i], check);
    if (!e.ok()) return e;
  }
  return {};
}

}  // namespace

read_error decode_g1_run(std::span<const uint8_t> bytes, section which, const point_run& run, uint64_t first,
                         std::span<g1_affine> out, ec::subgroup_check check) {
  return decode_run(bytes, which, run, first, out, check);
}

read_error decode_g2_run(std::span<const uint8_t> bytes, section which, const point_run& run, uint64_t first,
                         std::span<g2_affine> out, ec::subgroup_check check) {
  return decode_run(bytes, which, run, first, out, check);
}

read_error read_parameters(std::span<const uint8_t> bytes, parameters& out, ec::subgroup_check check) {
  params_layout layout;
  read_error e = scan_parameters(bytes, layout);
  if (!e.ok()) return e;
  e = detail::decode_verifying_key_at(bytes, 0, layout.ic, out.vk, check);
  if (!e.ok()) return e;
  const struct {
    section s;
    const point_run& run;
    std::vector<g1_affine>& v;
  } g1_sections[] = {
      {section::h, layout.h, out.h},
      {section::l, layout.l, out.l},
      {section::a, layout.a, out.a},
      {section::b_g1, layout.b_g1, out.b_g1},
  };
  for (const auto& s : g1_sections) {
    s.v.assign(s.run.count, g1_affine::identity());
    e = decode_g1_run(bytes, s.s, s.run, 0, s.v, check);
    if (!e.ok()) return e;
  }
  out.b_g2.assign(layout.b_g2.count, g2_affine::identity());
  return decode_g2_run(bytes, section::b_g2, layout.b_g2, 0, out.b_g2, check);
}

read_error read_parameters_file(const std::string& path, parameters& out, ec::subgroup_check check) {
  mapped_file f;
  read_error e = mapped_file::open(path, f);
  if (!e.ok()) return e;
  return read_parameters(f.bytes(), out, check);
}

}  // namespace cuzk::groth16
