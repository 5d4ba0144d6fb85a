// Human-friendly sizes and durations for configuration ("256GiB", "1.5 GB", "5s", "250ms").
// Strict: anything not fully understood is an error (the Rust cuzk silently turned "256G" into
// 50 GiB, rust-cuzk.md §8.1 item 11).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/result.hpp"

namespace cuzk::engine {

// Bytes from "<number>[ ]<unit>": number is an unsigned decimal with an optional fraction;
// units (case-insensitive) B, KiB, MiB, GiB, TiB (powers of 1024), KB, MB, GB, TB (powers of
// 1000), K/M/G/T (= KiB/MiB/GiB/TiB, as most tools mean them); no unit = bytes. A fraction must
// resolve to whole bytes after rounding down; the value must fit in 64 bits.
result<std::uint64_t> parse_size(std::string_view text);

// Milliseconds from "<number><unit>" with unit ms, s, m, h (e.g. "250ms", "5s", "1.5m", "2h");
// "0" alone is accepted. Fractions allowed; the result is rounded down to whole milliseconds.
result<std::chrono::milliseconds> parse_duration(std::string_view text);

// Canonical spellings used by --print-config: the largest binary unit that divides exactly
// ("256GiB", "1536MiB", "17B"); durations as "250ms", "5s", "5m", "2h".
std::string format_size(std::uint64_t bytes);
std::string format_duration(std::chrono::milliseconds d);

}  // namespace cuzk::engine
