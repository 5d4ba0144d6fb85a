// The named circuits `cuzk circuit-info` knows: pinned gadget instances now, Filecoin circuits
// later. An entry records the circuit's shape on demand (no work at start-up, no static
// initialisers): registering a circuit is one line in circuit_registry.cpp,
//   {"poseidon-arity-2", "one Poseidon hash, arity 2", &record_shape<my_instance>},
// where my_instance has a default constructor and `synthesize(cs)`.
#pragma once

#include <span>
#include <stdexcept>
#include <string_view>

#include "r1cs/shape.hpp"
#include "r1cs/shape_recorder.hpp"
#include "r1cs/result.hpp"

namespace cuzk::gadgets {

struct circuit_entry {
  std::string_view name;
  std::string_view summary;
  r1cs::r1cs_shape (*record)();
};

// Synthesizes a default-constructed C on a shape recorder (throws std::runtime_error if
// synthesis fails).
template <class C>
r1cs::r1cs_shape record_shape() {
  r1cs::shape_recorder rec;
  const C circuit{};
  const r1cs::result<void> r = circuit.synthesize(rec);
  if (!r) throw std::runtime_error(std::string("circuit synthesis failed: ") + r1cs::to_string(r.error()));
  return std::move(rec).finish();
}

// All entries, in registration order.
std::span<const circuit_entry> circuit_registry();
// The entry named `name`, or nullptr.
const circuit_entry* find_circuit(std::string_view name);

}  // namespace cuzk::gadgets
