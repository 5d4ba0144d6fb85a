#include "groth16/batch_verifier.hpp"

namespace cuzk::groth16 {

namespace {

// The items that share one key.
struct key_group {
  const prepared_verifying_key* pvk;
  std::vector<fr> ic_coeffs;  // sum_j r_j x_{j,i}, with x_{j,0} = 1 (ONE)
  ec::g1_jacobian c_acc = ec::g1_jacobian::identity();  // sum_j r_j C_j
};

}  // namespace

verify_result verify_batch(std::span<const batch_item> items, std::span<const fr> coefficients) {
  if (coefficients.size() != items.size()) return verify_result::bad_argument;
  for (std::size_t j = 0; j < items.size(); ++j) {
    if (items[j].pvk == nullptr || items[j].p == nullptr || coefficients[j].is_zero()) return verify_result::bad_argument;
  }
  for (const batch_item& it : items) {
    if (it.pvk->ic.empty() || it.public_inputs.size() != it.pvk->ic.size() - 1) return verify_result::wrong_input_count;
  }
  if (items.empty()) return verify_result::valid;

  std::vector<key_group> groups;
  std::vector<ec::g1_jacobian> ra(items.size());  // r_j A_j
  for (std::size_t j = 0; j < items.size(); ++j) {
    const batch_item& it = items[j];
    const fr& r = coefficients[j];
    key_group* g = nullptr;
    for (key_group& k : groups) {
      if (k.pvk == it.pvk) g = &k;
    }
    if (g == nullptr) {
      groups.push_back({it.pvk, std::vector<fr>(it.pvk->ic.size(), fr::zero())});
      g = &groups.back();
    }
    g->ic_coeffs[0] += r;
    for (std::size_t i = 0; i < it.public_inputs.size(); ++i) g->ic_coeffs[i + 1] += r * it.public_inputs[i];
    g->c_acc += ec::scalar_mul(ec::g1_jacobian::from_affine(it.p->c), r);
    ra[j] = ec::scalar_mul(ec::g1_jacobian::from_affine(it.p->a), r);
  }

  std::vector<g1_affine> ra_affine(items.size());
  ec::batch_to_affine(std::span<const ec::g1_jacobian>(ra), std::span<g1_affine>(ra_affine));
  std::vector<pairing::g1g2_pair> ab(items.size());
  for (std::size_t j = 0; j < items.size(); ++j) ab[j] = {ra_affine[j], items[j].p->b};

  std::vector<pairing::g1_prepared_pair> prepared;
  prepared.reserve(2 * groups.size());
  ff::fp12 expected = ff::fp12::one();
  for (const key_group& k : groups) {
    // ic_coeffs[0] = sum_j r_j: the exponent of e(alpha, beta) for this key.
    expected *= k.pvk->alpha_g1_beta_g2.pow(k.ic_coeffs[0].to_canonical());
    prepared.push_back({detail::linear_combination(k.pvk->ic, k.ic_coeffs).to_affine(), &k.pvk->neg_gamma_g2});
    prepared.push_back({k.c_acc.to_affine(), &k.pvk->neg_delta_g2});
  }
  const ff::fp12 f = pairing::multi_miller_loop(std::span<const pairing::g1g2_pair>(ab)) *
                     pairing::multi_miller_loop(std::span<const pairing::g1_prepared_pair>(prepared));
  return pairing::final_exponentiation(f) == expected ? verify_result::valid : verify_result::invalid;
}

}  // namespace cuzk::groth16
