// The C++ side of the live @noble/curves cross-check (crosscheck.mjs drives it; the protocol is
// in README.md beside this file). Reads one request per line on stdin, answers one line each on
// stdout, in order. Hex is lowercase without 0x; scalars are 32-byte big-endian.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "ec/point.hpp"
#include "pairing/pairing.hpp"

namespace {

using namespace cuzk;
using ec::g1_affine;
using ec::g2_affine;
using ff::fp;
using ff::fp2;
using ff::fr;

bool from_hex(const std::string& s, std::vector<uint8_t>& out) {
  if (s.size() % 2) return false;
  out.assign(s.size() / 2, 0);
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (v < 0) return false;
    out[i / 2] = static_cast<uint8_t>(out[i / 2] | (v << (i % 2 ? 0 : 4)));
  }
  return true;
}

std::string to_hex(const uint8_t* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

// Reads a canonical big-endian field element; throws on malformed input.
template <class F>
F read_field(const std::string& hex) {
  std::vector<uint8_t> b;
  F x;
  if (!from_hex(hex, b) || b.size() != F::bytes || !F::from_bytes_be(b.data(), x))
    throw std::runtime_error("bad field element " + hex);
  return x;
}

template <class F>
std::string field_hex(const F& x) {
  uint8_t b[F::bytes];
  x.to_bytes_be(b);
  return to_hex(b, F::bytes);
}

std::string encode(const g1_affine& p) {
  uint8_t c[ec::g1_compressed_bytes], u[ec::g1_uncompressed_bytes];
  ec::encode_g1_compressed(p, c);
  ec::encode_g1_uncompressed(p, u);
  return to_hex(c, sizeof c) + " " + to_hex(u, sizeof u);
}

std::string encode(const g2_affine& p) {
  uint8_t c[ec::g2_compressed_bytes], u[ec::g2_uncompressed_bytes];
  ec::encode_g2_compressed(p, c);
  ec::encode_g2_uncompressed(p, u);
  return to_hex(c, sizeof c) + " " + to_hex(u, sizeof u);
}

template <class Affine>
Affine multiply(const Affine& p, const fr& k) {
  using jac = ec::jacobian_point<typename Affine::curve>;
  return ec::scalar_mul(jac::from_affine(p), k).to_affine();
}

template <class Affine>
Affine decode_compressed(const std::string& hex) {
  std::vector<uint8_t> b;
  Affine p;
  if (!from_hex(hex, b)) throw std::runtime_error("bad hex");
  ec::decode_error e;
  if constexpr (std::is_same_v<Affine, g1_affine>) e = ec::decode_g1(b, p);
  else e = ec::decode_g2(b, p);
  if (e != ec::decode_error::ok) throw std::runtime_error(ec::to_string(e));
  return p;
}

std::string answer(const std::string& line) {
  std::istringstream in(line);
  std::string op, a, b, c, d;
  in >> op >> a >> b >> c >> d;
  if (op == "g1mul") return encode(multiply(g1_affine::generator(), read_field<fr>(a)));
  if (op == "g2mul") return encode(multiply(g2_affine::generator(), read_field<fr>(a)));
  if (op == "g1mulp") return encode(multiply(decode_compressed<g1_affine>(a), read_field<fr>(b)));
  if (op == "g2mulp") return encode(multiply(decode_compressed<g2_affine>(a), read_field<fr>(b)));
  if (op == "pair") {
    g1_affine p = multiply(g1_affine::generator(), read_field<fr>(a));
    g2_affine q = multiply(g2_affine::generator(), read_field<fr>(b));
    uint8_t out[576];
    pairing::pairing(p, q).to_bytes_be(out);
    return to_hex(out, sizeof out);
  }
  if (op == "fpmul") return field_hex(read_field<fp>(a) * read_field<fp>(b));
  if (op == "fpinv") return field_hex(read_field<fp>(a).inverse());
  if (op == "frmul") return field_hex(read_field<fr>(a) * read_field<fr>(b));
  if (op == "fp2mul") {
    fp2 x{read_field<fp>(a), read_field<fp>(b)}, y{read_field<fp>(c), read_field<fp>(d)};
    fp2 z = x * y;
    return field_hex(z.c0) + " " + field_hex(z.c1);
  }
  if (op == "g1dec") {
    std::vector<uint8_t> bytes;
    g1_affine p;
    if (!from_hex(a, bytes)) return "err bad-hex";
    ec::decode_error e = ec::decode_g1(bytes, p);
    if (e != ec::decode_error::ok) return std::string("err ") + ec::to_string(e);
    uint8_t u[ec::g1_uncompressed_bytes];
    ec::encode_g1_uncompressed(p, u);
    return "ok " + to_hex(u, sizeof u);
  }
  throw std::runtime_error("unknown request '" + op + "'");
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    try {
      std::cout << answer(line) << '\n';
    } catch (const std::exception& e) {
      // A request we cannot answer is a failure of the cross-check, not a line to skip.
      std::cerr << "crosscheck_tool: " << e.what() << " in: " << line << '\n';
      return 2;
    }
  }
  return 0;
}
