#include "groth16/snarkjs_format.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "ec/point.hpp"
#include "ec/subgroup.hpp"
#include "ff/bls12_381.hpp"
#include "groth16/file_io.hpp"

namespace cuzk::groth16::snarkjs {

using ff::fp;
using ff::fp2;

const char* to_string(errc c) {
  switch (c) {
    case errc::ok: return "ok";
    case errc::io: return "i/o error";
    case errc::bad_magic: return "wrong file type";
    case errc::bad_version: return "unsupported version";
    case errc::truncated: return "file ends too early";
    case errc::duplicate_section: return "duplicate section";
    case errc::missing_section: return "missing section";
    case errc::wrong_size: return "section size disagrees with the header";
    case errc::unsupported: return "unsupported content";
    case errc::bad_value: return "invalid value";
    case errc::bad_point: return "invalid point";
    case errc::mismatch: return "inputs do not match";
  }
  return "unknown errc";
}

namespace {

error fail(errc c, std::string detail) { return error{c, std::move(detail)}; }

std::string num(uint64_t v) { return std::to_string(v); }

uint32_t le32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}
uint64_t le64(const uint8_t* p) { return uint64_t{le32(p)} | (uint64_t{le32(p + 4)} << 32); }

template <std::size_t N>
ff::bigint<N> le_bigint(const uint8_t* p) {
  ff::bigint<N> x{};
  for (std::size_t i = 0; i < 8 * N; ++i) x.w[i / 8] |= uint64_t{p[i]} << (8 * (i % 8));
  return x;
}

// A Montgomery-form Fp coordinate (R = 2^384, as ff::fp): false if >= q.
bool lem_fp(const uint8_t* p, fp& out) {
  const auto x = le_bigint<6>(p);
  if (!ff::less_than(x, fp::modulus)) return false;
  out = fp::from_montgomery_repr(x);
  return true;
}

bool all_zero(const uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i]) return false;
  return true;
}

void put_lem_fp(const fp& v, uint8_t* out) {
  for (std::size_t i = 0; i < 48; ++i) out[i] = static_cast<uint8_t>(v.v.w[i / 8] >> (8 * (i % 8)));
}

// The prime fields' moduli as snarkjs writes them: n8 bytes little-endian.
template <std::size_t N>
bool is_modulus(const uint8_t* p, const ff::bigint<N>& m) {
  return le_bigint<N>(p) == m;
}

const char* zkey_section_name(uint32_t id) {
  switch (id) {
    case 1: return "protocol";
    case 2: return "header";
    case 3: return "IC";
    case 4: return "coefficients";
    case 5: return "A";
    case 6: return "B1";
    case 7: return "B2";
    case 8: return "C";
    case 9: return "H";
    case 10: return "contributions";
  }
  return "unknown";
}

std::string where(const char* kind, uint32_t id, const char* name) {
  std::string s = kind;
  s.append(" section ").append(num(id)).append(" (").append(name).append(")");
  return s;
}

// Finds the unique section `id`; errors name the file kind.
error find_section(const std::vector<section_ref>& secs, uint32_t id, const char* kind, const char* name,
                   section_ref& out) {
  int found = 0;
  for (const auto& s : secs) {
    if (s.id != id) continue;
    if (found++) return fail(errc::duplicate_section, where(kind, id, name) + ": appears more than once");
    out = s;
  }
  if (!found) return fail(errc::missing_section, where(kind, id, name) + ": missing");
  return {};
}

error expect_size(const section_ref& s, uint64_t want, const char* kind, const char* name, const std::string& why) {
  if (s.size == want) return {};
  return fail(errc::wrong_size, where(kind, s.id, name) + " at offset " + num(s.offset) + ": " + num(s.size) +
                                    " bytes, expected " + num(want) + " (" + why + ")");
}

std::string point_msg(const char* kind, uint32_t id, const char* name, uint64_t index, uint64_t offset,
                      ec::decode_error d) {
  return where(kind, id, name) + "[" + num(index) + "] at offset " + num(offset) + ": " + ec::to_string(d);
}

// Decodes count points of Bytes each from bytes[off..) in parallel; reports the lowest failing
// index (deterministic whatever the scheduling).
template <class Affine, std::size_t Bytes>
error decode_points(std::span<const uint8_t> bytes, const section_ref& s, uint64_t count, std::vector<Affine>& out,
                    ec::subgroup_check check, base::executor& ex, const char* name) {
  out.resize(count);
  std::atomic<uint64_t> first_bad{UINT64_MAX};
  std::vector<ec::decode_error> errs(count ? 1 : 0);
  std::mutex mu;
  ex.parallel_for(count, 1024, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const uint8_t* p = bytes.data() + s.offset + i * Bytes;
      ec::decode_error d;
      if constexpr (Bytes == lem_g1_bytes)
        d = decode_lem_g1(p, out[i], check);
      else
        d = decode_lem_g2(p, out[i], check);
      if (d != ec::decode_error::ok) {
        std::lock_guard lock(mu);
        if (i < first_bad.load()) {
          first_bad = i;
          errs[0] = d;
        }
        return;
      }
    }
  });
  if (first_bad.load() != UINT64_MAX) {
    const uint64_t i = first_bad.load();
    return fail(errc::bad_point, point_msg("zkey", s.id, name, i, s.offset + i * Bytes, errs[0]));
  }
  return {};
}

}  // namespace

// --- element codecs ------------------------------------------------------------------------------

ec::decode_error decode_lem_g1(const uint8_t* in, g1_affine& out, ec::subgroup_check check) {
  if (all_zero(in, lem_g1_bytes)) {
    out = g1_affine::identity();
    return ec::decode_error::ok;
  }
  g1_affine p{fp::zero(), fp::zero(), false};
  if (!lem_fp(in, p.x) || !lem_fp(in + 48, p.y)) return ec::decode_error::coordinate_not_canonical;
  if (!p.is_on_curve()) return ec::decode_error::not_on_curve;
  if (check == ec::subgroup_check::verify && !ec::is_in_subgroup(p)) return ec::decode_error::not_in_subgroup;
  out = p;
  return ec::decode_error::ok;
}

ec::decode_error decode_lem_g2(const uint8_t* in, g2_affine& out, ec::subgroup_check check) {
  if (all_zero(in, lem_g2_bytes)) {
    out = g2_affine::identity();
    return ec::decode_error::ok;
  }
  g2_affine p{fp2::zero(), fp2::zero(), false};
  if (!lem_fp(in, p.x.c0) || !lem_fp(in + 48, p.x.c1) || !lem_fp(in + 96, p.y.c0) || !lem_fp(in + 144, p.y.c1))
    return ec::decode_error::coordinate_not_canonical;
  if (!p.is_on_curve()) return ec::decode_error::not_on_curve;
  if (check == ec::subgroup_check::verify && !ec::is_in_subgroup(p)) return ec::decode_error::not_in_subgroup;
  out = p;
  return ec::decode_error::ok;
}

void encode_lem_g1(const g1_affine& p, uint8_t* out) {
  if (p.infinity) {
    std::memset(out, 0, lem_g1_bytes);
    return;
  }
  put_lem_fp(p.x, out);
  put_lem_fp(p.y, out + 48);
}

void encode_lem_g2(const g2_affine& p, uint8_t* out) {
  if (p.infinity) {
    std::memset(out, 0, lem_g2_bytes);
    return;
  }
  put_lem_fp(p.x.c0, out);
  put_lem_fp(p.x.c1, out + 48);
  put_lem_fp(p.y.c0, out + 96);
  put_lem_fp(p.y.c1, out + 144);
}

// --- container -----------------------------------------------------------------------------------

error scan_container(std::span<const uint8_t> bytes, const char* kind, uint32_t version,
                     std::vector<section_ref>& out) {
  out.clear();
  if (bytes.size() < 12) return fail(errc::truncated, std::string(kind) + ": " + num(bytes.size()) +
                                                          " bytes, too short for the 12-byte file header");
  if (std::memcmp(bytes.data(), kind, 4) != 0) {
    std::string got;
    for (int i = 0; i < 4; ++i) {
      const char c = static_cast<char>(bytes[i]);
      got.push_back(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return fail(errc::bad_magic, std::string(kind) + ": magic is \"" + got + "\", expected \"" + kind + "\"");
  }
  const uint32_t v = le32(bytes.data() + 4);
  if (v != version)
    return fail(errc::bad_version, std::string(kind) + ": version " + num(v) + ", expected " + num(version));
  const uint32_t n = le32(bytes.data() + 8);
  uint64_t at = 12;
  for (uint32_t i = 0; i < n; ++i) {
    if (bytes.size() - at < 12)
      return fail(errc::truncated, std::string(kind) + ": section header " + num(i) + " of " + num(n) +
                                       " at offset " + num(at) + " is cut off (file size " + num(bytes.size()) + ")");
    section_ref s;
    s.id = le32(bytes.data() + at);
    s.size = le64(bytes.data() + at + 4);
    s.offset = at + 12;
    if (s.size > bytes.size() - s.offset)
      return fail(errc::truncated, std::string(kind) + " section " + num(s.id) + " at offset " + num(s.offset) +
                                       ": declares " + num(s.size) + " bytes, only " +
                                       num(bytes.size() - s.offset) + " remain");
    out.push_back(s);
    at = s.offset + s.size;
  }
  if (at != bytes.size())
    return fail(errc::wrong_size, std::string(kind) + ": " + num(bytes.size() - at) +
                                      " bytes after the last section (offset " + num(at) + ")");
  return {};
}

// --- .zkey -------------------------------------------------------------------------------------

unsigned zkey::log_domain_size() const {
  unsigned k = 0;
  while ((uint64_t{1} << k) < domain_size) ++k;
  return k;
}

error read_zkey(std::span<const uint8_t> bytes, zkey& out, base::executor& ex, const read_options& opt) {
  constexpr const char* kind = "zkey";
  std::vector<section_ref> secs;
  if (error e = scan_container(bytes, kind, 1, secs); !e.ok()) return e;
  section_ref s[11];
  for (uint32_t id = 1; id <= 9; ++id)
    if (error e = find_section(secs, id, kind, zkey_section_name(id), s[id]); !e.ok()) return e;

  // Section 1: protocol.
  if (error e = expect_size(s[1], 4, kind, "protocol", "one u32"); !e.ok()) return e;
  const uint32_t protocol = le32(bytes.data() + s[1].offset);
  if (protocol != 1)
    return fail(errc::unsupported, where(kind, 1, "protocol") + ": protocol " + num(protocol) +
                                       (protocol == 2 ? " (PLONK)" : protocol == 10 ? " (FFLONK)" : "") +
                                       ", only Groth16 (1) is supported");

  // Section 2: header.
  constexpr uint64_t header_bytes = 4 + 48 + 4 + 32 + 4 + 4 + 4 + 3 * lem_g1_bytes + 3 * lem_g2_bytes;
  {
    const uint8_t* h = bytes.data() + s[2].offset;
    if (s[2].size < 8 || le32(h) != 48)
      return fail(errc::unsupported, where(kind, 2, "header") + ": base field is not 48 bytes (not BLS12-381)");
    if (s[2].size < 4 + 48 || !is_modulus<6>(h + 4, fp::modulus))
      return fail(errc::unsupported, where(kind, 2, "header") + ": base field prime is not BLS12-381's q");
    if (s[2].size < 4 + 48 + 4 + 32 || le32(h + 52) != 32 || !is_modulus<4>(h + 56, fr::modulus))
      return fail(errc::unsupported, where(kind, 2, "header") + ": scalar field is not BLS12-381's r");
  }
  if (error e = expect_size(s[2], header_bytes, kind, "header", "Groth16 header for BLS12-381"); !e.ok()) return e;
  const uint8_t* h = bytes.data() + s[2].offset + 88;
  out.n_vars = le32(h);
  out.n_public = le32(h + 4);
  out.domain_size = le32(h + 8);
  if (out.n_vars == 0 || uint64_t{out.n_public} + 1 > out.n_vars)
    return fail(errc::bad_value, where(kind, 2, "header") + ": nPublic " + num(out.n_public) + " + 1 > nVars " +
                                     num(out.n_vars));
  if (out.domain_size == 0 || (out.domain_size & (out.domain_size - 1)))
    return fail(errc::bad_value, where(kind, 2, "header") + ": domainSize " + num(out.domain_size) +
                                     " is not a power of two");
  if (out.log_domain_size() >= 31)
    return fail(errc::unsupported, where(kind, 2, "header") + ": domainSize 2^" + num(out.log_domain_size()) +
                                        " (at most 2^30 supported)");
  {
    const uint8_t* p = h + 12;
    struct item {
      const char* name;
      bool g2;
      void* dst;
    } items[] = {{"alpha_1", false, &out.alpha_g1}, {"beta_1", false, &out.beta_g1}, {"beta_2", true, &out.beta_g2},
                 {"gamma_2", true, &out.gamma_g2},  {"delta_1", false, &out.delta_g1}, {"delta_2", true, &out.delta_g2}};
    for (const item& it : items) {
      const uint64_t off = static_cast<uint64_t>(p - bytes.data());
      ec::decode_error d = it.g2 ? decode_lem_g2(p, *static_cast<g2_affine*>(it.dst), ec::subgroup_check::verify)
                                 : decode_lem_g1(p, *static_cast<g1_affine*>(it.dst), ec::subgroup_check::verify);
      // On failure the decoder leaves the point untouched (uninitialised): test d first.
      if (d != ec::decode_error::ok)
        return fail(errc::bad_point, where(kind, 2, "header") + " " + it.name + " at offset " + num(off) + ": " +
                                         ec::to_string(d));
      const bool inf = it.g2 ? static_cast<g2_affine*>(it.dst)->infinity : static_cast<g1_affine*>(it.dst)->infinity;
      if (inf) {
        return fail(errc::bad_point, where(kind, 2, "header") + " " + it.name + " at offset " + num(off) +
                                         ": point at infinity");
      }
      p += it.g2 ? lem_g2_bytes : lem_g1_bytes;
    }
  }

  // Sizes of the vector sections, all before any bulk decoding.
  const uint64_t nv = out.n_vars, np1 = uint64_t{out.n_public} + 1, n = out.domain_size;
  if (error e = expect_size(s[3], np1 * lem_g1_bytes, kind, "IC", "nPublic + 1 G1 points"); !e.ok()) return e;
  if (s[4].size < 4) return expect_size(s[4], 4, kind, "coefficients", "at least the u32 count");
  const uint64_t n_coef = le32(bytes.data() + s[4].offset);
  constexpr uint64_t coef_bytes = 12 + 32;
  if (error e = expect_size(s[4], 4 + n_coef * coef_bytes, kind, "coefficients",
                            num(n_coef) + " coefficients of 44 bytes after the count");
      !e.ok())
    return e;
  if (error e = expect_size(s[5], nv * lem_g1_bytes, kind, "A", "nVars G1 points"); !e.ok()) return e;
  if (error e = expect_size(s[6], nv * lem_g1_bytes, kind, "B1", "nVars G1 points"); !e.ok()) return e;
  if (error e = expect_size(s[7], nv * lem_g2_bytes, kind, "B2", "nVars G2 points"); !e.ok()) return e;
  if (error e = expect_size(s[8], (nv - np1) * lem_g1_bytes, kind, "C", "nVars - nPublic - 1 G1 points"); !e.ok())
    return e;
  if (error e = expect_size(s[9], n * lem_g1_bytes, kind, "H", "domainSize G1 points"); !e.ok()) return e;

  // Section 4: coefficients. Stored value = v * R^2 mod r (R = 2^256); one Montgomery reduction
  // of the raw integer gives v * R, which is the Montgomery form of v.
  out.coeffs.resize(n_coef);
  for (uint64_t i = 0; i < n_coef; ++i) {
    const uint64_t off = s[4].offset + 4 + i * coef_bytes;
    const uint8_t* c = bytes.data() + off;
    zkey_coefficient& k = out.coeffs[i];
    k.matrix = le32(c);
    k.constraint = le32(c + 4);
    k.signal = le32(c + 8);
    const auto raw = le_bigint<4>(c + 12);
    auto bad = [&](const std::string& what) {
      return fail(errc::bad_value,
                  where(kind, 4, "coefficients") + "[" + num(i) + "] at offset " + num(off) + ": " + what);
    };
    if (k.matrix > 1) return bad("matrix " + num(k.matrix) + " (only 0 = A and 1 = B)");
    if (k.constraint >= n) return bad("constraint " + num(k.constraint) + " >= domainSize " + num(n));
    if (k.signal >= nv) return bad("signal " + num(k.signal) + " >= nVars " + num(nv));
    if (!ff::less_than(raw, fr::modulus)) return bad("value >= r");
    k.value = fr::from_montgomery_repr(fr::from_montgomery_repr(raw).to_canonical());
  }

  // Points. IC: always subgroup-checked (the verifier relies on it).
  if (error e = decode_points<g1_affine, lem_g1_bytes>(bytes, s[3], np1, out.ic, ec::subgroup_check::verify, ex, "IC");
      !e.ok())
    return e;
  const auto chk = opt.bulk_subgroup;
  if (error e = decode_points<g1_affine, lem_g1_bytes>(bytes, s[5], nv, out.a, chk, ex, "A"); !e.ok()) return e;
  if (error e = decode_points<g1_affine, lem_g1_bytes>(bytes, s[6], nv, out.b_g1, chk, ex, "B1"); !e.ok()) return e;
  if (error e = decode_points<g2_affine, lem_g2_bytes>(bytes, s[7], nv, out.b_g2, chk, ex, "B2"); !e.ok()) return e;
  if (error e = decode_points<g1_affine, lem_g1_bytes>(bytes, s[8], nv - np1, out.c, chk, ex, "C"); !e.ok()) return e;
  if (error e = decode_points<g1_affine, lem_g1_bytes>(bytes, s[9], n, out.h, chk, ex, "H"); !e.ok()) return e;
  return {};
}

namespace {
error open_file(const std::string& path, const char* kind, mapped_file& m) {
  read_error re = mapped_file::open(path, m);
  if (!re.ok()) return fail(errc::io, std::string(kind) + " file " + path + ": " + re.message());
  return {};
}
error prefix(error e, const std::string& path) {
  if (!e.ok()) e.detail = path + ": " + e.detail;
  return e;
}
}  // namespace

error read_zkey_file(const std::string& path, zkey& out, base::executor& ex, const read_options& opt) {
  mapped_file m;
  if (error e = open_file(path, "zkey", m); !e.ok()) return e;
  return prefix(read_zkey(m.bytes(), out, ex, opt), path);
}

// --- .wtns -------------------------------------------------------------------------------------

error read_wtns(std::span<const uint8_t> bytes, std::vector<fr>& out) {
  constexpr const char* kind = "wtns";
  std::vector<section_ref> secs;
  if (error e = scan_container(bytes, kind, 2, secs); !e.ok()) return e;
  section_ref s1, s2;
  if (error e = find_section(secs, 1, kind, "header", s1); !e.ok()) return e;
  if (error e = find_section(secs, 2, kind, "values", s2); !e.ok()) return e;
  const uint8_t* h = bytes.data() + s1.offset;
  if (s1.size < 4 || le32(h) != 32)
    return fail(errc::unsupported, where(kind, 1, "header") + ": field is not 32 bytes (not BLS12-381's r)");
  if (error e = expect_size(s1, 4 + 32 + 4, kind, "header", "n8, prime, nWitness"); !e.ok()) return e;
  if (!is_modulus<4>(h + 4, fr::modulus))
    return fail(errc::unsupported, where(kind, 1, "header") + ": prime is not BLS12-381's r");
  const uint64_t count = le32(h + 36);
  if (error e = expect_size(s2, count * 32, kind, "values", num(count) + " values of 32 bytes"); !e.ok()) return e;
  std::vector<fr> w(count);
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t off = s2.offset + 32 * i;
    if (!fr::from_bytes_le(bytes.data() + off, w[i]))
      return fail(errc::bad_value, where(kind, 2, "values") + "[" + num(i) + "] at offset " + num(off) + ": value >= r");
  }
  out = std::move(w);
  return {};
}

error read_wtns_file(const std::string& path, std::vector<fr>& out) {
  mapped_file m;
  if (error e = open_file(path, "wtns", m); !e.ok()) return e;
  return prefix(read_wtns(m.bytes(), out), path);
}

// --- .r1cs -------------------------------------------------------------------------------------

error read_r1cs(std::span<const uint8_t> bytes, r1cs& out) {
  constexpr const char* kind = "r1cs";
  std::vector<section_ref> secs;
  if (error e = scan_container(bytes, kind, 1, secs); !e.ok()) return e;
  section_ref s1, s2;
  if (error e = find_section(secs, 1, kind, "header", s1); !e.ok()) return e;
  if (error e = find_section(secs, 2, kind, "constraints", s2); !e.ok()) return e;
  const uint8_t* h = bytes.data() + s1.offset;
  if (s1.size < 4 || le32(h) != 32)
    return fail(errc::unsupported, where(kind, 1, "header") + ": field is not 32 bytes (not BLS12-381's r)");
  if (error e = expect_size(s1, 4 + 32 + 4 * 4 + 8 + 4, kind, "header", "BLS12-381 r1cs header"); !e.ok()) return e;
  if (!is_modulus<4>(h + 4, fr::modulus))
    return fail(errc::unsupported, where(kind, 1, "header") + ": prime is not BLS12-381's r");
  r1cs cs;
  cs.n_wires = le32(h + 36);
  cs.n_pub_out = le32(h + 40);
  cs.n_pub_in = le32(h + 44);
  cs.n_prv_in = le32(h + 48);
  cs.n_labels = le64(h + 52);
  const uint64_t n_cons = le32(h + 60);
  // Each constraint needs at least 12 bytes (three empty combinations).
  if (n_cons > s2.size / 12)
    return fail(errc::wrong_size, where(kind, 2, "constraints") + ": " + num(n_cons) + " constraints cannot fit in " +
                                      num(s2.size) + " bytes");
  cs.constraints.resize(n_cons);
  uint64_t at = s2.offset;
  const uint64_t end = s2.offset + s2.size;
  for (uint64_t i = 0; i < n_cons; ++i) {
    std::vector<r1cs_term>* lcs[3] = {&cs.constraints[i].a, &cs.constraints[i].b, &cs.constraints[i].c};
    for (auto* lc : lcs) {
      auto bad = [&](errc c, const std::string& what) {
        return fail(c, where(kind, 2, "constraints") + "[" + num(i) + "] at offset " + num(at) + ": " + what);
      };
      if (end - at < 4) return bad(errc::truncated, "section ends inside the constraint");
      const uint64_t nt = le32(bytes.data() + at);
      at += 4;
      if (nt > (end - at) / 36) return bad(errc::truncated, num(nt) + " terms run past the section end");
      lc->resize(nt);
      for (uint64_t t = 0; t < nt; ++t, at += 36) {
        (*lc)[t].wire = le32(bytes.data() + at);
        if ((*lc)[t].wire >= cs.n_wires) return bad(errc::bad_value, "wire " + num((*lc)[t].wire) + " >= nWires");
        if (!fr::from_bytes_le(bytes.data() + at + 4, (*lc)[t].coeff)) return bad(errc::bad_value, "coefficient >= r");
      }
    }
  }
  if (at != end)
    return fail(errc::wrong_size, where(kind, 2, "constraints") + ": " + num(end - at) + " bytes after the last constraint");
  out = std::move(cs);
  return {};
}

error read_r1cs_file(const std::string& path, r1cs& out) {
  mapped_file m;
  if (error e = open_file(path, "r1cs", m); !e.ok()) return e;
  return prefix(read_r1cs(m.bytes(), out), path);
}

int64_t first_unsatisfied(const r1cs& cs, std::span<const fr> w) {
  auto eval = [&](const std::vector<r1cs_term>& lc) {
    fr acc = fr::zero();
    for (const auto& t : lc) acc += t.coeff * (t.wire < w.size() ? w[t.wire] : fr::zero());
    return acc;
  };
  for (std::size_t i = 0; i < cs.constraints.size(); ++i) {
    const auto& c = cs.constraints[i];
    if (eval(c.a) * eval(c.b) != eval(c.c)) return static_cast<int64_t>(i);
  }
  return -1;
}

}  // namespace cuzk::groth16::snarkjs
