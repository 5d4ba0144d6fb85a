// POSIX file access for the groth16 readers and writers: a read-only memory map of a whole file,
// and a buffered sequential writer. Failures are read_errors with code io, section file and the
// errno of the failing call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "groth16/read_error.hpp"

namespace cuzk::groth16 {

// A read-only private mapping of a whole file (an empty file maps to an empty span). Move-only;
// unmapped on destruction.
class mapped_file {
 public:
  mapped_file() = default;
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  mapped_file(mapped_file&& o) noexcept;
  mapped_file& operator=(mapped_file&& o) noexcept;
  ~mapped_file();

  // Replaces out's mapping on success (advised MADV_SEQUENTIAL: readers make one front-to-back
  // pass). Only regular files (else io with EINVAL).
  static read_error open(const std::string& path, mapped_file& out);

  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  void reset();
  const uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// Writes a file front to back through a 1 MiB buffer. The file is created or truncated by open;
// close() flushes and reports the first error of any call (later calls after an error do nothing).
class file_writer {
 public:
  file_writer() = default;
  file_writer(const file_writer&) = delete;
  file_writer& operator=(const file_writer&) = delete;
  ~file_writer();  // closes without reporting; call close() to learn the outcome

  read_error open(const std::string& path);
  void write(std::span<const uint8_t> bytes);
  // Flushes the buffer when it holds at least a chunk; the buffer is exposed so encoders append
  // to it directly.
  std::vector<uint8_t>& buffer() { return buf_; }
  void maybe_flush();
  read_error close();

 private:
  void flush();
  int fd_ = -1;
  int errno_ = 0;
  std::vector<uint8_t> buf_;
};

// Writes bytes as the whole content of path.
read_error write_file(const std::string& path, std::span<const uint8_t> bytes);

}  // namespace cuzk::groth16
