#include "groth16/read_error.hpp"

#include <cstring>

namespace cuzk::groth16 {

read_error io_error(int sys_errno) {
  read_error e;
  e.code = read_errc::io;
  e.section = section::file;
  e.sys_errno = sys_errno;
  return e;
}

const char* to_string(section s) {
  switch (s) {
    case section::proof_a: return "proof.a";
    case section::proof_b: return "proof.b";
    case section::proof_c: return "proof.c";
    case section::alpha_g1: return "vk.alpha_g1";
    case section::beta_g1: return "vk.beta_g1";
    case section::beta_g2: return "vk.beta_g2";
    case section::gamma_g2: return "vk.gamma_g2";
    case section::delta_g1: return "vk.delta_g1";
    case section::delta_g2: return "vk.delta_g2";
    case section::ic_len: return "vk.ic length";
    case section::ic: return "vk.ic";
    case section::h_len: return "h length";
    case section::h: return "h";
    case section::l_len: return "l length";
    case section::l: return "l";
    case section::a_len: return "a length";
    case section::a: return "a";
    case section::b_g1_len: return "b_g1 length";
    case section::b_g1: return "b_g1";
    case section::b_g2_len: return "b_g2 length";
    case section::b_g2: return "b_g2";
    case section::end: return "end";
    case section::file: return "file";
  }
  return "unknown section";
}

const char* to_string(read_errc c) {
  switch (c) {
    case read_errc::ok: return "ok";
    case read_errc::io: return "i/o error";
    case read_errc::wrong_size: return "size is not a whole number of elements";
    case read_errc::truncated: return "input ends inside the element";
    case read_errc::length_exceeds_file: return "declared length runs past the end of the input";
    case read_errc::empty_ic: return "verifying key with no ic points";
    case read_errc::bad_point: return "invalid point encoding";
    case read_errc::identity_point: return "point at infinity where the format forbids it";
    case read_errc::trailing_bytes: return "bytes after the last section";
  }
  return "unknown read_errc";
}

namespace {

bool is_vector(section s) {
  return s == section::ic || s == section::h || s == section::l || s == section::a || s == section::b_g1 ||
         s == section::b_g2;
}

}  // namespace

std::string read_error::message() const {
  if (ok()) return "ok";
  // Built with append only: g++ 12 warns falsely (-Wrestrict) on "literal" + std::string.
  std::string m = to_string(section);
  auto num = [&m](uint64_t v) { m.append(std::to_string(v)); };
  const bool proof_part = section == section::proof_a || section == section::proof_b || section == section::proof_c;
  if ((is_vector(section) && code != read_errc::length_exceeds_file) || (proof_part && index != 0)) {
    m.append("[");
    num(index);
    m.append("]");
  }
  if (code != read_errc::io) {
    m.append(" at offset ");
    num(offset);
  }
  m.append(": ").append(to_string(code));
  switch (code) {
    case read_errc::io:
      m.append(" (").append(std::strerror(sys_errno)).append(")");
      break;
    case read_errc::wrong_size:
    case read_errc::trailing_bytes:
      m.append(" (");
      num(count);
      m.append(" bytes)");
      break;
    case read_errc::truncated:
      m.append(" (");
      num(available);
      m.append(" bytes left)");
      break;
    case read_errc::length_exceeds_file:
      m.append(" (");
      num(count);
      m.append(" points declared, ");
      num(available);
      m.append(" bytes left)");
      break;
    case read_errc::bad_point:
      m.append(" (").append(ec::to_string(point)).append(")");
      break;
    default:
      break;
  }
  return m;
}

}  // namespace cuzk::groth16
