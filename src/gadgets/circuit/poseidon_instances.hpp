// Pinned Poseidon gadget instances for the circuit registry (`cuzk circuit-info
// poseidon-arity-N`): allocate the preimage ("data i"), hash it with neptune's circuit and
// Filecoin's constants (MerkleTree tag) — neptune's own test circuit. Constraints:
// 311 / 377 / 505 / 598 / 761 / 1,009 / 1,385 for arity 2 / 4 / 8 / 11 / 16 / 24 / 36.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "gadgets/circuit/poseidon_circuit.hpp"
#include "gadgets/native/poseidon_params.hpp"

namespace cuzk::gadgets::instances {

template <std::size_t Arity>
struct poseidon_hash {
  std::array<fr, Arity> preimage{};

  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    std::vector<allocated_num> in;
    for (std::size_t i = 0; i < Arity; ++i) {
      r1cs::scoped_namespace ns(cs, [i] { return "data " + std::to_string(i); });
      CUZK_R1CS_TRY(allocated_num n, allocated_num::alloc(cs, [&] { return preimage[i]; }));
      in.push_back(n);
    }
    CUZK_R1CS_TRY(allocated_num h, poseidon_hash_circuit(cs, in, native::poseidon_constants(Arity)));
    (void)h;
    return r1cs::ok();
  }
};

}  // namespace cuzk::gadgets::instances
