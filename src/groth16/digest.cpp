#include "groth16/digest.hpp"

#include <blake2.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <vector>

namespace cuzk::groth16 {

namespace {

constexpr std::size_t block_bytes = std::size_t{4} << 20;

std::string hex(const uint8_t* p, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

}  // namespace

blake2b_512_digest blake2b_512(std::span<const uint8_t> bytes) {
  blake2b_512_digest d;
  if (blake2b(d.data(), bytes.data(), nullptr, d.size(), bytes.size(), 0) != 0) throw std::runtime_error("blake2b failed");
  return d;
}

read_error blake2b_512_file(const std::string& path, blake2b_512_digest& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error(errno);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  blake2b_state state;
  blake2b_init(&state, out.size());
  std::vector<uint8_t> block(block_bytes);
  for (;;) {
    const ssize_t n = ::read(fd, block.data(), block.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return io_error(err);
    }
    if (n == 0) break;
    blake2b_update(&state, block.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  blake2b_final(&state, out.data(), out.size());
  return {};
}

std::string to_hex(const blake2b_512_digest& d) { return hex(d.data(), d.size()); }

std::string parameters_json_digest(const blake2b_512_digest& d) { return hex(d.data(), 16); }

}  // namespace cuzk::groth16
