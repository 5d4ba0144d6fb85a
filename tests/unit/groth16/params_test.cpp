// .params format: round trips (memory and file), the size formula, truncation at every byte,
// corrupt lengths, bad points (off the curve, off the subgroup, identity) with precise errors.
#include <gtest/gtest.h>

#include <random>

#include "groth16/file_io.hpp"
#include "groth16/params_reader.hpp"
#include "groth16/params_writer.hpp"
#include "support/seed.hpp"
#include "unit/groth16/test_util.hpp"

namespace cuzk::groth16 {
namespace {

using test::random_curve_point;
using test::random_subgroup_point;
using test::random_subgroup_points;

template <class Rng>
parameters random_params(Rng& rng) {
  parameters p;
  p.vk.alpha_g1 = random_subgroup_point<ec::g1_curve>(rng);
  p.vk.beta_g1 = random_subgroup_point<ec::g1_curve>(rng);
  p.vk.beta_g2 = random_subgroup_point<ec::g2_curve>(rng);
  p.vk.gamma_g2 = random_subgroup_point<ec::g2_curve>(rng);
  p.vk.delta_g1 = random_subgroup_point<ec::g1_curve>(rng);
  p.vk.delta_g2 = random_subgroup_point<ec::g2_curve>(rng);
  p.vk.ic = random_subgroup_points<ec::g1_curve>(rng, 3);
  p.h = random_subgroup_points<ec::g1_curve>(rng, 7);
  p.l = random_subgroup_points<ec::g1_curve>(rng, 5);
  p.a = random_subgroup_points<ec::g1_curve>(rng, 6);
  p.b_g1 = random_subgroup_points<ec::g1_curve>(rng, 4);
  p.b_g2 = random_subgroup_points<ec::g2_curve>(rng, 3);
  return p;
}

// An independent model of the layout: every element in file order.
struct element {
  section s;
  uint64_t start, size;  // bytes
  bool run;              // a run of points after a length field
  uint64_t count;        // points in the run
};

std::vector<element> model_layout(const parameters& p) {
  std::vector<element> v = {{section::alpha_g1, 0, 96, false, 0},   {section::beta_g1, 96, 96, false, 0},
                            {section::beta_g2, 192, 192, false, 0}, {section::gamma_g2, 384, 192, false, 0},
                            {section::delta_g1, 576, 96, false, 0}, {section::delta_g2, 672, 192, false, 0}};
  uint64_t at = 864;
  auto add = [&](section len, section pts, uint64_t n, uint64_t psize) {
    v.push_back({len, at, 4, false, 0});
    at += 4;
    v.push_back({pts, at, n * psize, true, n});
    at += n * psize;
  };
  add(section::ic_len, section::ic, p.vk.ic.size(), 96);
  add(section::h_len, section::h, p.h.size(), 96);
  add(section::l_len, section::l, p.l.size(), 96);
  add(section::a_len, section::a, p.a.size(), 96);
  add(section::b_g1_len, section::b_g1, p.b_g1.size(), 96);
  add(section::b_g2_len, section::b_g2, p.b_g2.size(), 192);
  return v;
}

const element& find(const std::vector<element>& layout, section s) {
  for (const element& e : layout)
    if (e.s == s) return e;
  throw std::logic_error("no such section");
}

class Groth16Params : public ::testing::Test {
 protected:
  cuzk::test::seeded_rng rng;
  parameters params = random_params(rng);
  std::vector<uint8_t> bytes = encode_parameters(params);
  std::vector<element> layout = model_layout(params);
};

TEST_F(Groth16Params, RoundTripAndSize) {
  ASSERT_EQ(bytes.size(), parameters_size(params));
  ASSERT_EQ(bytes.size(), 868u + 96 * 3 + 20 + 96 * (7 + 5 + 6 + 4) + 192 * 3);
  // The vk is the head of the file, byte for byte.
  const std::vector<uint8_t> vk_bytes = encode_verifying_key(params.vk);
  EXPECT_TRUE(std::equal(vk_bytes.begin(), vk_bytes.end(), bytes.begin()));

  params_layout lay;
  ASSERT_TRUE(scan_parameters(bytes, lay).ok());
  EXPECT_EQ(lay.size, bytes.size());
  const std::pair<point_run, section> runs[] = {{lay.ic, section::ic}, {lay.h, section::h},       {lay.l, section::l},
                                                {lay.a, section::a},   {lay.b_g1, section::b_g1}, {lay.b_g2, section::b_g2}};
  for (const auto& [run, s] : runs) {
    const element& m = find(layout, s);
    EXPECT_EQ(run.offset, m.start) << to_string(s);
    EXPECT_EQ(run.count, m.count) << to_string(s);
  }

  parameters back;
  read_error e = read_parameters(bytes, back);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(back, params);

  test::temp_path tmp("rt.params");
  ASSERT_TRUE(write_parameters_file(tmp.path, params).ok());
  parameters from_file;
  e = read_parameters_file(tmp.path, from_file);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(from_file, params);
  e = read_parameters_file(tmp.path, from_file, ec::subgroup_check::skip);
  ASSERT_TRUE(e.ok()) << e.message();
  EXPECT_EQ(from_file, params);

  // A sub-range of a section, as an executor would split it.
  std::vector<g1_affine> part(3);
  ASSERT_TRUE(decode_g1_run(bytes, section::l, lay.l, 2, part, ec::subgroup_check::verify).ok());
  EXPECT_EQ(part[0], params.l[2]);
  EXPECT_EQ(part[2], params.l[4]);
  EXPECT_THROW((void)decode_g1_run(bytes, section::l, lay.l, 3, part, ec::subgroup_check::verify), std::out_of_range);
}

TEST_F(Groth16Params, TruncatedAtEveryByte) {
  for (uint64_t t = 0; t < bytes.size(); ++t) {
    const element* el = nullptr;
    for (const element& x : layout) {
      if (t < x.start + x.size) {
        el = &x;
        break;
      }
    }
    ASSERT_NE(el, nullptr);
    params_layout lay;
    read_error e = scan_parameters(std::span<const uint8_t>(bytes.data(), t), lay);
    ASSERT_EQ(e.code, el->run ? read_errc::length_exceeds_file : read_errc::truncated) << t << ": " << e.message();
    ASSERT_EQ(e.section, el->s) << t << ": " << e.message();
    ASSERT_EQ(e.offset, el->start) << t;
    ASSERT_EQ(e.available, t - el->start) << t;
    if (el->run) {
      ASSERT_EQ(e.count, el->count) << t;
    }
  }
}

TEST_F(Groth16Params, TruncatedAtSectionBoundariesAndRandomly) {
  std::vector<uint64_t> cuts;
  for (const element& x : layout) cuts.push_back(x.start);
  std::mt19937_64 pick(rng());
  for (int i = 0; i < 24; ++i) cuts.push_back(pick() % bytes.size());
  for (uint64_t t : cuts) {
    parameters out;
    read_error e = read_parameters(std::span<const uint8_t>(bytes.data(), t), out);
    ASSERT_FALSE(e.ok()) << t;
    ASSERT_TRUE(e.code == read_errc::truncated || e.code == read_errc::length_exceeds_file) << e.message();
    ASSERT_FALSE(e.message().empty());
  }
  // A file cut at a section boundary, read through mmap.
  test::temp_path tmp("cut.params");
  const element& l_len = find(layout, section::l_len);
  ASSERT_TRUE(write_file(tmp.path, std::span<const uint8_t>(bytes.data(), l_len.start)).ok());
  parameters out;
  read_error e = read_parameters_file(tmp.path, out);
  EXPECT_EQ(e.code, read_errc::truncated);
  EXPECT_EQ(e.section, section::l_len);
  EXPECT_EQ(e.offset, l_len.start);
  EXPECT_EQ(e.available, 0u);
  EXPECT_NE(e.message().find("l length at offset"), std::string::npos) << e.message();
  // An empty file.
  ASSERT_TRUE(write_file(tmp.path, {}).ok());
  e = read_parameters_file(tmp.path, out);
  EXPECT_EQ(e.code, read_errc::truncated);
  EXPECT_EQ(e.section, section::alpha_g1);
}

void set_u32(std::vector<uint8_t>& b, uint64_t at, uint32_t v) {
  b[at] = static_cast<uint8_t>(v >> 24);
  b[at + 1] = static_cast<uint8_t>(v >> 16);
  b[at + 2] = static_cast<uint8_t>(v >> 8);
  b[at + 3] = static_cast<uint8_t>(v);
}

TEST_F(Groth16Params, CorruptLengths) {
  parameters out;
  for (section len : {section::ic_len, section::h_len, section::l_len, section::a_len, section::b_g1_len,
                      section::b_g2_len}) {
    const element& field = find(layout, len);
    const element& run = layout[static_cast<std::size_t>(&field - layout.data()) + 1];
    std::vector<uint8_t> b = bytes;
    set_u32(b, field.start, 0xffffffffu);
    read_error e = read_parameters(b, out);
    EXPECT_EQ(e.code, read_errc::length_exceeds_file) << to_string(len);
    EXPECT_EQ(e.section, run.s);
    EXPECT_EQ(e.offset, run.start);
    EXPECT_EQ(e.count, 0xffffffffu);
    EXPECT_EQ(e.available, bytes.size() - run.start);
  }
  // b_g2 one shorter than the data: one G2 point left over.
  std::vector<uint8_t> b = bytes;
  set_u32(b, find(layout, section::b_g2_len).start, static_cast<uint32_t>(params.b_g2.size() - 1));
  read_error e = read_parameters(b, out);
  EXPECT_EQ(e.code, read_errc::trailing_bytes);
  EXPECT_EQ(e.section, section::end);
  EXPECT_EQ(e.offset, bytes.size() - 192);
  EXPECT_EQ(e.count, 192u);
  // Extra bytes after a valid file.
  b = bytes;
  b.insert(b.end(), 5, 0);
  e = read_parameters(b, out);
  EXPECT_EQ(e.code, read_errc::trailing_bytes);
  EXPECT_EQ(e.offset, bytes.size());
  EXPECT_EQ(e.count, 5u);
  // l one longer: its last point swallows a_len and part of a; a_len then reads point bytes.
  // Whatever the bytes say, the error is structural and precise, never a crash.
  b = bytes;
  set_u32(b, find(layout, section::l_len).start, static_cast<uint32_t>(params.l.size() + 1));
  e = read_parameters(b, out);
  EXPECT_FALSE(e.ok());
  EXPECT_TRUE(e.code == read_errc::length_exceeds_file || e.code == read_errc::trailing_bytes ||
              e.code == read_errc::truncated) << e.message();
}

TEST_F(Groth16Params, BadPoints) {
  parameters out;
  // Not on the curve: flip the low bit of l[2].y (checked with and without the subgroup check).
  {
    const element& l = find(layout, section::l);
    std::vector<uint8_t> b = bytes;
    b[l.start + 2 * 96 + 95] ^= 1;
    for (auto check : {ec::subgroup_check::verify, ec::subgroup_check::skip}) {
      read_error e = read_parameters(b, out, check);
      EXPECT_EQ(e.code, read_errc::bad_point);
      EXPECT_EQ(e.point, ec::decode_error::not_on_curve);
      EXPECT_EQ(e.section, section::l);
      EXPECT_EQ(e.index, 2u);
      EXPECT_EQ(e.offset, l.start + 2 * 96);
      EXPECT_NE(e.message().find("l[2] at offset"), std::string::npos) << e.message();
    }
  }
  // Not on the curve in G2: b_g2[1].
  {
    const element& r = find(layout, section::b_g2);
    std::vector<uint8_t> b = bytes;
    b[r.start + 192 + 191] ^= 1;
    read_error e = read_parameters(b, out, ec::subgroup_check::skip);
    EXPECT_EQ(e.point, ec::decode_error::not_on_curve);
    EXPECT_EQ(e.section, section::b_g2);
    EXPECT_EQ(e.index, 1u);
    EXPECT_EQ(e.offset, r.start + 192);
  }
  // Off the subgroup, in a (G1) and b_g2 (G2): rejected with the check, accepted without.
  {
    parameters bad = params;
    bad.a[1] = random_curve_point<ec::g1_curve>(rng);
    std::vector<uint8_t> b = encode_parameters(bad);
    read_error e = read_parameters(b, out, ec::subgroup_check::verify);
    EXPECT_EQ(e.code, read_errc::bad_point);
    EXPECT_EQ(e.point, ec::decode_error::not_in_subgroup);
    EXPECT_EQ(e.section, section::a);
    EXPECT_EQ(e.index, 1u);
    EXPECT_EQ(e.offset, find(layout, section::a).start + 96);
    e = read_parameters(b, out, ec::subgroup_check::skip);
    ASSERT_TRUE(e.ok()) << e.message();
    EXPECT_EQ(out, bad);

    bad = params;
    bad.b_g2[2] = random_curve_point<ec::g2_curve>(rng);
    b = encode_parameters(bad);
    e = read_parameters(b, out, ec::subgroup_check::verify);
    EXPECT_EQ(e.point, ec::decode_error::not_in_subgroup);
    EXPECT_EQ(e.section, section::b_g2);
    EXPECT_EQ(e.index, 2u);
    e = read_parameters(b, out, ec::subgroup_check::skip);
    ASSERT_TRUE(e.ok()) << e.message();
    EXPECT_EQ(out, bad);

    bad = params;
    bad.vk.delta_g1 = random_curve_point<ec::g1_curve>(rng);
    e = read_parameters(encode_parameters(bad), out, ec::subgroup_check::verify);
    EXPECT_EQ(e.point, ec::decode_error::not_in_subgroup);
    EXPECT_EQ(e.section, section::delta_g1);
    EXPECT_EQ(e.offset, vk_offset_delta_g1);
  }
  // The identity, which no section may hold.
  for (section s : {section::h, section::b_g1}) {
    parameters bad = params;
    (s == section::h ? bad.h : bad.b_g1)[0] = g1_affine::identity();
    read_error e = read_parameters(encode_parameters(bad), out);
    EXPECT_EQ(e.code, read_errc::identity_point);
    EXPECT_EQ(e.section, s);
    EXPECT_EQ(e.index, 0u);
    EXPECT_EQ(e.offset, find(layout, s).start);
  }
}

}  // namespace
}  // namespace cuzk::groth16
