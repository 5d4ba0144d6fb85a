#include "r1cs/shape_recorder.hpp"

#include <stdexcept>

namespace cuzk::r1cs {

shape_recorder::shape_recorder() {
  for (csr_matrix* m : {&a_, &b_, &c_}) m->row_ptr.push_back(0);
  coeffs_.push_back(fr::one());
  coeffs_.push_back(-fr::one());
  coeff_index_.emplace(fr::one().v, coeff_id_one);
  coeff_index_.emplace((-fr::one()).v, coeff_id_minus_one);
}

uint32_t shape_recorder::coeff_id(const fr& c) {
  if (c.is_one()) return coeff_id_one;
  if (c == coeffs_[coeff_id_minus_one]) return coeff_id_minus_one;
  auto [it, inserted] = coeff_index_.try_emplace(c.v, static_cast<uint32_t>(coeffs_.size()));
  if (inserted) {
    if (coeffs_.size() >= UINT32_MAX) throw std::length_error("shape_recorder: too many distinct coefficients");
    coeffs_.push_back(c);
  }
  return it->second;
}

void shape_recorder::append_row(csr_matrix& m, const linear_combination& lc) {
  for (const term& t : lc.terms()) {
    if (t.coeff.is_zero()) continue;
    const std::size_t idx = t.var.index();
    if (t.var.is_input()) {
      if (idx >= num_inputs_) throw std::out_of_range("shape_recorder: constraint uses an unallocated input");
      m.cols.push_back(static_cast<uint32_t>(idx));
    } else {
      if (idx >= num_aux_) throw std::out_of_range("shape_recorder: constraint uses an unallocated aux variable");
      if (idx >= aux_tag) throw std::length_error("shape_recorder: more than 2^31 aux variables");
      m.cols.push_back(aux_tag | static_cast<uint32_t>(idx));
    }
    m.coeff_ids.push_back(coeff_id(t.coeff));
  }
  m.row_ptr.push_back(m.cols.size());
}

r1cs_shape shape_recorder::finish(shape_hash hash) && {
  if (num_inputs_ > aux_tag) throw std::length_error("shape_recorder: more than 2^31 inputs");
  if (num_inputs_ + num_aux_ > UINT32_MAX) throw std::length_error("shape_recorder: more than 2^32 columns");

  r1cs_shape s;
  s.num_constraints = num_constraints_;
  s.num_inputs = num_inputs_;
  s.num_aux = num_aux_;
  s.a_aux_density = density_bitmap(num_aux_);
  s.b_input_density = density_bitmap(num_inputs_);
  s.b_aux_density = density_bitmap(num_aux_);

  const uint32_t ni = static_cast<uint32_t>(num_inputs_);
  // Column fix-up and densities in one pass; C has no density (bellperson: full-density query).
  auto fix = [&](csr_matrix& m, density_bitmap* input_density, density_bitmap* aux_density) {
    for (uint32_t& col : m.cols) {
      if (col & aux_tag) {
        const uint32_t j = col & ~aux_tag;
        if (aux_density) aux_density->set(j);
        col = ni + j;
      } else if (input_density) {
        input_density->set(col);
      }
    }
  };
  fix(a_, nullptr, &s.a_aux_density);
  fix(b_, &s.b_input_density, &s.b_aux_density);
  fix(c_, nullptr, nullptr);

  s.a = std::move(a_);
  s.b = std::move(b_);
  s.c = std::move(c_);
  s.coeffs = std::move(coeffs_);
  coeff_index_.clear();
  if (hash == shape_hash::compute) s.hash = compute_shape_hash(s);
  return s;
}

}  // namespace cuzk::r1cs
