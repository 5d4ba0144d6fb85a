// Helpers for the groth16 tests: random group points (in and out of the subgroup), toy
// statements with a known trapdoor (valid proofs without a circuit), hex/decimal parsing, temp
// files, and a minimal JSON reader for the fixture files.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ec/point.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"
#include "groth16/verifying_key.hpp"

namespace cuzk::groth16::test {

using ec::fp;
using ec::fp2;
using ff::fr;

// --- points ------------------------------------------------------------------------------------
template <class Curve, class Rng>
ec::affine_point<Curve> random_subgroup_point(Rng& rng) {
  return ec::scalar_mul(ec::jacobian_point<Curve>::generator(), fr::random(rng)).to_affine();
}

template <class Curve, class Rng>
std::vector<ec::affine_point<Curve>> random_subgroup_points(Rng& rng, std::size_t n) {
  std::vector<ec::jacobian_point<Curve>> j(n);
  for (auto& p : j) p = ec::scalar_mul(ec::jacobian_point<Curve>::generator(), fr::random(rng));
  std::vector<ec::affine_point<Curve>> out(n);
  ec::batch_to_affine(std::span<const ec::jacobian_point<Curve>>(j), std::span<ec::affine_point<Curve>>(out));
  return out;
}

// On the curve, not in the subgroup (with probability 1 - 1/cofactor).
template <class Curve, class Rng>
ec::affine_point<Curve> random_curve_point(Rng& rng) {
  using field = typename Curve::field;
  for (;;) {
    field x = field::random(rng);
    field y;
    if ((x.square() * x + Curve::b).sqrt(y)) return {x, (rng() & 1) ? -y : y, false};
  }
}

inline g1_affine g1_mul(const fr& k) { return ec::scalar_mul(ec::g1_jacobian::generator(), k).to_affine(); }
inline g2_affine g2_mul(const fr& k) { return ec::scalar_mul(ec::g2_jacobian::generator(), k).to_affine(); }

// --- toy statements ----------------------------------------------------------------------------
// A verifying key with known discrete logs, and proofs that satisfy the verification equation
// (a * b = alpha * beta + ic(x) * gamma + c * delta in the exponent), for n public inputs.
struct toy_key {
  fr alpha, beta, gamma, delta;
  std::vector<fr> ic;  // logs of vk.ic
  verifying_key vk;
};

template <class Rng>
toy_key make_toy_key(Rng& rng, std::size_t n_inputs) {
  toy_key t;
  t.alpha = fr::random(rng);
  t.beta = fr::random(rng);
  t.gamma = fr::random(rng);
  t.delta = fr::random(rng);
  t.vk.alpha_g1 = g1_mul(t.alpha);
  t.vk.beta_g1 = g1_mul(t.beta);
  t.vk.beta_g2 = g2_mul(t.beta);
  t.vk.gamma_g2 = g2_mul(t.gamma);
  t.vk.delta_g1 = g1_mul(t.delta);
  t.vk.delta_g2 = g2_mul(t.delta);
  for (std::size_t i = 0; i <= n_inputs; ++i) {
    t.ic.push_back(fr::random(rng));
    t.vk.ic.push_back(g1_mul(t.ic.back()));
  }
  return t;
}

template <class Rng>
proof make_toy_proof(Rng& rng, const toy_key& t, std::span<const fr> inputs) {
  fr a = fr::random(rng), b = fr::random(rng);
  fr ic = t.ic[0];
  for (std::size_t i = 0; i < inputs.size(); ++i) ic += inputs[i] * t.ic[i + 1];
  fr c = (a * b - t.alpha * t.beta - ic * t.gamma) * t.delta.inverse();
  return {g1_mul(a), g2_mul(b), g1_mul(c)};
}

// --- parsing -----------------------------------------------------------------------------------
inline std::vector<uint8_t> from_hex(std::string_view s) {
  if (s.size() % 2) throw std::invalid_argument("odd hex length");
  auto nib = [](char c) -> uint8_t {
    if (c >= '0' && c <= '9') return static_cast<uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<uint8_t>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<uint8_t>(c - 'A' + 10);
    throw std::invalid_argument("bad hex digit");
  };
  std::vector<uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(nib(s[2 * i]) << 4 | nib(s[2 * i + 1]));
  return out;
}

// A decimal integer (assumed < r) as an Fr element.
inline fr fr_from_decimal(std::string_view s) {
  fr acc = fr::zero(), ten = fr::from_u64(10);
  for (char c : s) {
    if (c < '0' || c > '9') throw std::invalid_argument("bad decimal digit");
    acc = acc * ten + fr::from_u64(static_cast<uint64_t>(c - '0'));
  }
  return acc;
}

// Minimal JSON: objects, arrays, strings without escapes other than \" and \\, true/false/null,
// numbers kept as text. Enough for the fixture files.
struct json {
  enum class kind { null, boolean, number, string, array, object } k = kind::null;
  bool b = false;
  std::string s;  // string or number text
  std::vector<json> items;
  std::map<std::string, json> fields;

  const json& operator[](const std::string& key) const {
    auto it = fields.find(key);
    if (it == fields.end()) throw std::out_of_range("json: no field " + key);
    return it->second;
  }
  const json& operator[](std::size_t i) const { return items.at(i); }

  static json parse(std::string_view text) {
    std::size_t pos = 0;
    json v = parse_value(text, pos);
    skip_ws(text, pos);
    if (pos != text.size()) throw std::runtime_error("json: trailing text");
    return v;
  }

 private:
  static void skip_ws(std::string_view t, std::size_t& p) {
    while (p < t.size() && (t[p] == ' ' || t[p] == '\n' || t[p] == '\r' || t[p] == '\t')) ++p;
  }
  static void expect(std::string_view t, std::size_t& p, char c) {
    skip_ws(t, p);
    if (p >= t.size() || t[p] != c) throw std::runtime_error(std::string("json: expected ") + c);
    ++p;
  }
  static std::string parse_string(std::string_view t, std::size_t& p) {
    expect(t, p, '"');
    std::string out;
    while (p < t.size() && t[p] != '"') {
      if (t[p] == '\\') ++p;
      if (p < t.size()) out += t[p++];
    }
    expect(t, p, '"');
    return out;
  }
  static json parse_value(std::string_view t, std::size_t& p) {
    skip_ws(t, p);
    if (p >= t.size()) throw std::runtime_error("json: unexpected end");
    json v;
    const char c = t[p];
    if (c == '{') {
      v.k = kind::object;
      ++p;
      skip_ws(t, p);
      if (p < t.size() && t[p] == '}') return ++p, v;
      for (;;) {
        std::string key = parse_string(t, p);
        expect(t, p, ':');
        v.fields[key] = parse_value(t, p);
        skip_ws(t, p);
        if (p < t.size() && t[p] == ',') { ++p; continue; }
        expect(t, p, '}');
        return v;
      }
    }
    if (c == '[') {
      v.k = kind::array;
      ++p;
      skip_ws(t, p);
      if (p < t.size() && t[p] == ']') return ++p, v;
      for (;;) {
        v.items.push_back(parse_value(t, p));
        skip_ws(t, p);
        if (p < t.size() && t[p] == ',') { ++p; continue; }
        expect(t, p, ']');
        return v;
      }
    }
    if (c == '"') {
      v.k = kind::string;
      v.s = parse_string(t, p);
      return v;
    }
    if (t.substr(p, 4) == "true") return p += 4, v.k = kind::boolean, v.b = true, v;
    if (t.substr(p, 5) == "false") return p += 5, v.k = kind::boolean, v;
    if (t.substr(p, 4) == "null") return p += 4, v;
    v.k = kind::number;
    while (p < t.size() && (std::isdigit(static_cast<unsigned char>(t[p])) || t[p] == '-' || t[p] == '+' ||
                            t[p] == '.' || t[p] == 'e' || t[p] == 'E'))
      v.s += t[p++];
    if (v.s.empty()) throw std::runtime_error("json: bad value");
    return v;
  }
};

inline std::string read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// --- temp files --------------------------------------------------------------------------------
// A file path unique to this process and name, removed on destruction.
struct temp_path {
  std::string path;
  explicit temp_path(const std::string& name)
      : path((std::filesystem::temp_directory_path() /
              ("cuzk_groth16_" + std::to_string(::getpid()) + "_" + name))
                 .string()) {}
  ~temp_path() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  temp_path(const temp_path&) = delete;
  temp_path& operator=(const temp_path&) = delete;
};

}  // namespace cuzk::groth16::test
