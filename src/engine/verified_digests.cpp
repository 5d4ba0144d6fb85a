#include "engine/verified_digests.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace cuzk::engine {

namespace {
constexpr const char* record_name = ".cuzk-verified-digests";

bool is_hex(std::string_view s) {
  for (char c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return !s.empty();
}

// Strict decimal parse of a whole token (no sign, no spaces, no overflow).
template <class T>
bool parse_int(const std::string& tok, T& out) {
  if (tok.empty() || tok[0] == '-' || tok[0] == '+') return false;
  const auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), out);
  return ec == std::errc() && p == tok.data() + tok.size();
}
}  // namespace

std::optional<file_identity> identify_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  file_identity id;
  id.size = static_cast<std::uint64_t>(st.st_size);
  id.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return id;
}

std::map<std::string, verified_entry> parse_verified_digests(std::string_view text) {
  std::map<std::string, verified_entry> out;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string digest, size, mtime;
    if (!(ls >> digest >> size >> mtime)) continue;
    std::string name;
    std::getline(ls >> std::ws, name);
    verified_entry e;
    if (digest.size() != 128 || !is_hex(digest) || name.empty() || name.find('/') != std::string::npos) continue;
    if (!parse_int(size, e.id.size) || !parse_int(mtime, e.id.mtime_ns)) continue;
    for (auto& c : digest) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    e.digest = digest;
    out[name] = e;
  }
  return out;
}

std::string format_verified_digests(const std::map<std::string, verified_entry>& entries) {
  std::string out;
  for (const auto& [name, e] : entries) {
    out += e.digest + "  " + std::to_string(e.id.size) + "  " + std::to_string(e.id.mtime_ns) + "  " + name + "\n";
  }
  return out;
}

bool digest_matches(std::string_view expected, std::string_view full) {
  if (expected.empty() || expected.size() > full.size()) return false;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(expected[i])) != std::tolower(static_cast<unsigned char>(full[i]))) {
      return false;
    }
  }
  return true;
}

verified_digests::verified_digests(std::string dir) : dir_(std::move(dir)) {
  std::ifstream in(path());
  if (!in) return;
  std::stringstream ss;
  ss << in.rdbuf();
  entries_ = parse_verified_digests(ss.str());
}

std::string verified_digests::path() const { return dir_ + "/" + record_name; }

std::optional<std::string> verified_digests::lookup(const std::string& name, const file_identity& id) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find(name);
  if (it == entries_.end() || !(it->second.id == id)) return std::nullopt;
  return it->second.digest;
}

bool verified_digests::remember(const std::string& name, const file_identity& id, const std::string& full_digest) {
  std::lock_guard lock(mu_);
  entries_[name] = verified_entry{id, full_digest};
  return save_locked();
}

void verified_digests::forget(const std::string& name) {
  std::lock_guard lock(mu_);
  if (entries_.erase(name)) save_locked();
}

bool verified_digests::save_locked() const {
  const std::string final_path = path();
  const std::string tmp = final_path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return false;
    out << format_verified_digests(entries_);
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), final_path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace cuzk::engine
