#include "engine/units.hpp"

#include <array>
#include <cctype>
#include <limits>

namespace cuzk::engine {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

// A decimal "123" or "1.25" as integer part and fraction (numerator / 10^digits); the rest of the
// string (the unit) in `rest`. Rejects signs, exponents, empty integer and fraction parts.
struct decimal {
  std::uint64_t whole = 0;
  std::uint64_t frac = 0;        // fraction digits as an integer
  std::uint64_t frac_scale = 1;  // 10^(number of fraction digits)
};

bool parse_decimal(std::string_view s, decimal& d, std::string_view& rest) {
  std::size_t i = 0;
  if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
    std::uint64_t digit = static_cast<std::uint64_t>(s[i] - '0');
    if (d.whole > (max - digit) / 10) return false;
    d.whole = d.whole * 10 + digit;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    std::size_t start = i;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
      if (i - start >= 18) return false;  // more precision than anyone means
      d.frac = d.frac * 10 + static_cast<std::uint64_t>(s[i] - '0');
      d.frac_scale *= 10;
    }
    if (i == start) return false;
  }
  rest = s.substr(i);
  return true;
}

// whole*mult + frac*mult/scale, with overflow checks; false on overflow.
bool scale(const decimal& d, std::uint64_t mult, std::uint64_t& out) {
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  if (mult != 0 && d.whole > max / mult) return false;
  std::uint64_t w = d.whole * mult;
  unsigned __int128 f = static_cast<unsigned __int128>(d.frac) * mult / d.frac_scale;
  if (f > max - w) return false;
  out = w + static_cast<std::uint64_t>(f);
  return true;
}

}  // namespace

result<std::uint64_t> parse_size(std::string_view text) {
  std::string_view s = trim(text);
  auto bad = [&](const char* why) {
    return error{errc::invalid_argument,
                 "invalid size \"" + std::string(text) + "\": " + why +
                     " (examples: \"256GiB\", \"512MiB\", \"1.5TiB\", \"64GB\", \"1073741824\")"};
  };
  decimal d;
  std::string_view unit;
  if (!parse_decimal(s, d, unit)) return bad("expected a non-negative number");
  unit = trim(unit);
  struct u {
    std::string_view name;
    std::uint64_t mult;
  };
  constexpr std::uint64_t k = 1024;
  static constexpr std::array units{
      u{"", 1},          u{"b", 1},
      u{"kib", k},       u{"mib", k * k},       u{"gib", k * k * k},      u{"tib", k * k * k * k},
      u{"k", k},         u{"m", k * k},         u{"g", k * k * k},        u{"t", k * k * k * k},
      u{"kb", 1000},     u{"mb", 1000000},      u{"gb", 1000000000},      u{"tb", 1000000000000},
  };
  for (const auto& [name, mult] : units) {
    if (!iequals(unit, name)) continue;
    std::uint64_t out = 0;
    if (!scale(d, mult, out)) return bad("too large");
    return out;
  }
  return bad("unknown unit");
}

result<std::chrono::milliseconds> parse_duration(std::string_view text) {
  std::string_view s = trim(text);
  auto bad = [&](const char* why) {
    return error{errc::invalid_argument, "invalid duration \"" + std::string(text) + "\": " + why +
                                             " (examples: \"250ms\", \"5s\", \"1.5m\", \"2h\")"};
  };
  decimal d;
  std::string_view unit;
  if (!parse_decimal(s, d, unit)) return bad("expected a non-negative number");
  unit = trim(unit);
  std::uint64_t mult = 0;
  if (unit.empty()) {
    if (d.whole != 0 || d.frac != 0) return bad("missing unit (ms, s, m or h)");
    return std::chrono::milliseconds(0);
  }
  if (unit == "ms") mult = 1;
  else if (unit == "s") mult = 1000;
  else if (unit == "m" || unit == "min") mult = 60'000;
  else if (unit == "h") mult = 3'600'000;
  else return bad("unknown unit");
  std::uint64_t out = 0;
  if (!scale(d, mult, out) || out > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return bad("too large");
  return std::chrono::milliseconds(static_cast<std::int64_t>(out));
}

std::string format_size(std::uint64_t bytes) {
  static constexpr std::array<const char*, 5> names{"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t i = 0;
  while (i + 1 < names.size() && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++i;
  }
  return std::to_string(bytes) + names[i];
}

std::string format_duration(std::chrono::milliseconds d) {
  auto ms = d.count();
  if (ms != 0 && ms % 3'600'000 == 0) return std::to_string(ms / 3'600'000) + "h";
  if (ms != 0 && ms % 60'000 == 0) return std::to_string(ms / 60'000) + "m";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
  return std::to_string(ms) + "ms";
}

}  // namespace cuzk::engine
