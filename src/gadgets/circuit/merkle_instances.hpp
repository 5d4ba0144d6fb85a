// Pinned Merkle inclusion (PoR) instances for the circuit registry (`cuzk circuit-info
// por-...`): one PoRCircuit with a private root over Filecoin's tree shapes, blank (all-zero)
// path values. Constraints = sum of per-level costs (530 / 387 / 314 Poseidon arity 8 / 4 / 2,
// 45,382 binary SHA-256) + 2.
#pragma once

#include <cstddef>

#include "gadgets/circuit/merkle_circuit.hpp"

namespace cuzk::gadgets::instances {

template <merkle_hash Hash, std::size_t Base, std::size_t Sub, std::size_t Top, std::size_t BaseLevels>
struct por {
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    const merkle_arities a{Base, Sub, Top};
    return por_circuit(cs, Hash, a, merkle_root_arg::of_value(fr::zero()), blank_merkle_path(a, BaseLevels),
                       merkle_root_arg::of_value(fr::zero()), true);
  }
};

}  // namespace cuzk::gadgets::instances
