// 64-bit words from the operating system's CSPRNG (getrandom(2)), buffered: the randomness for
// toxic waste and for the provers' r, s. Not copyable (a copy would repeat the buffer). Throws
// std::system_error if the kernel refuses (it blocks only before the pool is initialised at boot).
#pragma once

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <system_error>

namespace cuzk::base {

class os_rng {
 public:
  os_rng() = default;
  os_rng(const os_rng&) = delete;
  os_rng& operator=(const os_rng&) = delete;

  std::uint64_t operator()() {
    if (next_ == buf_.size()) refill();
    return buf_[next_++];
  }

 private:
  void refill() {
    auto* p = reinterpret_cast<unsigned char*>(buf_.data());
    std::size_t left = sizeof(buf_);
    while (left) {
      const ssize_t n = ::getrandom(p, left, 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw std::system_error(errno, std::generic_category(), "getrandom");
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    next_ = 0;
  }

  std::array<std::uint64_t, 32> buf_{};
  std::size_t next_ = buf_.size();
};

}  // namespace cuzk::base
