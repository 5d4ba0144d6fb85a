// BLAKE2b-512 (RFC 7693, unkeyed, 64-byte output) of files and buffers, through libb2, and the
// `digest` field of Filecoin's parameters.json: the first 32 hex characters (16 bytes) of the
// BLAKE2b-512 of the whole .params / .vk file (filecoin.md §1.6; rust-fil-proofs
// verify_production_entry). Equal to the first 32 characters of `b2sum FILE`.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "groth16/read_error.hpp"

namespace cuzk::groth16 {

using blake2b_512_digest = std::array<uint8_t, 64>;

blake2b_512_digest blake2b_512(std::span<const uint8_t> bytes);
// Reads the file sequentially in 4 MiB blocks (no mmap, so a 44 GiB file costs no address space).
read_error blake2b_512_file(const std::string& path, blake2b_512_digest& out);

// Lower-case hex of all 64 bytes (b2sum's output).
std::string to_hex(const blake2b_512_digest& d);
// The parameters.json form: lower-case hex of the first 16 bytes.
std::string parameters_json_digest(const blake2b_512_digest& d);

}  // namespace cuzk::groth16
