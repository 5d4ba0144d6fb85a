#include "groth16/params_writer.hpp"

#include <limits>
#include <span>
#include <stdexcept>

#include "groth16/file_io.hpp"
#include "groth16/wire.hpp"

namespace cuzk::groth16 {

namespace {

template <class Affine>
uint32_t checked_length(const std::vector<Affine>& v) {
  if (v.size() > std::numeric_limits<uint32_t>::max()) throw std::length_error("parameters: section too long");
  return static_cast<uint32_t>(v.size());
}

// Appends one length-prefixed section to sink's buffer, letting it flush as it grows.
template <class Affine, class Sink>
void put_section(Sink& sink, const std::vector<Affine>& v) {
  wire::append_u32_be(sink.buffer(), checked_length(v));
  for (const Affine& p : v) {
    wire::append_uncompressed(sink.buffer(), p);
    sink.maybe_flush();
  }
}

template <class Sink>
void put_parameters(Sink& sink, const parameters& p) {
  // Check every length before writing anything.
  checked_length(p.h), checked_length(p.l), checked_length(p.a), checked_length(p.b_g1), checked_length(p.b_g2);
  append_verifying_key(p.vk, sink.buffer());
  sink.maybe_flush();
  put_section(sink, p.h);
  put_section(sink, p.l);
  put_section(sink, p.a);
  put_section(sink, p.b_g1);
  put_section(sink, p.b_g2);
}

struct vector_sink {
  std::vector<uint8_t>& out;
  std::vector<uint8_t>& buffer() { return out; }
  void maybe_flush() {}
};

}  // namespace

void append_parameters(const parameters& p, std::vector<uint8_t>& out) {
  out.reserve(out.size() + parameters_size(p));
  vector_sink sink{out};
  put_parameters(sink, p);
}

std::vector<uint8_t> encode_parameters(const parameters& p) {
  std::vector<uint8_t> out;
  append_parameters(p, out);
  return out;
}

read_error write_parameters_file(const std::string& path, const parameters& p) {
  file_writer w;
  read_error e = w.open(path);
  if (!e.ok()) return e;
  put_parameters(w, p);
  return w.close();
}

}  // namespace cuzk::groth16
