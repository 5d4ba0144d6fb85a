#include "r1cs/test_system.hpp"

#include <stdexcept>

#include "r1cs/blake2s.hpp"

namespace cuzk::r1cs {

test_system::test_system() {
  inputs_.push_back(fr::one());
  input_names_.push_back("ONE");
  named_.emplace("ONE", named_object{object_kind::variable, variable::one(), 0});
}

std::string test_system::compute_path(const std::string& name) const {
  if (name.find('/') != std::string::npos) throw std::logic_error("r1cs::test_system: '/' is not allowed in names");
  std::string path;
  for (const std::string& ns : namespace_) {
    path += ns;
    path += '/';
  }
  path += name;
  return path;
}

void test_system::add_named(std::string path, named_object obj) {
  auto [it, inserted] = named_.try_emplace(std::move(path), obj);
  if (!inserted) throw std::logic_error("r1cs::test_system: tried to create object at existing path: " + it->first);
}

void test_system::pop_namespace() {
  if (namespace_.empty()) throw std::logic_error("r1cs::test_system: pop_namespace without a namespace");
  namespace_.pop_back();
}

constraint_values test_system::evaluate(std::size_t i) const {
  const named_constraint& k = constraints_.at(i);
  return {k.a.evaluate(inputs_, aux_), k.b.evaluate(inputs_, aux_), k.c.evaluate(inputs_, aux_)};
}

std::optional<std::string> test_system::which_is_unsatisfied() const {
  for (std::size_t i = 0; i < constraints_.size(); ++i) {
    const constraint_values v = evaluate(i);
    if (v.a * v.b != v.c) return constraints_[i].path;
  }
  return std::nullopt;
}

const test_system::named_object& test_system::variable_at(const std::string& path) const {
  auto it = named_.find(path);
  if (it == named_.end()) throw std::out_of_range("r1cs::test_system: no variable exists at path: " + path);
  if (it->second.kind != object_kind::variable)
    throw std::out_of_range("r1cs::test_system: not a variable at path: " + path);
  return it->second;
}

fr test_system::get(const std::string& path) const {
  const variable v = variable_at(path).var;
  return v.is_input() ? inputs_[v.index()] : aux_[v.index()];
}

void test_system::set(const std::string& path, const fr& value) {
  const variable v = variable_at(path).var;
  (v.is_input() ? inputs_[v.index()] : aux_[v.index()]) = value;
}

bool test_system::verify(std::span<const fr> expected) const {
  if (expected.size() + 1 != inputs_.size()) throw std::invalid_argument("r1cs::test_system::verify: size mismatch");
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (inputs_[i + 1] != expected[i]) return false;
  }
  return true;
}

namespace {

void put_u64_be(uint8_t* out, uint64_t x) {
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<uint8_t>(x);
    x >>= 8;
  }
}

// bellpepper's hash_lc: the LC's terms with zero coefficients removed, in variable order
// (inputs, then aux, each ascending: the order linear_combination keeps).
void hash_lc(const linear_combination& lc, blake2s_256& h) {
  uint64_t n = 0;
  for (const term& t : lc.terms()) n += t.coeff.is_zero() ? 0 : 1;
  uint8_t buf[9 + fr::bytes];
  put_u64_be(buf, n);
  h.update(buf, 8);
  for (const term& t : lc.terms()) {
    if (t.coeff.is_zero()) continue;
    buf[0] = t.var.is_input() ? 'I' : 'A';
    put_u64_be(buf + 1, t.var.index());
    t.coeff.to_bytes_be(buf + 9);
    h.update(buf, sizeof buf);
  }
}

}  // namespace

std::string test_system::hash() const {
  blake2s_256 h;
  uint8_t header[24];
  put_u64_be(header, inputs_.size());
  put_u64_be(header + 8, aux_.size());
  put_u64_be(header + 16, constraints_.size());
  h.update(header, sizeof header);
  for (const named_constraint& k : constraints_) {
    hash_lc(k.a, h);
    hash_lc(k.b, h);
    hash_lc(k.c, h);
  }
  return to_hex(h.finalize());
}

}  // namespace cuzk::r1cs
