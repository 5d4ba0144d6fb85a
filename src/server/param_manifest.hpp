// rust-fil-proofs' parameters.json (the manifest `fetch-params` downloads by): file name ->
// {"cid", "digest", "sector_size"}. Only the digests matter here: the SRS manager checks each
// parameter file against its entry (the first 32 hex digits of the file's BLAKE2b-512).
//
// The parser is strict about JSON syntax (simdjson's; depth- and size-limited, no exceptions on bad
// input: it is fed files from disk and is a fuzz target) and lenient about content: entries
// without a string "digest" of hex digits are skipped.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "engine/result.hpp"

namespace cuzk::server {

// File name -> digest (lower-case hex). Errors: errc::invalid_argument naming what was wrong.
engine::result<std::map<std::string, std::string>> parse_param_manifest(std::string_view json);

// Reads `dir`/parameters.json when it exists. nullopt-like empty map when absent; an unreadable or
// malformed file is an error naming it.
engine::result<std::map<std::string, std::string>> load_param_manifest(const std::string& dir);

}  // namespace cuzk::server
