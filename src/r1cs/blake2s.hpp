// BLAKE2s-256 (RFC 7693; unkeyed, 32-byte digest, default parameter block), written from the
// RFC. Used for the shape hash because bellpepper-core's TestConstraintSystem::hash() is
// BLAKE2s-256 (blake2s_simd's default State): our shape hash is defined to equal it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace cuzk::r1cs {

class blake2s_256 {
 public:
  static constexpr std::size_t digest_size = 32;
  static constexpr std::size_t block_size = 64;
  using digest = std::array<uint8_t, digest_size>;

  blake2s_256();
  void update(std::span<const uint8_t> data);
  void update(const void* data, std::size_t n) {
    update(std::span<const uint8_t>(static_cast<const uint8_t*>(data), n));
  }
  // Finishes the hash; the object must not be updated afterwards.
  digest finalize();

  static digest hash(std::span<const uint8_t> data) {
    blake2s_256 h;
    h.update(data);
    return h.finalize();
  }

 private:
  void compress(const uint8_t* block, bool last);

  uint32_t h_[8];
  uint64_t t_ = 0;  // bytes compressed so far (including the block being compressed)
  uint8_t buf_[block_size];
  std::size_t buf_len_ = 0;
};

// Lower-case hex of a digest.
std::string to_hex(std::span<const uint8_t> bytes);

}  // namespace cuzk::r1cs
