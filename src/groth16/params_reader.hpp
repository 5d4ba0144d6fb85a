// Reading bellperson .params files (layout in params.hpp) safely: the whole structure (every u32
// length against the bytes that remain, trailing bytes) is validated before any point is
// touched, so a truncated or corrupt file gives a read_error naming the section and offset and
// never reads out of bounds or allocates from an unchecked length.
//
// Points: on-curve (and canonical-coordinate) checks always; the subgroup check only with
// subgroup_check::verify. Skip it only for files whose BLAKE2b digest matched parameters.json
// (digest.hpp): it dominates decoding time, and bellperson's Filecoin loader skips it too.
// Identity points are rejected everywhere.
//
// The section decoder works on any sub-range, so a caller with an executor can split one
// section across threads (this layer starts none).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ec/encoding.hpp"
#include "groth16/params.hpp"
#include "groth16/read_error.hpp"

namespace cuzk::groth16 {

// Structure only: fills layout, decodes no point. Errors: truncated (a fixed vk element or a
// length field is cut; section = that element), length_exceeds_file (section = the point section,
// offset = its first point, count = declared length, available = bytes left), empty_ic,
// trailing_bytes (section end).
read_error scan_parameters(std::span<const uint8_t> bytes, params_layout& layout);

// Decodes points [first, first + out.size()) of the run `run` (a section of a scanned layout,
// named `which` in errors; index in errors = the point's index in the whole section). The range
// must lie inside the run (else std::out_of_range: a programming error, not a file error).
read_error decode_g1_run(std::span<const uint8_t> bytes, section which, const point_run& run, uint64_t first,
                         std::span<g1_affine> out, ec::subgroup_check check);
read_error decode_g2_run(std::span<const uint8_t> bytes, section which, const point_run& run, uint64_t first,
                         std::span<g2_affine> out, ec::subgroup_check check);

// scan + decode everything, in file order. On failure out is in an unspecified (valid) state.
read_error read_parameters(std::span<const uint8_t> bytes, parameters& out,
                           ec::subgroup_check check = ec::subgroup_check::verify);
// The same through a read-only mmap of path (unmapped before returning).
read_error read_parameters_file(const std::string& path, parameters& out,
                                ec::subgroup_check check = ec::subgroup_check::verify);

}  // namespace cuzk::groth16
