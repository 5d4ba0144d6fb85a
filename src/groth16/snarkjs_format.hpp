// Readers for snarkjs's binary files on BLS12-381 (shared/notes/snarkjs-formats.md §2):
//
//   container ("binfileutils"): 4-byte magic, u32 version, u32 nSections, then nSections times
//     u32 id, u64 size, size bytes. All integers little-endian; sections in any order.
//   .zkey (Groth16, version 1): sections 1 protocol, 2 header, 3 IC, 4 A/B coefficients, 5 A,
//     6 B1, 7 B2, 8 C, 9 H (odd-coset Lagrange basis), 10 MPC contributions (ignored).
//   .wtns (version 2): section 1 header (n8, prime, nWitness), 2 values (LE, standard form).
//   .r1cs (version 1): section 1 header, 2 constraints (3 = wire labels, ignored).
//
// Points are "LEM": affine, each Fp coordinate 48 bytes little-endian in Montgomery form with
// R = 2^384 -- the same R as ff::fp, so the bytes are our Montgomery representation as they are.
// G2 = x.c0 | x.c1 | y.c0 | y.c1. All-zero bytes = the point at infinity (snarkjs writes it for
// wires that never appear in A or B).
//
// Every reader validates the whole structure before it decodes anything: the section table
// against the file size, required sections present exactly once, every section size against the
// header's counts, then each element (coordinates < q, on the curve, optionally in the
// subgroup; field elements < r; coefficient indices in range). Failures are one error value
// naming the file kind, section, element and byte offset; nothing is read out of bounds and no
// allocation is sized from an unchecked count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/executor.hpp"
#include "ec/curves.hpp"
#include "ec/encoding.hpp"

namespace cuzk::groth16::snarkjs {

using ec::g1_affine;
using ec::g2_affine;
using ff::fr;

enum class errc : uint8_t {
  ok = 0,
  io,                 // open / stat / mmap failed
  bad_magic,          // not the expected 4-byte magic
  bad_version,        // container version we do not read
  truncated,          // the file ends inside a fixed-size field or a section
  duplicate_section,  // a required section appears twice
  missing_section,    // a required section is absent
  wrong_size,         // a section's size disagrees with the counts in the header
  unsupported,        // valid for snarkjs but not for us (not Groth16, not BLS12-381, domain > 2^31)
  bad_value,          // a field element >= its modulus, an index out of range, a bad count
  bad_point,          // a coordinate >= q, a point off the curve or outside the subgroup
  mismatch,           // two inputs disagree (witness length vs zkey, prime vs prime)
};
const char* to_string(errc c);

struct error {
  errc code = errc::ok;
  std::string detail;  // one line: "<file kind> section N (<name>)[i] at offset X: what"
  bool ok() const { return code == errc::ok; }
  std::string message() const { return ok() ? std::string("ok") : detail; }
};

// --- container -----------------------------------------------------------------------------------
struct section_ref {
  uint32_t id = 0;
  uint64_t offset = 0;  // of the payload
  uint64_t size = 0;
};

// Scans magic, version and the section table; every section is checked to lie inside bytes.
// kind is the magic ("zkey", "wtns", "r1cs"); versions other than `version` are rejected.
error scan_container(std::span<const uint8_t> bytes, const char* kind, uint32_t version,
                     std::vector<section_ref>& out);

// --- .zkey -------------------------------------------------------------------------------------
struct zkey_coefficient {
  uint32_t matrix;      // 0 = A, 1 = B
  uint32_t constraint;  // row: < domain_size
  uint32_t signal;      // column: < n_vars
  fr value;             // the coefficient (section 4 stores value * 2^512 mod r; converted)
};

struct zkey {
  uint32_t n_vars = 0;       // witness length, wire 0 = ONE included
  uint32_t n_public = 0;     // public signals (outputs then inputs), ONE excluded
  uint32_t domain_size = 0;  // n = 2^k >= constraints + n_public + 1
  g1_affine alpha_g1, beta_g1, delta_g1;
  g2_affine beta_g2, gamma_g2, delta_g2;
  std::vector<g1_affine> ic;               // n_public + 1
  std::vector<zkey_coefficient> coeffs;    // section 4, file order
  std::vector<g1_affine> a, b_g1;          // n_vars each
  std::vector<g2_affine> b_g2;             // n_vars
  std::vector<g1_affine> c;                // n_vars - n_public - 1 (private wires)
  std::vector<g1_affine> h;                // domain_size: L^{2n}_{2i+1}(tau) / delta

  unsigned log_domain_size() const;
};

struct read_options {
  // Subgroup checks on the header points (alpha, beta, gamma, delta) and IC are always made;
  // on the bulk query vectors (A, B1, B2, C, H) only when this is verify (it costs more than
  // the proof itself for small keys; on-curve is always checked).
  ec::subgroup_check bulk_subgroup = ec::subgroup_check::skip;
};

// Parses a whole .zkey held in memory; ex splits the point decoding. out is unspecified on error.
error read_zkey(std::span<const uint8_t> bytes, zkey& out, base::executor& ex, const read_options& opt = {});
error read_zkey_file(const std::string& path, zkey& out, base::executor& ex, const read_options& opt = {});

// --- .wtns -------------------------------------------------------------------------------------
// The witness values in wire order (w[0] must be 1 for a circom witness; not checked here).
error read_wtns(std::span<const uint8_t> bytes, std::vector<fr>& out);
error read_wtns_file(const std::string& path, std::vector<fr>& out);

// --- .r1cs -------------------------------------------------------------------------------------
struct r1cs_term {
  uint32_t wire;
  fr coeff;
};
struct r1cs_constraint {
  std::vector<r1cs_term> a, b, c;
};
struct r1cs {
  uint32_t n_wires = 0, n_pub_out = 0, n_pub_in = 0, n_prv_in = 0;
  uint64_t n_labels = 0;
  std::vector<r1cs_constraint> constraints;
  uint32_t n_public() const { return n_pub_out + n_pub_in; }
};
error read_r1cs(std::span<const uint8_t> bytes, r1cs& out);
error read_r1cs_file(const std::string& path, r1cs& out);
// <A_i,w> <B_i,w> == <C_i,w> for every constraint; returns the first failing index or -1.
int64_t first_unsatisfied(const r1cs& cs, std::span<const fr> w);

// --- element codecs (exposed for tests and the JSON layer) ---------------------------------------
inline constexpr std::size_t lem_g1_bytes = 96;
inline constexpr std::size_t lem_g2_bytes = 192;
// Returns ec::decode_error::ok, coordinate_not_canonical, not_on_curve or not_in_subgroup.
ec::decode_error decode_lem_g1(const uint8_t* in, g1_affine& out, ec::subgroup_check check);
ec::decode_error decode_lem_g2(const uint8_t* in, g2_affine& out, ec::subgroup_check check);
void encode_lem_g1(const g1_affine& p, uint8_t* out);
void encode_lem_g2(const g2_affine& p, uint8_t* out);

}  // namespace cuzk::groth16::snarkjs
