// Tiny readers for the shared fixture files (tests only): whole-file reads and a minimal
// extractor for the flat JSON fields of derived_test_vectors.json (no JSON library needed).
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gadgets/native/poseidon_params.hpp"

namespace cuzk::test {

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return {};
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string filecoin_fixture(const std::string& rel) {
  return std::string(CUZK_FIXTURES_DIR) + "/filecoin/" + rel;
}

// The string value of the first `"key": "..."` at or after `from`; advances `from` past it.
inline std::string json_string_after(const std::string& text, const std::string& key, std::size_t& from) {
  const std::string pat = "\"" + key + "\": \"";
  const std::size_t k = text.find(pat, from);
  if (k == std::string::npos) return {};
  const std::size_t b = k + pat.size();
  const std::size_t e = text.find('"', b);
  from = e + 1;
  return text.substr(b, e - b);
}

// Every quoted 64-hex-digit string in text[from, to).
inline std::vector<std::string> hex64_strings(const std::string& text, std::size_t from, std::size_t to) {
  std::vector<std::string> out;
  for (std::size_t i = text.find('"', from); i != std::string::npos && i < to; i = text.find('"', i + 1)) {
    if (i + 65 < text.size() && text[i + 65] == '"' &&
        text.find_first_not_of("0123456789abcdef", i + 1) == i + 65) {
      out.push_back(text.substr(i + 1, 64));
      i += 65;
    }
  }
  return out;
}

inline std::vector<uint8_t> unhex(const std::string& h) {
  std::vector<uint8_t> out(h.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(std::stoul(h.substr(2 * i, 2), nullptr, 16));
  return out;
}

inline std::string to_hex(const uint8_t* p, std::size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

// Fr from 32-byte little-endian hex (the blstrs repr); asserts canonical.
inline cuzk::ff::fr fr_from_le_hex(const std::string& h) {
  const std::vector<uint8_t> b = unhex(h);
  cuzk::ff::fr f;
  if (b.size() != 32 || !cuzk::ff::fr::from_bytes_le(b.data(), f)) throw std::runtime_error("bad Fr hex " + h);
  return f;
}

inline std::string fr_to_le_hex(const cuzk::ff::fr& f) {
  uint8_t b[32];
  f.to_bytes_le(b);
  return to_hex(b, 32);
}

}  // namespace cuzk::test
