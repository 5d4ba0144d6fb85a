// The pinned gadget instances: small whole circuits, each exercising one gadget with
// Filecoin's input pattern, whose counts and shape hashes the tests pin and `cuzk circuit-info`
// prints. Each is a struct of witness inputs (defaults give the shape; any values give the same
// shape) with `synthesize(cs)`. Names are registered in circuit_registry.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/circuit/boolean.hpp"
#include "gadgets/circuit/multipack.hpp"
#include "gadgets/circuit/num.hpp"
#include "gadgets/circuit/sha256.hpp"
#include "gadgets/circuit/sha256_label.hpp"
#include "gadgets/circuit/uint32.hpp"
#include "gadgets/circuit/uint64.hpp"

namespace cuzk::gadgets::instances {

// Allocates bits[i] for every i whose `constant` flag is clear ("input bit i"), in order;
// constant positions become constant booleans with the given value.
template <r1cs::constraint_system CS>
r1cs::result<std::vector<boolean>> alloc_bits(CS& cs, const std::vector<bool>& values, const std::vector<bool>& constant) {
  std::vector<boolean> out;
  out.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (constant[i]) {
      out.push_back(boolean::constant(values[i]));
      continue;
    }
    r1cs::scoped_namespace ns(cs, [i] { return "input bit " + std::to_string(i); });
    CUZK_R1CS_TRY(allocated_bit b, allocated_bit::alloc(cs, values[i]));
    out.emplace_back(b);
  }
  return out;
}

// "boolean-ops": three allocated bits x, y, z, then every boolean combinator over operand kinds
// {constant 0, constant 1, Is, Not} (xor, and, or, ch, maj), and enforce_equal of two results.
struct boolean_ops {
  bool x = false, y = false, z = false;
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const;
};

// "num-ops": a, b allocated, a inputized, a*b, a^2, a+b, conditionally_reverse(a, b, bit),
// pick, select among 4 by 2 bits, assert_nonzero(a).
struct num_ops {
  fr a = fr::one(), b = fr::one();
  bool c = false;
  std::array<fr, 4> table{fr::one(), fr::one(), fr::one(), fr::one()};
  uint8_t index = 0;  // 0..3
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const;
};

// "num-to-bits-le" / "num-to-bits-le-strict": one allocated number decomposed.
struct num_to_bits_le {
  fr x = fr::zero();
  bool strict = false;
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    CUZK_R1CS_TRY(allocated_num n, allocated_num::alloc(cs, [&] { return x; }));
    r1cs::scoped_namespace ns(cs, "bits");
    if (strict) {
      CUZK_R1CS_TRY(auto bits, n.to_bits_le_strict(cs));
      (void)bits;
    } else {
      CUZK_R1CS_TRY(auto bits, n.to_bits_le(cs));
      (void)bits;
    }
    return r1cs::ok();
  }
};

// "uint32-add-many-N": N allocated uint32 operands summed in one multi_eq.
template <std::size_t N>
struct uint32_add_many {
  std::array<uint32_t, N> ops{};
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    std::array<uint32, N> words;
    for (std::size_t i = 0; i < N; ++i) {
      r1cs::scoped_namespace ns(cs, [i] { return "operand " + std::to_string(i); });
      CUZK_R1CS_TRY(words[i], uint32::alloc(cs, ops[i]));
    }
    multi_eq<CS> me(cs);
    r1cs::scoped_namespace ns(cs, "sum");
    CUZK_R1CS_TRY(uint32 s, uint32::add_many(me, std::span<const uint32>(words)));
    (void)s;
    return r1cs::ok();
  }
};

// "multipack-inputs-300": 300 allocated bits packed into 2 public inputs (254 + 46 bits).
struct pack_inputs_300 {
  std::vector<bool> bits = std::vector<bool>(300, false);
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    CUZK_R1CS_TRY(std::vector<boolean> b, alloc_bits(cs, bits, std::vector<bool>(bits.size(), false)));
    return pack_into_inputs(cs, std::span<const boolean>(b));
  }
};

// "sha256-compression": 512 allocated input bits, one compression from the IV.
struct sha256_compression {
  std::array<uint8_t, 64> block{};
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    const std::vector<bool> v = bytes_to_bits(block);
    CUZK_R1CS_TRY(std::vector<boolean> bits, alloc_bits(cs, v, std::vector<bool>(v.size(), false)));
    r1cs::scoped_namespace ns(cs, "sha256");
    CUZK_R1CS_TRY(sha256_words out, sha256_compression_function(cs, std::span<const boolean>(bits), sha256_iv_words()));
    (void)out;
    return r1cs::ok();
  }
};

// Which bits of the 1,248-byte label preimage are constants in Filecoin's circuit: the pad bit
// of each 255-bit decomposition (bit 248 of the replica id and of each parent after
// reverse_bit_numbering), the layer index and the zero padding of the first block.
std::vector<bool> label_constant_mask();

// "sha256-label-1248": the preimage's non-constant bits allocated as plain bits ("input bit i"),
// then create_label_circuit. The constant bits take the values of `preimage`, so a preimage must
// have zeros at every constant position except the layer (use make_label_preimage).
struct sha256_label {
  std::array<uint8_t, 1248> preimage{};
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    const std::vector<bool> v = bytes_to_bits(preimage);
    CUZK_R1CS_TRY(std::vector<boolean> bits, alloc_bits(cs, v, label_constant_mask()));
    const std::span<const boolean> all(bits);
    const uint32 layer = uint32::from_bits_be(all.subspan(256, 32));
    const uint64 node = uint64::from_bits_be(all.subspan(288, 64));
    std::vector<std::vector<boolean>> parents(label_parents);
    for (std::size_t p = 0; p < label_parents; ++p) {
      const auto s = all.subspan(512 + 256 * p, 256);
      parents[p].assign(s.begin(), s.end());
    }
    r1cs::scoped_namespace ns(cs, "label");
    CUZK_R1CS_TRY(allocated_num label, create_label_circuit(cs, all.first(256), parents, layer, node));
    (void)label;
    return r1cs::ok();
  }
};

// A label preimage: replica id and parents as 32-byte Fr encodings (LE, < 2^255, so byte 31's
// top bit, preimage bit 248 of each, is zero), BE layer and node, zero padding.
std::array<uint8_t, 1248> make_label_preimage(const std::array<uint8_t, 32>& replica_id, uint32_t layer,
                                              uint64_t node,
                                              const std::array<std::array<uint8_t, 32>, 37>& parents);

// --- definitions of the longer ones --------------------------------------------------------

template <r1cs::constraint_system CS>
r1cs::result<void> boolean_ops::synthesize(CS& cs) const {
  std::array<allocated_bit, 3> v;
  const std::array<bool, 3> vals{x, y, z};
  for (std::size_t i = 0; i < 3; ++i) {
    r1cs::scoped_namespace ns(cs, [i] { return "input bit " + std::to_string(i); });
    CUZK_R1CS_TRY(v[i], allocated_bit::alloc(cs, vals[i]));
  }
  // Operand kinds: constant 0, constant 1, Is(x), Not(y).
  const std::array<boolean, 4> kinds{boolean::constant(false), boolean::constant(true), boolean(v[0]),
                                     boolean::negated(v[1])};
  const boolean zb(v[2]);
  std::size_t k = 0;
  auto ns_name = [&k](const char* op) {
    const std::size_t id = k++;
    return [op, id] { return std::string(op) + " " + std::to_string(id); };
  };
  std::vector<boolean> results;
  for (const boolean& a : kinds)
    for (const boolean& b : kinds) {
      {
        r1cs::scoped_namespace ns(cs, ns_name("xor"));
        CUZK_R1CS_TRY(boolean r, boolean::xor_(cs, a, b));
        results.push_back(r);
      }
      {
        r1cs::scoped_namespace ns(cs, ns_name("and"));
        CUZK_R1CS_TRY(boolean r, boolean::and_(cs, a, b));
        results.push_back(r);
      }
      {
        r1cs::scoped_namespace ns(cs, ns_name("or"));
        CUZK_R1CS_TRY(boolean r, boolean::or_(cs, a, b));
        results.push_back(r);
      }
      for (const boolean& c : {kinds[0], kinds[1], zb, zb.not_()}) {
        {
          r1cs::scoped_namespace ns(cs, ns_name("ch"));
          CUZK_R1CS_TRY(boolean r, boolean::sha256_ch(cs, a, b, c));
          results.push_back(r);
        }
        {
          r1cs::scoped_namespace ns(cs, ns_name("maj"));
          CUZK_R1CS_TRY(boolean r, boolean::sha256_maj(cs, a, b, c));
          results.push_back(r);
        }
      }
    }
  // xor(x, y) equals xor(y, x): one enforce_equal between two allocated results.
  r1cs::scoped_namespace ns(cs, "equal");
  CUZK_R1CS_TRY(boolean p, boolean::xor_(cs, boolean(v[0]), boolean(v[1])));
  {
    r1cs::scoped_namespace ns2(cs, "second");
    CUZK_R1CS_TRY(boolean q, boolean::xor_(cs, boolean(v[1]), boolean(v[0])));
    CUZK_R1CS_CHECK(boolean::enforce_equal(cs, p, q));
  }
  CUZK_R1CS_CHECK(boolean::enforce_equal(cs, p, boolean::constant(x != y)));
  return r1cs::ok();
}

template <r1cs::constraint_system CS>
r1cs::result<void> num_ops::synthesize(CS& cs) const {
  allocated_num na, nb;
  {
    r1cs::scoped_namespace ns(cs, "a");
    CUZK_R1CS_TRY(na, allocated_num::alloc(cs, [&] { return a; }));
  }
  {
    r1cs::scoped_namespace ns(cs, "b");
    CUZK_R1CS_TRY(nb, allocated_num::alloc(cs, [&] { return b; }));
  }
  {
    r1cs::scoped_namespace ns(cs, "inputize a");
    CUZK_R1CS_CHECK(na.inputize(cs));
  }
  {
    r1cs::scoped_namespace ns(cs, "a * b");
    CUZK_R1CS_TRY(allocated_num r, na.mul(cs, nb));
    (void)r;
  }
  {
    r1cs::scoped_namespace ns(cs, "a^2");
    CUZK_R1CS_TRY(allocated_num r, na.square(cs));
    (void)r;
  }
  {
    r1cs::scoped_namespace ns(cs, "a + b");
    CUZK_R1CS_TRY(allocated_num r, na.add(cs, nb));
    (void)r;
  }
  allocated_bit cbit;
  {
    r1cs::scoped_namespace ns(cs, "condition");
    CUZK_R1CS_TRY(cbit, allocated_bit::alloc(cs, c));
  }
  {
    r1cs::scoped_namespace ns(cs, "reverse");
    CUZK_R1CS_TRY(auto r, allocated_num::conditionally_reverse(cs, na, nb, boolean(cbit)));
    (void)r;
  }
  {
    r1cs::scoped_namespace ns(cs, "pick");
    CUZK_R1CS_TRY(allocated_num r, pick(cs, boolean::negated(cbit), na, nb));
    (void)r;
  }
  std::vector<allocated_num> t(4);
  for (std::size_t i = 0; i < 4; ++i) {
    r1cs::scoped_namespace ns(cs, [i] { return "table " + std::to_string(i); });
    CUZK_R1CS_TRY(t[i], allocated_num::alloc(cs, [&] { return table[i]; }));
  }
  std::vector<boolean> idx;
  for (unsigned i = 0; i < 2; ++i) {
    r1cs::scoped_namespace ns(cs, [i] { return "index bit " + std::to_string(i); });
    CUZK_R1CS_TRY(allocated_bit ib, allocated_bit::alloc(cs, ((index >> i) & 1) != 0));
    idx.emplace_back(ib);
  }
  {
    r1cs::scoped_namespace ns(cs, "select");
    CUZK_R1CS_TRY(allocated_num r, select(cs, t, idx));
    (void)r;
  }
  r1cs::scoped_namespace ns(cs, "nonzero a");
  return na.assert_nonzero(cs);
}

}  // namespace cuzk::gadgets::instances
