// Writing bellperson .params files (layout in params.hpp), for tests and development parameters.
// Points are written as given (the writer does not reject identities or off-subgroup points, so
// tests can make bad files; the reader rejects them). Throws std::length_error when a vector has
// more than 2^32 - 1 points.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "groth16/params.hpp"
#include "groth16/read_error.hpp"

namespace cuzk::groth16 {

void append_parameters(const parameters& p, std::vector<uint8_t>& out);
std::vector<uint8_t> encode_parameters(const parameters& p);
// Streams to the file through a 1 MiB buffer (no whole-file copy in memory).
read_error write_parameters_file(const std::string& path, const parameters& p);

}  // namespace cuzk::groth16
