// Pinned shapes of every registered gadget instance: counts, nonzeros, densities and the shape
// hash (bellpepper's TestConstraintSystem hash of the same circuit; it covers counts and
// linear combinations, not names). Any drift in a gadget's allocation order, constraint order,
// terms or coefficients fails here. The constraint counts that upstream publishes are
// reproduced exactly (sha256_circuit_test.cpp checks those against the upstream tests' own
// arithmetic); the hashes and nonzero counts are this implementation's, pinned against drift.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "gadgets/circuit/circuit_registry.hpp"

namespace cuzk::gadgets {
namespace {

struct pinned {
  std::string_view name;
  std::size_t constraints, inputs, aux, nnz_a, nnz_b, nnz_c, a_aux, b_input, b_aux;
  std::string_view hash;
};

// clang-format off
constexpr pinned pins[] = {
#include "pinned_shapes.inc"
};
// clang-format on

TEST(gadget_shapes, PinnedCountsAndHashes) {
  std::size_t checked = 0;
  for (const pinned& p : pins) {
    const circuit_entry* e = find_circuit(p.name);
    ASSERT_NE(e, nullptr) << p.name;
    const r1cs::r1cs_shape s = e->record();
    SCOPED_TRACE(std::string(p.name));
    EXPECT_EQ(s.num_constraints, p.constraints);
    EXPECT_EQ(s.num_inputs, p.inputs);
    EXPECT_EQ(s.num_aux, p.aux);
    EXPECT_EQ(s.a.nnz(), p.nnz_a);
    EXPECT_EQ(s.b.nnz(), p.nnz_b);
    EXPECT_EQ(s.c.nnz(), p.nnz_c);
    EXPECT_EQ(s.a_aux_density.count(), p.a_aux);
    EXPECT_EQ(s.b_input_density.count(), p.b_input);
    EXPECT_EQ(s.b_aux_density.count(), p.b_aux);
    EXPECT_EQ(s.hash_hex(), p.hash);
    ++checked;
  }
  // Every gadget instance in the registry is pinned (circuits added by other layers pin
  // themselves in their own tests).
  std::size_t gadget_entries = 0;
  for (const circuit_entry& e : circuit_registry())
    for (const pinned& p : pins) gadget_entries += e.name == p.name;
  EXPECT_EQ(gadget_entries, checked);
}

// Upstream anchors that hold for the registered instances.
TEST(gadget_shapes, UpstreamCounts) {
  EXPECT_EQ(find_circuit("num-to-bits-le")->record().num_constraints, 256u);
  EXPECT_EQ(find_circuit("sha256-compression")->record().num_constraints - 512, 25840u);
  // 9,754 allocated preimage bits, the hash, the packing constraint.
  EXPECT_EQ(find_circuit("sha256-label-1248")->record().num_constraints - 9754 - 1, 522268u);
}

}  // namespace
}  // namespace cuzk::gadgets
