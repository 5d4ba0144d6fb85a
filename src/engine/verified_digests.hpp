// The parameter files whose BLAKE2b digest was already checked, remembered across restarts so
// that a daemon does not re-hash ~134 GiB of Filecoin parameters (~2-3 min at ~1 GB/s) every time
// it starts.
//
// A record is trusted only while the file is unchanged: it is keyed by the file's name, size and
// modification time (nanoseconds), and it stores the full BLAKE2b-512 the file had. A replaced
// or rewritten file gets a new mtime and is hashed again. The record lives in the parameter
// cache directory as `.cuzk-verified-digests`, one line per file:
//   <128 hex digits>  <size>  <mtime_ns>  <file name>
// It is rewritten atomically (temporary file + rename). An unreadable or garbled record is
// ignored (everything is hashed again); an unwritable directory keeps the record in memory only.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::engine {

struct file_identity {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const file_identity&) const = default;
};

// size and mtime of path; nullopt when it cannot be stat'ed (missing).
std::optional<file_identity> identify_file(const std::string& path);

// Parses the record text: name -> (identity, digest). Lines that do not parse are skipped.
struct verified_entry {
  file_identity id;
  std::string digest;  // 128 lower-case hex digits
};
std::map<std::string, verified_entry> parse_verified_digests(std::string_view text);
std::string format_verified_digests(const std::map<std::string, verified_entry>& entries);

// True when `expected` (hex, any length 1..128, case-insensitive) is a prefix of `full` (128 hex):
// parameters.json carries the first 32 digits, a .b2sum file all 128.
bool digest_matches(std::string_view expected, std::string_view full);

class verified_digests {
 public:
  explicit verified_digests(std::string dir);

  // The remembered full digest of `name` if the file still has identity `id`.
  std::optional<std::string> lookup(const std::string& name, const file_identity& id) const;
  // Remembers and persists (best effort; returns false when the record could not be written).
  bool remember(const std::string& name, const file_identity& id, const std::string& full_digest);
  void forget(const std::string& name);

  std::string path() const;

 private:
  bool save_locked() const;
  std::string dir_;
  mutable std::mutex mu_;
  std::map<std::string, verified_entry> entries_;
};

}  // namespace cuzk::engine
