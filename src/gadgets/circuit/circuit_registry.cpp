#include "gadgets/circuit/circuit_registry.hpp"

#include <array>

#include "gadgets/circuit/gadget_instances.hpp"
#include "gadgets/circuit/merkle_instances.hpp"
#include "gadgets/circuit/poseidon_instances.hpp"

namespace cuzk::gadgets {

namespace {

struct strict_bits : instances::num_to_bits_le {
  strict_bits() { strict = true; }
};

// One line per circuit.
const std::array registry{
    circuit_entry{"boolean-ops", "every boolean combinator over constant/Is/Not operands", &record_shape<instances::boolean_ops>},
    circuit_entry{"num-ops", "AllocatedNum inputize/mul/square/add/reverse, pick, select-4, nonzero", &record_shape<instances::num_ops>},
    circuit_entry{"num-to-bits-le", "one allocated number, non-strict LE decomposition (255 bits)", &record_shape<instances::num_to_bits_le>},
    circuit_entry{"num-to-bits-le-strict", "one allocated number, strict LE decomposition", &record_shape<strict_bits>},
    circuit_entry{"uint32-add-many-2", "two allocated u32, add_many through MultiEq", &record_shape<instances::uint32_add_many<2>>},
    circuit_entry{"uint32-add-many-4", "four allocated u32 (SHA-256 schedule addition)", &record_shape<instances::uint32_add_many<4>>},
    circuit_entry{"uint32-add-many-7", "seven allocated u32 (SHA-256 round addition)", &record_shape<instances::uint32_add_many<7>>},
    circuit_entry{"multipack-inputs-300", "300 allocated bits packed into 2 public inputs", &record_shape<instances::pack_inputs_300>},
    circuit_entry{"sha256-compression", "512 allocated bits, one SHA-256 compression from the IV", &record_shape<instances::sha256_compression>},
    circuit_entry{"sha256-label-1248", "Filecoin PoRep label: SHA-256 of the 1,248-byte preimage, packed", &record_shape<instances::sha256_label>},
    circuit_entry{"poseidon-arity-2", "neptune Poseidon circuit, arity 2 (comm_r, TreeC/TreeR binary levels)", &record_shape<instances::poseidon_hash<2>>},
    circuit_entry{"poseidon-arity-4", "neptune Poseidon circuit, arity 4", &record_shape<instances::poseidon_hash<4>>},
    circuit_entry{"poseidon-arity-8", "neptune Poseidon circuit, arity 8 (TreeC/TreeR levels)", &record_shape<instances::poseidon_hash<8>>},
    circuit_entry{"poseidon-arity-11", "neptune Poseidon circuit, arity 11 (PoRep column hash)", &record_shape<instances::poseidon_hash<11>>},
    circuit_entry{"poseidon-arity-16", "neptune Poseidon circuit, arity 16", &record_shape<instances::poseidon_hash<16>>},
    circuit_entry{"por-poseidon-8-0-0-2kib", "PoR into a 2 KiB TreeR (2 oct levels), private root", &record_shape<instances::por<merkle_hash::poseidon, 8, 0, 0, 2>>},
    circuit_entry{"por-poseidon-8-0-0-512mib", "PoR into a 512 MiB TreeR (8 oct levels), private root", &record_shape<instances::por<merkle_hash::poseidon, 8, 0, 0, 8>>},
    circuit_entry{"por-poseidon-8-8-0-32gib", "PoR into a 32 GiB TreeR (9 oct base levels + oct sub), private root", &record_shape<instances::por<merkle_hash::poseidon, 8, 8, 0, 9>>},
    circuit_entry{"por-poseidon-8-8-2-64gib", "PoR into a 64 GiB TreeR (9 oct + oct sub + binary top), private root", &record_shape<instances::por<merkle_hash::poseidon, 8, 8, 2, 9>>},
    circuit_entry{"por-poseidon-4-level", "one arity-4 Poseidon PoR level, private root", &record_shape<instances::por<merkle_hash::poseidon, 4, 0, 0, 1>>},
    circuit_entry{"por-poseidon-2-level", "one arity-2 Poseidon PoR level, private root", &record_shape<instances::por<merkle_hash::poseidon, 2, 0, 0, 1>>},
    circuit_entry{"por-sha256-level", "one binary SHA-256 (TreeD) PoR level, private root", &record_shape<instances::por<merkle_hash::sha256, 2, 0, 0, 1>>},
};

}  // namespace

std::span<const circuit_entry> circuit_registry() { return registry; }

const circuit_entry* find_circuit(std::string_view name) {
  for (const circuit_entry& e : registry)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace cuzk::gadgets
