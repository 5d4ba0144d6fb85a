// The one error type of every groth16 reader (proof bytes, .vk, .params, files): what went wrong,
// in which element, at which byte offset. Readers return it and leave their output untouched (or
// unspecified for the large readers, see each one) when it is not ok().
#pragma once

#include <cstdint>
#include <string>

#include "ec/encoding.hpp"

namespace cuzk::groth16 {

// The elements of the formats, in file order (filecoin.md §1.2-1.4).
enum class section : uint8_t {
  proof_a, proof_b, proof_c,                                    // 192-byte proof
  alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2,     // .vk fixed part
  ic_len, ic,                                                   // .vk u32 length + points
  h_len, h, l_len, l, a_len, a, b_g1_len, b_g1, b_g2_len, b_g2,  // .params after the vk
  end,   // after the last section (trailing bytes)
  file,  // the file as a whole (open/stat/mmap/read/write)
};

enum class read_errc : uint8_t {
  ok = 0,
  io,                   // a system call failed; sys_errno says why
  wrong_size,           // proof bytes: not a multiple of 192 (count = the size given)
  truncated,            // the input ends inside a fixed-size element (a point or a u32 length)
  length_exceeds_file,  // a u32 length whose points run past the end (count = declared length)
  empty_ic,             // ic_len = 0: a verifying key needs at least ic[0] (the ONE input)
  bad_point,            // the ec decoder rejected the point bytes; point says why
  identity_point,       // a valid encoding of the point at infinity, which the format forbids
  trailing_bytes,       // bytes after the last section (count = how many)
};

struct read_error {
  read_errc code = read_errc::ok;
  groth16::section section = section::file;
  uint64_t offset = 0;     // byte offset of the offending element (for length_exceeds_file: of
                           // the first point of the section); for io: 0
  uint64_t index = 0;      // element index inside a vector section, or proof index in a
                           // concatenation of proofs
  uint64_t count = 0;      // see read_errc
  uint64_t available = 0;  // truncated / length_exceeds_file: bytes left from offset to the end
  ec::decode_error point = ec::decode_error::ok;  // bad_point
  int sys_errno = 0;                              // io

  bool ok() const { return code == read_errc::ok; }
  // One line, e.g. "l[17] at offset 12345: point not on the curve (not_on_curve)".
  std::string message() const;
};

// An I/O failure on the file as a whole (open, stat, mmap, read, write), from errno.
read_error io_error(int sys_errno);

const char* to_string(section s);
const char* to_string(read_errc c);

}  // namespace cuzk::groth16
