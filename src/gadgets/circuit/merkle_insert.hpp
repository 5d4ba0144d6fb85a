// storage-proofs-core's insertion gadget (gadgets/insertion.rs insert): places the current node
// among its arity - 1 allocated siblings at the position given by index bits (LE), producing
// the arity allocated children the level's hash takes. Shapes are storage-proofs-core's:
//   arity 2: 2 picks ("binary insert 0/1")                         2 constraints
//   arity 4: 8 picks (p0_x0, p0, p1_x0, p1, p2_x1, p2, p3_x1, p3)  8
//   arity 8: nor(b0, b1), and(b0, b1), then 20 picks              22
//   other:   one select over arity candidates per position ("choice at i"): arity (arity - 1)
// Every pick allocates its result ("pick result") and enforces (b - a) * cond = b - c.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "gadgets/circuit/boolean.hpp"
#include "gadgets/circuit/num.hpp"

namespace cuzk::gadgets {

namespace merkle_detail {

template <class CS>
r1cs::result<allocated_num> named_pick(CS& cs, const char* name, const boolean& cond, const allocated_num& a,
                                       const allocated_num& b) {
  r1cs::scoped_namespace ns(cs, name);
  return pick(cs, cond, a, b);
}

template <class CS>
r1cs::result<std::vector<allocated_num>> insert_2(CS& cs, const allocated_num& x, const std::vector<boolean>& bits,
                                                  const std::vector<allocated_num>& e) {
  CUZK_R1CS_TRY(allocated_num p0, named_pick(cs, "binary insert 0", bits[0], e[0], x));
  CUZK_R1CS_TRY(allocated_num p1, named_pick(cs, "binary insert 1", bits[0], x, e[0]));
  return std::vector<allocated_num>{p0, p1};
}

// Inserting A into [b, c, d] at n = b0 + 2 b1; `pN_xK` is position N while b1 = K.
template <class CS>
r1cs::result<std::vector<allocated_num>> insert_4(CS& cs, const allocated_num& a, const std::vector<boolean>& bits,
                                                  const std::vector<allocated_num>& e) {
  const boolean &b0 = bits[0], &b1 = bits[1];
  const allocated_num &b = e[0], &c = e[1], &d = e[2];
  CUZK_R1CS_TRY(allocated_num p0_x0, named_pick(cs, "p0_x0", b0, b, a));
  CUZK_R1CS_TRY(allocated_num p0, named_pick(cs, "p0", b1, b, p0_x0));
  CUZK_R1CS_TRY(allocated_num p1_x0, named_pick(cs, "p1_x0", b0, a, b));
  CUZK_R1CS_TRY(allocated_num p1, named_pick(cs, "p1", b1, c, p1_x0));
  CUZK_R1CS_TRY(allocated_num p2_x1, named_pick(cs, "p2_x1", b0, d, a));
  CUZK_R1CS_TRY(allocated_num p2, named_pick(cs, "p2", b1, p2_x1, c));
  CUZK_R1CS_TRY(allocated_num p3_x1, named_pick(cs, "p3_x1", b0, a, d));
  CUZK_R1CS_TRY(allocated_num p3, named_pick(cs, "p3", b1, p3_x1, d));
  return std::vector<allocated_num>{p0, p1, p2, p3};
}

// Inserting A into [b .. h] at n = b0 + 2 b1 + 4 b2, with the shared conditions
// nor(b0, b1) (n mod 4 = 0) and and(b0, b1) (n mod 4 = 3).
template <class CS>
r1cs::result<std::vector<allocated_num>> insert_8(CS& cs, const allocated_num& a, const std::vector<boolean>& bits,
                                                  const std::vector<allocated_num>& el) {
  if (bits[0].get_kind() != boolean::kind::is || bits[1].get_kind() != boolean::kind::is)
    throw std::invalid_argument("merkle insert_8: index bits must be allocated and unnegated");
  const boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  const allocated_num &b = el[0], &c = el[1], &d = el[2], &e = el[3], &f = el[4], &g = el[5], &h = el[6];
  allocated_bit nor_bit, and_bit;
  {
    r1cs::scoped_namespace ns(cs, "b0 nor b1");
    CUZK_R1CS_TRY(nor_bit, allocated_bit::nor(cs, b0.bit(), b1.bit()));
  }
  {
    r1cs::scoped_namespace ns(cs, "b0 and b1");
    CUZK_R1CS_TRY(and_bit, allocated_bit::and_(cs, b0.bit(), b1.bit()));
  }
  const boolean b0_nor_b1(nor_bit), b0_and_b1(and_bit);

  CUZK_R1CS_TRY(allocated_num p0_xx0, named_pick(cs, "p0_xx0", b0_nor_b1, a, b));
  CUZK_R1CS_TRY(allocated_num p0, named_pick(cs, "p0", b2, b, p0_xx0));

  CUZK_R1CS_TRY(allocated_num p1_x00, named_pick(cs, "p1_x00", b0, a, b));
  CUZK_R1CS_TRY(allocated_num p1_xx0, named_pick(cs, "p1_xx0", b1, c, p1_x00));
  CUZK_R1CS_TRY(allocated_num p1, named_pick(cs, "p1", b2, c, p1_xx0));

  CUZK_R1CS_TRY(allocated_num p2_x10, named_pick(cs, "p2_x10", b0, d, a));
  CUZK_R1CS_TRY(allocated_num p2_xx0, named_pick(cs, "p2_xx0", b1, p2_x10, c));
  CUZK_R1CS_TRY(allocated_num p2, named_pick(cs, "p2", b2, d, p2_xx0));

  CUZK_R1CS_TRY(allocated_num p3_xx0, named_pick(cs, "p3_xx0", b0_and_b1, a, d));
  CUZK_R1CS_TRY(allocated_num p3, named_pick(cs, "p3", b2, e, p3_xx0));

  CUZK_R1CS_TRY(allocated_num p4_xx1, named_pick(cs, "p4_xx1", b0_nor_b1, a, f));
  CUZK_R1CS_TRY(allocated_num p4, named_pick(cs, "p4", b2, p4_xx1, e));

  CUZK_R1CS_TRY(allocated_num p5_x01, named_pick(cs, "p5_x01", b0, a, f));
  CUZK_R1CS_TRY(allocated_num p5_xx1, named_pick(cs, "p5_xx1", b1, g, p5_x01));
  CUZK_R1CS_TRY(allocated_num p5, named_pick(cs, "p5", b2, p5_xx1, f));

  CUZK_R1CS_TRY(allocated_num p6_x11, named_pick(cs, "p6_x11", b0, h, a));
  CUZK_R1CS_TRY(allocated_num p6_xx1, named_pick(cs, "p6_xx1", b1, p6_x11, g));
  CUZK_R1CS_TRY(allocated_num p6, named_pick(cs, "p6", b2, p6_xx1, g));

  CUZK_R1CS_TRY(allocated_num p7_xx1, named_pick(cs, "p7_xx1", b0_and_b1, a, h));
  CUZK_R1CS_TRY(allocated_num p7, named_pick(cs, "p7", b2, p7_xx1, h));
  return std::vector<allocated_num>{p0, p1, p2, p3, p4, p5, p6, p7};
}

}  // namespace merkle_detail

// Inserts `element` after the first n of `elements`, n given by `bits` (LE);
// elements.size() + 1 must equal 2^bits.size() (std::invalid_argument otherwise).
template <r1cs::constraint_system CS>
r1cs::result<std::vector<allocated_num>> merkle_insert(CS& cs, const allocated_num& element,
                                                       const std::vector<boolean>& bits,
                                                       const std::vector<allocated_num>& elements) {
  const std::size_t size = elements.size() + 1;
  if (bits.size() >= 63 || (std::size_t{1} << bits.size()) != size)
    throw std::invalid_argument("merkle_insert: elements + 1 must be 2^(index bits)");
  if (size == 2) return merkle_detail::insert_2(cs, element, bits, elements);
  if (size == 4) return merkle_detail::insert_4(cs, element, bits, elements);
  if (size == 8) return merkle_detail::insert_8(cs, element, bits, elements);
  // General case: position pos takes candidate `index` of column pos of the result table
  // (element at `index`, the others shifted).
  std::vector<allocated_num> out;
  for (std::size_t pos = 0; pos < size; ++pos) {
    std::vector<allocated_num> choices;
    for (std::size_t index = 0; index < size; ++index)
      choices.push_back(pos < index ? elements[pos] : pos == index ? element : elements[pos - 1]);
    r1cs::scoped_namespace ns(cs, [pos] { return "choice at " + std::to_string(pos); });
    CUZK_R1CS_TRY(allocated_num c, select(cs, choices, bits));
    out.push_back(c);
  }
  return out;
}

}  // namespace cuzk::gadgets
