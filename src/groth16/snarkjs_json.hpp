// snarkjs's JSON files for Groth16 on BLS12-381 (shared/notes/snarkjs-formats.md §2.4):
//
//   proof.json   {"pi_a": G1, "pi_b": G2, "pi_c": G1, "protocol": "groth16", "curve": "bls12381"}
//   public.json  ["w1", ..., "w_nPublic"]
//   verification_key.json  {"protocol", "curve", "nPublic", "vk_alpha_1": G1, "vk_beta_2",
//                "vk_gamma_2", "vk_delta_2": G2, "vk_alphabeta_12": GT, "IC": [G1 x nPublic+1]}
//
// Numbers are decimal strings of standard-form values ("0x..." hex is accepted on input, as
// ffjavascript's unstringifyBigInts does). G1 = [x, y, z], G2 = [[x.c0, x.c1], [y.c0, y.c1],
// [z.c0, z.c1]]; we always write affine (z = 1) and infinity as ["0", "1", "0"]; on input z = 0
// is infinity, z = 1 affine and any other z Jacobian (x = X/Z^2, y = Y/Z^3), as ffjavascript
// reads it. Output is formatted as JSON.stringify(value, null, 1), snarkjs's own layout.
//
// The readers separate two kinds of failure:
//   errc::bad_value  the text is not such a file (JSON syntax, a missing or mistyped field, a
//                    number that is not a decimal/hex integer, a coordinate >= q, any problem
//                    with a verification key's points);
//   errc::bad_point  a well-formed proof whose points are not valid group elements (off the
//                    curve, outside the subgroup, or at infinity) or whose public inputs are
//                    >= r: the proof is invalid (snarkjs's verify answers false for both).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ff/fp12.hpp"
#include "groth16/proof.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/verifying_key.hpp"

namespace cuzk::groth16::snarkjs {

// --- a minimal JSON value (enough for these files; objects keep their key order) ---------------
struct json {
  enum class kind : uint8_t { null, boolean, number, string, array, object } k = kind::null;
  bool b = false;
  std::string text;  // number (as written) or string (unescaped)
  std::vector<json> items;                            // array
  std::vector<std::pair<std::string, json>> members;  // object, in order

  static json str(std::string s) {
    json j;
    j.k = kind::string;
    j.text = std::move(s);
    return j;
  }
  static json number(uint64_t v) {
    json j;
    j.k = kind::number;
    j.text = std::to_string(v);
    return j;
  }
  static json array(std::vector<json> v = {}) {
    json j;
    j.k = kind::array;
    j.items = std::move(v);
    return j;
  }
  static json object() {
    json j;
    j.k = kind::object;
    return j;
  }
  json& add(std::string key, json v) {
    members.emplace_back(std::move(key), std::move(v));
    return *this;
  }
  const json* find(std::string_view key) const;
};

// Parses a whole document (trailing whitespace only) with simdjson. Depth is limited to 64 and
// size to 256 MiB; a bare (unquoted) integer must fit 64 bits -- field elements are strings.
error parse_json(std::string_view text, json& out);
// JSON.stringify(v, null, 1).
std::string stringify(const json& v);

// --- numbers -----------------------------------------------------------------------------------
// Decimal digits or "0x" hex; false if empty, malformed or >= 2^(64N).
template <std::size_t N>
bool parse_uint(std::string_view s, ff::bigint<N>& out);
template <std::size_t N>
std::string to_decimal(const ff::bigint<N>& v);
inline std::string to_decimal(const fr& v) { return to_decimal(v.to_canonical()); }
inline std::string to_decimal(const ff::fp& v) { return to_decimal(v.to_canonical()); }

// --- points ------------------------------------------------------------------------------------
json g1_to_json(const g1_affine& p);
json g2_to_json(const g2_affine& p);
json gt_to_json(const ff::fp12& v);
// Reads [x, y, z] / [[..],[..],[..]]; coordinates must be < q (bad_value otherwise); on-curve is
// checked (bad_point), the subgroup when check == verify (bad_point).
error g1_from_json(const json& j, g1_affine& out, ec::subgroup_check check, const std::string& what);
error g2_from_json(const json& j, g2_affine& out, ec::subgroup_check check, const std::string& what);

// --- files -------------------------------------------------------------------------------------
std::string write_proof_json(const proof& p);
std::string write_public_json(std::span<const fr> public_signals);
// From a zkey's header and IC; vk_alphabeta_12 = e(alpha_1, beta_2) with our pairing (which is
// the optimal ate pairing of blst/bellperson; snarkjs's own value may be a different power --
// groth16 verify does not read it).
std::string write_vkey_json(const zkey& z);

// Proof points: any point problem (off curve, not in subgroup, infinity) is bad_point.
error read_proof_json(std::string_view text, proof& out);
// public.json values must be integers; values >= r are reported as errc::bad_point (the proof
// is invalid for them, as snarkjs's verify says), anything else malformed as bad_value.
error read_public_json(std::string_view text, std::vector<fr>& out);
// Fills alpha_g1, beta_g2, gamma_g2, delta_g2 and ic (beta_g1 and delta_g1, absent from the
// file, are set to the identity; the verifier does not use them). Points are checked on-curve,
// in the subgroup and not at infinity; any problem is bad_value (a malformed key). Checks
// protocol == "groth16", a BLS12-381 curve name and nPublic + 1 == IC length.
error read_vkey_json(std::string_view text, verifying_key& out, uint32_t& n_public);

// Whole-file helpers (io errors as errc::io).
error read_text_file(const std::string& path, std::string& out);
error write_text_file(const std::string& path, std::string_view text);

}  // namespace cuzk::groth16::snarkjs
