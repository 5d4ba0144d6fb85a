// boolean, num, uint32 and multipack gadgets: values against plain C++ truth tables for every
// operand kind, exact constraint forms where bellpepper fixes them, satisfaction on random
// inputs and detection of every single changed aux value (small gadgets: all positions).
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "gadgets/circuit/gadget_instances.hpp"
#include "gadgets/circuit/sha256_witness.hpp"
#include "instance_check.hpp"
#include "support/seed.hpp"

namespace cuzk::gadgets {
namespace {

using r1cs::linear_combination;
using r1cs::test_system;
using r1cs::variable;

// Every operand kind (constant 0/1, Is, Not) for each value, through xor/and/or/ch/maj:
// result values equal the truth table and the system stays satisfied.
TEST(boolean_gadget, TruthTablesOverAllKinds) {
  for (int mask = 0; mask < 8; ++mask) {
    test_system ts;
    const bool xv = mask & 1, yv = (mask >> 1) & 1, zv = (mask >> 2) & 1;
    auto mk = [&](int kind, bool value, const char* name) -> boolean {
      if (kind == 0) return boolean::constant(value);
      r1cs::scoped_namespace ns(ts, name);
      auto b = allocated_bit::alloc(ts, kind == 1 ? value : !value);
      EXPECT_TRUE(b.ok());
      return kind == 1 ? boolean(*b) : boolean::negated(*b);
    };
    int id = 0;
    for (int ka = 0; ka < 3; ++ka)
      for (int kb = 0; kb < 3; ++kb)
        for (int kc = 0; kc < 3; ++kc) {
          r1cs::scoped_namespace ns(ts, [id] { return "case " + std::to_string(id); });
          ++id;
          const boolean a = mk(ka, xv, "a"), b = mk(kb, yv, "b"), c = mk(kc, zv, "c");
          ASSERT_EQ(a.get_value(), xv);
          auto check = [&](r1cs::result<boolean> r, bool expect, const char* what) {
            ASSERT_TRUE(r.ok());
            EXPECT_EQ(r->get_value(), expect) << what << " kinds " << ka << kb << kc;
          };
          { r1cs::scoped_namespace n(ts, "xor"); check(boolean::xor_(ts, a, b), xv != yv, "xor"); }
          { r1cs::scoped_namespace n(ts, "and"); check(boolean::and_(ts, a, b), xv && yv, "and"); }
          { r1cs::scoped_namespace n(ts, "or"); check(boolean::or_(ts, a, b), xv || yv, "or"); }
          { r1cs::scoped_namespace n(ts, "ch"); check(boolean::sha256_ch(ts, a, b, c), xv ? yv : zv, "ch"); }
          { r1cs::scoped_namespace n(ts, "maj"); check(boolean::sha256_maj(ts, a, b, c), (xv + yv + zv) >= 2, "maj"); }
        }
    EXPECT_TRUE(ts.is_satisfied());
  }
}

// bellpepper's forms: alloc (ONE - b) * b = 0; xor (a + a) * b = a + b - r.
TEST(boolean_gadget, ConstraintForms) {
  test_system ts;
  ts.push_namespace("a");
  const auto a = allocated_bit::alloc(ts, true);
  ts.pop_namespace();
  ts.push_namespace("b");
  const auto b = allocated_bit::alloc(ts, false);
  ts.pop_namespace();
  ASSERT_TRUE(a.ok() && b.ok());
  const auto r = allocated_bit::xor_(ts, *a, *b);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(ts.num_constraints(), 3u);
  const auto& k0 = ts.constraints()[0];
  EXPECT_EQ(k0.a, linear_combination(variable::one()) - a->var);
  EXPECT_EQ(k0.b, linear_combination(a->var));
  EXPECT_TRUE(k0.c.empty());
  const auto& k2 = ts.constraints()[2];
  EXPECT_EQ(k2.a, linear_combination(a->var, fr::from_u64(2)));
  EXPECT_EQ(k2.b, linear_combination(b->var));
  EXPECT_EQ(k2.c, linear_combination(a->var) + b->var - r->var);
  EXPECT_EQ(ts.constraints()[0].path, "a/boolean constraint");
  EXPECT_EQ(ts.constraints()[2].path, "xor constraint");
  EXPECT_TRUE(r->value);
}

TEST(boolean_gadget, OpsInstanceRejectsEveryChange) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  for (int i = 0; i < 4; ++i) {
    instances::boolean_ops c{(rng() & 1) != 0, (rng() & 1) != 0, (rng() & 1) != 0};
    test::synthesized s = test::synthesize_all(c);
    test::expect_every_change_detected(s.ts, test::all_positions(s.shape.num_aux));
  }
}

TEST(num_gadget, OpsValuesAndEveryChange) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  for (int i = 0; i < 4; ++i) {
    instances::num_ops c;
    c.a = fr::random(rng);
    c.b = fr::random(rng);
    c.c = (rng() & 1) != 0;
    for (fr& t : c.table) t = fr::random(rng);
    c.index = static_cast<uint8_t>(rng() & 3);
    test::synthesized s = test::synthesize_all(c);
    // aux: a, b, a*b, a^2, a+b, cond, rev1, rev2, pick, table[4], index bits[2], select picks[3], inv
    const auto aux = s.ts.aux();
    EXPECT_EQ(s.ts.inputs()[1], c.a);
    EXPECT_EQ(aux[2], c.a * c.b);
    EXPECT_EQ(aux[3], c.a * c.a);
    EXPECT_EQ(aux[4], c.a + c.b);
    EXPECT_EQ(aux[6], c.c ? c.b : c.a);
    EXPECT_EQ(aux[7], c.c ? c.a : c.b);
    EXPECT_EQ(aux[8], c.c ? c.b : c.a);  // pick(not cond, a, b)
    EXPECT_EQ(aux[17], c.table[c.index]);
    EXPECT_EQ(aux[18] * c.a, fr::one());
    // The table entries (aux 9..12) are free witness inputs: only the selected one is bound,
    // through the select output, so changing one alone need not be detected.
    std::vector<std::size_t> bound;
    for (std::size_t j = 0; j < s.shape.num_aux; ++j)
      if (j < 9 || j > 12) bound.push_back(j);
    test::expect_every_change_detected(s.ts, bound);
  }
}

fr from_bits(const std::vector<boolean>& bits) {
  fr acc = fr::zero(), p = fr::one();
  for (const boolean& b : bits) {
    if (b.get_value()) acc += p;
    p = p + p;
  }
  return acc;
}

// to_bits_le (non-strict): 256 constraints; strict: the canonical bits, also for r - 1.
TEST(num_gadget, ToBitsLe) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  for (const fr& x : {fr::random(rng), fr::zero(), -fr::one(), fr::random(rng)}) {
    for (bool strict : {false, true}) {
      instances::num_to_bits_le c{x, strict};
      test::synthesized s = test::synthesize_all(c);
      if (!strict) {
        EXPECT_EQ(s.shape.num_constraints, 256u);
      }
      test_system ts;
      auto n = allocated_num::alloc(ts, [&] { return x; });
      ASSERT_TRUE(n.ok());
      auto bits = strict ? n->to_bits_le_strict(ts) : n->to_bits_le(ts);
      ASSERT_TRUE(bits.ok());
      EXPECT_EQ(bits->size(), 255u);
      EXPECT_EQ(from_bits(*bits), x);
      EXPECT_TRUE(ts.is_satisfied());
      test::expect_every_change_detected(s.ts, test::all_positions(s.shape.num_aux));
      if (!strict) {  // the native twin: the number, then its 255 bits
        std::vector<fr> twin(256);
        twin[0] = x;
        witness::buffer_sink sink(twin.data() + 1);
        witness::to_bits_le(sink, x);
        EXPECT_EQ(twin, s.wb_aux);
      }
    }
  }
}

// add_many: result bits for n operands, sum mod 2^32, and the MultiEq flush at destruction.
TEST(uint32_gadget, AddManyAndRejectsEveryChange) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  instances::uint32_add_many<7> c;
  for (uint32_t& v : c.ops) v = static_cast<uint32_t>(rng());
  test::synthesized s = test::synthesize_all(c);
  EXPECT_EQ(s.shape.num_constraints, 7u * 32 + 35 + 1);
  uint64_t sum = 0;
  for (uint32_t v : c.ops) sum += v;
  for (unsigned i = 0; i < 35; ++i) EXPECT_EQ(s.ts.aux()[7 * 32 + i], ((sum >> i) & 1) ? fr::one() : fr::zero());
  test::expect_every_change_detected(s.ts, test::all_positions(s.shape.num_aux));
  EXPECT_EQ(uint32::add_many_bits(2), 33u);
  EXPECT_EQ(uint32::add_many_bits(4), 34u);
  EXPECT_EQ(uint32::add_many_bits(7), 35u);
  EXPECT_EQ(uint32::add_many_bits(8), 35u);
  EXPECT_EQ(uint32::add_many_bits(9), 36u);
}

// MultiEq packs equalities until 254 bits would be exceeded: 8 additions of 2 operands (33 bits
// each) fit 7 per constraint (231 bits), so 8 sums give 2 packed constraints.
TEST(uint32_gadget, MultiEqFlushes) {
  r1cs::shape_recorder rec;
  {
    multi_eq<r1cs::shape_recorder> me(rec);
    const uint32 a = *uint32::alloc(rec, 1), b = *uint32::alloc(rec, 2);
    const std::array<uint32, 2> ops{a, b};
    for (int i = 0; i < 8; ++i) (void)uint32::add_many(me, std::span<const uint32>(ops));
    EXPECT_EQ(rec.num_constraints(), 64u + 8 * 33 + 1);  // the first pack flushed on the 8th
  }
  EXPECT_EQ(rec.num_constraints(), 64u + 8 * 33 + 2);  // the rest flushed at destruction
}

// pack_into_inputs = compute_multipacking; bytes_to_bits orders.
TEST(multipack_gadget, InputsMatchComputeMultipacking) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  instances::pack_inputs_300 c;
  for (std::size_t i = 0; i < c.bits.size(); ++i) c.bits[i] = (rng() & 1) != 0;
  test::synthesized s = test::synthesize_all(c);
  const std::vector<fr> packed = compute_multipacking(c.bits);
  ASSERT_EQ(packed.size(), 2u);
  EXPECT_EQ(s.ts.inputs()[1], packed[0]);
  EXPECT_EQ(s.ts.inputs()[2], packed[1]);
  test::expect_every_change_detected(s.ts, test::all_positions(s.shape.num_aux));
  const std::array<uint8_t, 1> byte{0x81};
  EXPECT_EQ(bytes_to_bits(byte), (std::vector<bool>{1, 0, 0, 0, 0, 0, 0, 1}));
  const std::array<uint8_t, 1> byte2{0x03};
  EXPECT_EQ(bytes_to_bits_le(byte2), (std::vector<bool>{1, 1, 0, 0, 0, 0, 0, 0}));
}

}  // namespace
}  // namespace cuzk::gadgets
