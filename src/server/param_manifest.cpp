#include "server/param_manifest.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <simdjson.h>

namespace cuzk::server {

namespace {

using engine::errc;
using engine::error;

// JSON syntax is simdjson's (Debian's libsimdjson-dev): one maintained, fuzzed parser for every
// JSON file the project reads rather than a hand-written one per format. The bounds keep a hostile
// file cheap: rust-fil-proofs' manifest is about 20 KiB and two levels deep.
constexpr std::size_t max_depth = 32;
constexpr std::size_t max_bytes = std::size_t{16} << 20;

bool is_hex(const std::string& s) {
  if (s.empty() || s.size() > 128) return false;
  for (char c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

engine::result<std::map<std::string, std::string>> parse_param_manifest(std::string_view json) {
  auto bad = [](std::string what) { return error{errc::invalid_argument, "parameters.json: " + what}; };
  if (json.size() > max_bytes) return bad("larger than 16 MiB");
  simdjson::dom::parser parser(max_bytes);
  simdjson::dom::object root;
  auto err = parser.allocate(std::max<std::size_t>(json.size(), 64), max_depth);
  const simdjson::padded_string padded(json);
  if (!err) err = parser.parse(padded).get(root);
  if (err == simdjson::INCORRECT_TYPE) return bad("expected a JSON object");
  if (err == simdjson::DEPTH_ERROR) return bad("nesting deeper than " + std::to_string(max_depth));
  if (err) return bad(simdjson::error_message(err));
  std::map<std::string, std::string> out;
  for (auto [name, entry] : root) {
    simdjson::dom::object fields;
    if (entry.get(fields)) continue;  // not an entry object: skipped
    std::string digest;
    for (auto [key, v] : fields) {
      std::string_view s;
      if (key == "digest" && !v.get(s)) digest = s;
    }
    if (is_hex(digest)) {
      for (auto& c : digest) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out[std::string(name)] = digest;
    }
  }
  return out;
}

engine::result<std::map<std::string, std::string>> load_param_manifest(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "parameters.json").string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::map<std::string, std::string>{};
  std::ifstream in(path, std::ios::binary);
  if (!in) return error{errc::invalid_argument, "cannot read " + path};
  std::stringstream ss;
  ss << in.rdbuf();
  auto m = parse_param_manifest(ss.str());
  if (!m) return error{errc::invalid_argument, path + ": " + m.error().message.substr(17)};
  return m;
}

}  // namespace cuzk::server
