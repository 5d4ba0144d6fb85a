#include "groth16/snarkjs_json.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <simdjson.h>

#include "ec/point.hpp"
#include "ec/subgroup.hpp"
#include "ff/bls12_381.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16::snarkjs {

using ff::fp;
using ff::fp2;

namespace {

error fail(errc c, std::string d) { return error{c, std::move(d)}; }

// --- parser ------------------------------------------------------------------------------------
// JSON syntax is simdjson's (Debian's libsimdjson-dev): one maintained, fuzzed parser for every
// JSON file the project reads, instead of a hand-written one per format. Its DOM is copied into
// `json` (small files; the copy costs far less than the point checks that follow). Numbers come
// back as simdjson parsed them, so an unquoted integer must fit 64 bits (snarkjs quotes every
// field element; ffjavascript could not read a longer bare number exactly either).
constexpr std::size_t max_json_depth = 64;
constexpr std::size_t max_json_bytes = std::size_t{256} << 20;  // far above any vkey/proof/public

json from_dom(simdjson::dom::element e) {
  json out;
  switch (e.type()) {
    case simdjson::dom::element_type::OBJECT: {
      out.k = json::kind::object;
      const simdjson::dom::object members = e.get_object().value_unsafe();
      for (auto [key, v] : members) out.members.emplace_back(std::string(key), from_dom(v));
      break;
    }
    case simdjson::dom::element_type::ARRAY: {
      out.k = json::kind::array;
      const simdjson::dom::array items = e.get_array().value_unsafe();
      for (auto v : items) out.items.push_back(from_dom(v));
      break;
    }
    case simdjson::dom::element_type::STRING: out = json::str(std::string(e.get_string().value_unsafe())); break;
    case simdjson::dom::element_type::INT64:
      out.k = json::kind::number;
      out.text = std::to_string(e.get_int64().value_unsafe());
      break;
    case simdjson::dom::element_type::UINT64: out = json::number(e.get_uint64().value_unsafe()); break;
    case simdjson::dom::element_type::DOUBLE: {
      char buf[32];
      const auto r = std::to_chars(buf, buf + sizeof buf, e.get_double().value_unsafe());
      out.k = json::kind::number;
      out.text.assign(buf, r.ptr);
      break;
    }
    case simdjson::dom::element_type::BOOL:
      out.k = json::kind::boolean;
      out.b = e.get_bool().value_unsafe();
      break;
    case simdjson::dom::element_type::NULL_VALUE: break;
  }
  return out;
}

void escape(std::string& out, const std::string& s) {
  out.push_back('"');
  for (const char c : s) {
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out.append(buf);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

void write(std::string& out, const json& v, int depth) {
  auto indent = [&](int d) { out.append(static_cast<std::size_t>(d), ' '); };
  switch (v.k) {
    case json::kind::null: out.append("null"); return;
    case json::kind::boolean: out.append(v.b ? "true" : "false"); return;
    case json::kind::number: out.append(v.text); return;
    case json::kind::string: escape(out, v.text); return;
    case json::kind::array:
      if (v.items.empty()) {
        out.append("[]");
        return;
      }
      out.append("[\n");
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        indent(depth + 1);
        write(out, v.items[i], depth + 1);
        out.append(i + 1 < v.items.size() ? ",\n" : "\n");
      }
      indent(depth);
      out.push_back(']');
      return;
    case json::kind::object:
      if (v.members.empty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      for (std::size_t i = 0; i < v.members.size(); ++i) {
        indent(depth + 1);
        escape(out, v.members[i].first);
        out.append(": ");
        write(out, v.members[i].second, depth + 1);
        out.append(i + 1 < v.members.size() ? ",\n" : "\n");
      }
      indent(depth);
      out.push_back('}');
      return;
  }
}

// A JSON integer as a string or a number token.
template <std::size_t N>
bool json_uint(const json& j, ff::bigint<N>& out) {
  if (j.k != json::kind::string && j.k != json::kind::number) return false;
  return parse_uint<N>(j.text, out);
}

template <class F>
error field_from_json(const json& j, F& out, const std::string& what) {
  typename F::repr x;
  if (!json_uint(j, x)) return fail(errc::bad_value, what + ": not an integer string");
  if (!F::from_canonical_checked(x, out)) return fail(errc::bad_value, what + ": value >= the field modulus");
  return {};
}

error fp2_from_json(const json& j, fp2& out, const std::string& what) {
  if (j.k != json::kind::array || j.items.size() != 2) return fail(errc::bad_value, what + ": expected [c0, c1]");
  if (error e = field_from_json(j.items[0], out.c0, what + "[0]"); !e.ok()) return e;
  return field_from_json(j.items[1], out.c1, what + "[1]");
}

// Projective-to-affine per ffjavascript: z = 0 infinity, z = 1 affine, else Jacobian.
template <class Affine, class Field, class Read>
error point_from_json(const json& j, Affine& out, ec::subgroup_check check, const std::string& what, Read read) {
  if (j.k != json::kind::array || j.items.size() != 3)
    return fail(errc::bad_value, what + ": expected a point [x, y, z]");
  Field x, y, z;
  if (error e = read(j.items[0], x, what + ".x"); !e.ok()) return e;
  if (error e = read(j.items[1], y, what + ".y"); !e.ok()) return e;
  if (error e = read(j.items[2], z, what + ".z"); !e.ok()) return e;
  if (z.is_zero()) {
    out = Affine::identity();
    return {};
  }
  Affine p{x, y, false};
  if (!z.is_one()) {
    const Field zi = z.inverse();
    const Field zi2 = zi * zi;
    p.x = x * zi2;
    p.y = y * zi2 * zi;
  }
  if (!p.is_on_curve()) return fail(errc::bad_point, what + ": point not on the curve");
  if (check == ec::subgroup_check::verify && !ec::is_in_subgroup(p))
    return fail(errc::bad_point, what + ": point not in the prime-order subgroup");
  out = p;
  return {};
}

json fp_json(const fp& v) { return json::str(to_decimal(v)); }
json fp2_json(const fp2& v) { return json::array({fp_json(v.c0), fp_json(v.c1)}); }

std::string curve_key(std::string_view s) {
  std::string k;
  for (const char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) k.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  return k;
}

}  // namespace

const json* json::find(std::string_view key) const {
  for (const auto& [k2, v] : members)
    if (k2 == key) return &v;
  return nullptr;
}

error parse_json(std::string_view text, json& out) {
  if (text.size() > max_json_bytes) return fail(errc::bad_value, "JSON text larger than 256 MiB");
  simdjson::dom::parser p(max_json_bytes);
  simdjson::dom::element root;
  auto err = p.allocate(std::max<std::size_t>(text.size(), 64), max_json_depth);
  const simdjson::padded_string padded(text);
  if (!err) err = p.parse(padded).get(root);
  if (err == simdjson::DEPTH_ERROR) return fail(errc::bad_value, "JSON nesting deeper than 64");
  if (err) return fail(errc::bad_value, std::string("JSON syntax error: ") + simdjson::error_message(err));
  out = from_dom(root);
  return {};
}

std::string stringify(const json& v) {
  std::string out;
  write(out, v, 0);
  return out;
}

template <std::size_t N>
bool parse_uint(std::string_view s, ff::bigint<N>& out) {
  ff::bigint<N> x{};
  if (s.empty()) return false;
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  for (const char c : s) {
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else return false;
    // x = x * base + d, with overflow detection.
    unsigned __int128 carry = d;
    for (std::size_t i = 0; i < N; ++i) {
      const unsigned __int128 t = static_cast<unsigned __int128>(x.w[i]) * base + carry;
      x.w[i] = static_cast<uint64_t>(t);
      carry = t >> 64;
    }
    if (carry) return false;
  }
  out = x;
  return true;
}

template <std::size_t N>
std::string to_decimal(const ff::bigint<N>& v) {
  ff::bigint<N> x = v;
  std::string digits;
  constexpr uint64_t chunk = 10000000000000000000ULL;  // 10^19
  for (;;) {
    bool zero = true;
    unsigned __int128 rem = 0;
    for (std::size_t i = N; i-- > 0;) {
      const unsigned __int128 cur = (rem << 64) | x.w[i];
      x.w[i] = static_cast<uint64_t>(cur / chunk);
      rem = cur % chunk;
      if (x.w[i]) zero = false;
    }
    uint64_t r = static_cast<uint64_t>(rem);
    for (int k = 0; k < 19; ++k) {
      digits.push_back(static_cast<char>('0' + r % 10));
      r /= 10;
      if (zero && r == 0) break;
    }
    if (zero) break;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::reverse(digits.begin(), digits.end());
  return digits;
}

template bool parse_uint<4>(std::string_view, ff::bigint<4>&);
template bool parse_uint<1>(std::string_view, ff::bigint<1>&);
template bool parse_uint<6>(std::string_view, ff::bigint<6>&);
template bool parse_uint<8>(std::string_view, ff::bigint<8>&);
template std::string to_decimal<4>(const ff::bigint<4>&);
template std::string to_decimal<6>(const ff::bigint<6>&);

json g1_to_json(const g1_affine& p) {
  if (p.infinity) return json::array({json::str("0"), json::str("1"), json::str("0")});
  return json::array({fp_json(p.x), fp_json(p.y), json::str("1")});
}

json g2_to_json(const g2_affine& p) {
  if (p.infinity)
    return json::array({fp2_json(fp2::zero()), fp2_json(fp2::one()), fp2_json(fp2::zero())});
  return json::array({fp2_json(p.x), fp2_json(p.y), fp2_json(fp2::one())});
}

json gt_to_json(const ff::fp12& v) {
  auto f6 = [](const ff::fp6& x) { return json::array({fp2_json(x.c0), fp2_json(x.c1), fp2_json(x.c2)}); };
  return json::array({f6(v.c0), f6(v.c1)});
}

error g1_from_json(const json& j, g1_affine& out, ec::subgroup_check check, const std::string& what) {
  return point_from_json<g1_affine, fp>(j, out, check, what, [](const json& x, fp& f, const std::string& w) {
    return field_from_json(x, f, w);
  });
}

error g2_from_json(const json& j, g2_affine& out, ec::subgroup_check check, const std::string& what) {
  return point_from_json<g2_affine, fp2>(j, out, check, what, fp2_from_json);
}

std::string write_proof_json(const proof& p) {
  json j = json::object();
  j.add("pi_a", g1_to_json(p.a));
  j.add("pi_b", g2_to_json(p.b));
  j.add("pi_c", g1_to_json(p.c));
  j.add("protocol", json::str("groth16"));
  j.add("curve", json::str("bls12381"));
  return stringify(j);
}

std::string write_public_json(std::span<const fr> public_signals) {
  json j = json::array();
  for (const fr& v : public_signals) j.items.push_back(json::str(to_decimal(v)));
  return stringify(j);
}

std::string write_vkey_json(const zkey& z) {
  json j = json::object();
  j.add("protocol", json::str("groth16"));
  j.add("curve", json::str("bls12381"));
  j.add("nPublic", json::number(z.n_public));
  j.add("vk_alpha_1", g1_to_json(z.alpha_g1));
  j.add("vk_beta_2", g2_to_json(z.beta_g2));
  j.add("vk_gamma_2", g2_to_json(z.gamma_g2));
  j.add("vk_delta_2", g2_to_json(z.delta_g2));
  j.add("vk_alphabeta_12", gt_to_json(pairing::pairing(z.alpha_g1, z.beta_g2)));
  json ic = json::array();
  for (const auto& p : z.ic) ic.items.push_back(g1_to_json(p));
  j.add("IC", std::move(ic));
  return stringify(j);
}

namespace {
error need(const json& obj, const char* key, const json*& out, const std::string& file) {
  out = obj.find(key);
  if (!out) return fail(errc::bad_value, file + ": missing \"" + key + "\"");
  return {};
}

error check_curve_protocol(const json& doc, const std::string& file) {
  if (const json* p = doc.find("protocol"); p && !(p->k == json::kind::string && p->text == "groth16"))
    return fail(errc::bad_value, file + ": protocol is not \"groth16\"");
  if (const json* c = doc.find("curve")) {
    if (c->k != json::kind::string || curve_key(c->text) != "BLS12381")
      return fail(errc::unsupported, file + ": curve \"" + c->text + "\" is not bls12381");
  }
  return {};
}
}  // namespace

error read_proof_json(std::string_view text, proof& out) {
  json doc;
  if (error e = parse_json(text, doc); !e.ok()) return e;
  const std::string file = "proof";
  if (doc.k != json::kind::object) return fail(errc::bad_value, file + ": not a JSON object");
  if (error e = check_curve_protocol(doc, file); !e.ok()) return e;
  const json *a, *b, *c;
  if (error e = need(doc, "pi_a", a, file); !e.ok()) return e;
  if (error e = need(doc, "pi_b", b, file); !e.ok()) return e;
  if (error e = need(doc, "pi_c", c, file); !e.ok()) return e;
  proof p;
  const auto chk = ec::subgroup_check::verify;
  if (error e = g1_from_json(*a, p.a, chk, "proof pi_a"); !e.ok()) return e;
  if (error e = g2_from_json(*b, p.b, chk, "proof pi_b"); !e.ok()) return e;
  if (error e = g1_from_json(*c, p.c, chk, "proof pi_c"); !e.ok()) return e;
  if (p.a.infinity || p.b.infinity || p.c.infinity)
    return fail(errc::bad_point, "proof: a proof element is the point at infinity");
  out = p;
  return {};
}

error read_public_json(std::string_view text, std::vector<fr>& out) {
  json doc;
  if (error e = parse_json(text, doc); !e.ok()) return e;
  if (doc.k != json::kind::array) return fail(errc::bad_value, "public: not a JSON array");
  std::vector<fr> v(doc.items.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    ff::bigint<4> x;
    const json& it = doc.items[i];
    const std::string what = "public[" + std::to_string(i) + "]";
    if (it.k == json::kind::string || it.k == json::kind::number) {
      if (!parse_uint<4>(it.text, x)) {
        // Distinguish "too large" from "not a number": an integer wider than 256 bits is >= r.
        ff::bigint<8> wide;
        if (parse_uint<8>(it.text, wide)) return fail(errc::bad_point, what + ": value >= r");
        return fail(errc::bad_value, what + ": not an integer string");
      }
    } else {
      return fail(errc::bad_value, what + ": not an integer string");
    }
    if (!fr::from_canonical_checked(x, v[i])) return fail(errc::bad_point, what + ": value >= r");
  }
  out = std::move(v);
  return {};
}

error read_vkey_json(std::string_view text, verifying_key& out, uint32_t& n_public) {
  json doc;
  if (error e = parse_json(text, doc); !e.ok()) return e;
  const std::string file = "verification key";
  if (doc.k != json::kind::object) return fail(errc::bad_value, file + ": not a JSON object");
  if (error e = check_curve_protocol(doc, file); !e.ok()) return e;
  const json *np, *alpha, *beta, *gamma, *delta, *ic;
  if (error e = need(doc, "nPublic", np, file); !e.ok()) return e;
  if (error e = need(doc, "vk_alpha_1", alpha, file); !e.ok()) return e;
  if (error e = need(doc, "vk_beta_2", beta, file); !e.ok()) return e;
  if (error e = need(doc, "vk_gamma_2", gamma, file); !e.ok()) return e;
  if (error e = need(doc, "vk_delta_2", delta, file); !e.ok()) return e;
  if (error e = need(doc, "IC", ic, file); !e.ok()) return e;
  ff::bigint<1> npv;
  if (!json_uint(*np, npv) || npv.w[0] > 0xffffffffULL) return fail(errc::bad_value, file + ": bad nPublic");
  if (ic->k != json::kind::array || ic->items.size() != npv.w[0] + 1)
    return fail(errc::bad_value, file + ": IC must hold nPublic + 1 = " + std::to_string(npv.w[0] + 1) + " points");
  verifying_key vk;
  vk.beta_g1 = g1_affine::identity();
  vk.delta_g1 = g1_affine::identity();
  const auto chk = ec::subgroup_check::verify;
  auto as_format = [](error e) {
    if (e.code == errc::bad_point) e.code = errc::bad_value;
    return e;
  };
  if (error e = g1_from_json(*alpha, vk.alpha_g1, chk, file + " vk_alpha_1"); !e.ok()) return as_format(e);
  if (error e = g2_from_json(*beta, vk.beta_g2, chk, file + " vk_beta_2"); !e.ok()) return as_format(e);
  if (error e = g2_from_json(*gamma, vk.gamma_g2, chk, file + " vk_gamma_2"); !e.ok()) return as_format(e);
  if (error e = g2_from_json(*delta, vk.delta_g2, chk, file + " vk_delta_2"); !e.ok()) return as_format(e);
  if (vk.alpha_g1.infinity || vk.beta_g2.infinity || vk.gamma_g2.infinity || vk.delta_g2.infinity)
    return fail(errc::bad_value, file + ": alpha, beta, gamma or delta is the point at infinity");
  vk.ic.resize(ic->items.size());
  for (std::size_t i = 0; i < vk.ic.size(); ++i)
    if (error e = g1_from_json(ic->items[i], vk.ic[i], chk, file + " IC[" + std::to_string(i) + "]"); !e.ok())
      return as_format(e);
  out = std::move(vk);
  n_public = static_cast<uint32_t>(npv.w[0]);
  return {};
}

error read_text_file(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return fail(errc::io, path + ": cannot open (" + std::strerror(errno) + ")");
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) return fail(errc::io, path + ": read error");
  out = ss.str();
  return {};
}

error write_text_file(const std::string& path, std::string_view text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return fail(errc::io, path + ": cannot create (" + std::strerror(errno) + ")");
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  f.close();
  if (!f) return fail(errc::io, path + ": write error");
  return {};
}

}  // namespace cuzk::groth16::snarkjs
