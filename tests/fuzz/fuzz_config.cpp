// Fuzz target: the daemon's TOML configuration (server::parse_config, which also parses sizes
// and durations) and the size/duration parsers on their own. Properties: never crashes; every
// rejection names a key or value; an accepted configuration prints (--print-config) to TOML that
// parses back to the same printout.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/units.hpp"
#include "server/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)cuzk::engine::parse_size(text);
  (void)cuzk::engine::parse_duration(text);
  auto cfg = cuzk::server::parse_config(text, "fuzz.toml");
  if (!cfg) {
    if (cfg.error().message.empty()) std::abort();
    return 0;
  }
  const std::string printed = cuzk::server::to_toml(cfg.value());
  auto again = cuzk::server::parse_config(printed, "printed.toml");
  if (!again || cuzk::server::to_toml(again.value()) != printed) std::abort();
  return 0;
}
