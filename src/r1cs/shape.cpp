#include "r1cs/shape.hpp"

#include <cstring>
#include <stdexcept>

#include "r1cs/blake2s.hpp"

namespace cuzk::r1cs {

namespace {

void put_u64_be(uint8_t* out, uint64_t x) {
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<uint8_t>(x);
    x >>= 8;
  }
}

}  // namespace

std::array<uint8_t, 32> compute_shape_hash(const r1cs_shape& s) {
  // The coefficient bytes, once per distinct coefficient.
  std::vector<std::array<uint8_t, fr::bytes>> coeff_bytes(s.coeffs.size());
  for (std::size_t i = 0; i < s.coeffs.size(); ++i) s.coeffs[i].to_bytes_be(coeff_bytes[i].data());

  blake2s_256 h;
  uint8_t header[24];
  put_u64_be(header, s.num_inputs);
  put_u64_be(header + 8, s.num_aux);
  put_u64_be(header + 16, s.num_constraints);
  h.update(header, sizeof header);

  // Terms are staged in a buffer so that BLAKE2s sees large updates.
  constexpr std::size_t buf_size = 1 << 16;
  constexpr std::size_t max_entry = 9 + fr::bytes;
  std::vector<uint8_t> storage(buf_size);
  uint8_t* const buf = storage.data();
  std::size_t len = 0;
  const uint64_t ni = s.num_inputs;
  for (std::size_t r = 0; r < s.num_constraints; ++r) {
    for (const csr_matrix* m : {&s.a, &s.b, &s.c}) {
      const uint64_t begin = m->row_ptr[r], end = m->row_ptr[r + 1];
      if (len + 8 > buf_size) {
        h.update(buf, len);
        len = 0;
      }
      put_u64_be(buf + len, end - begin);
      len += 8;
      for (uint64_t k = begin; k < end; ++k) {
        if (len + max_entry > buf_size) {
          h.update(buf, len);
          len = 0;
        }
        const uint64_t col = m->cols[k];
        buf[len] = col < ni ? 'I' : 'A';
        put_u64_be(buf + len + 1, col < ni ? col : col - ni);
        std::memcpy(buf + len + 9, coeff_bytes[m->coeff_ids[k]].data(), fr::bytes);
        len += max_entry;
      }
    }
  }
  h.update(buf, len);
  return h.finalize();
}

std::string r1cs_shape::hash_hex() const { return to_hex(hash); }

std::vector<term> r1cs_shape::row_terms(const csr_matrix& m, std::size_t row) const {
  std::vector<term> out;
  for (uint64_t k = m.row_ptr[row]; k < m.row_ptr[row + 1]; ++k) {
    const std::size_t col = m.cols[k];
    const variable v = col < num_inputs ? variable::input(col) : variable::aux(col - num_inputs);
    out.push_back({v, coeffs[m.coeff_ids[k]]});
  }
  return out;
}

namespace {

// <row r of m, w>; x(col) is w[col].
inline fr row_dot(const csr_matrix& m, std::size_t r, const fr* in, const fr* ax, std::size_t ni, const fr* coeffs) {
  fr acc = fr::zero();
  const uint32_t* cols = m.cols.data();
  const uint32_t* ids = m.coeff_ids.data();
  for (uint64_t k = m.row_ptr[r], end = m.row_ptr[r + 1]; k < end; ++k) {
    const uint32_t col = cols[k];
    const fr& x = col < ni ? in[col] : ax[col - ni];
    const uint32_t id = ids[k];
    if (id == coeff_id_one) {
      acc += x;
    } else if (id == coeff_id_minus_one) {
      acc -= x;
    } else {
      acc += x * coeffs[id];
    }
  }
  return acc;
}

void check_sizes(const r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux, const char* what) {
  if (inputs.size() != shape.num_inputs || aux.size() != shape.num_aux)
    throw std::invalid_argument(std::string(what) + ": assignment sizes do not match the shape");
}

// ~4 entries per row on typical circuits: 4096 rows is ~16k products per task, large enough to
// amortise a task and small enough to balance rows of very different lengths.
constexpr std::size_t rows_per_task = 4096;

}  // namespace

void spmv(const r1cs_shape& shape, const csr_matrix& m, std::span<const fr> inputs, std::span<const fr> aux,
          std::span<fr> out, base::executor& exec) {
  check_sizes(shape, inputs, aux, "r1cs::spmv");
  if (out.size() != m.rows()) throw std::invalid_argument("r1cs::spmv: output size != rows");
  const std::size_t ni = shape.num_inputs;
  exec.parallel_for(m.rows(), rows_per_task, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) out[r] = row_dot(m, r, inputs.data(), aux.data(), ni, shape.coeffs.data());
  });
}

void evaluate_abc_into(const r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                       std::span<fr> a, std::span<fr> b, std::span<fr> c, base::executor& exec,
                       input_constraints extra) {
  check_sizes(shape, inputs, aux, "r1cs::evaluate_abc");
  const std::size_t n = shape.num_constraints;
  const std::size_t ni = shape.num_inputs;
  const std::size_t total = extra == input_constraints::append ? n + ni : n;
  if (a.size() != total || b.size() != total || c.size() != total)
    throw std::invalid_argument("r1cs::evaluate_abc: output sizes do not match the shape");
  if (shape.a.rows() != n || shape.b.rows() != n || shape.c.rows() != n)
    throw std::invalid_argument("r1cs::evaluate_abc: malformed shape");
  const fr* in = inputs.data();
  const fr* ax = aux.data();
  const fr* coeffs = shape.coeffs.data();
  exec.parallel_for(total, rows_per_task, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      if (r < n) {
        a[r] = row_dot(shape.a, r, in, ax, ni, coeffs);
        b[r] = row_dot(shape.b, r, in, ax, ni, coeffs);
        c[r] = row_dot(shape.c, r, in, ax, ni, coeffs);
      } else {  // bellperson's input constraint input_i * 0 = 0
        a[r] = in[r - n];
        b[r] = fr::zero();
        c[r] = fr::zero();
      }
    }
  });
}

abc_vectors evaluate_abc(const r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                         base::executor& exec, input_constraints extra) {
  check_sizes(shape, inputs, aux, "r1cs::evaluate_abc");
  const std::size_t total = extra == input_constraints::append ? shape.num_constraints + shape.num_inputs
                                                               : shape.num_constraints;
  abc_vectors v;
  v.a.resize(total);
  v.b.resize(total);
  v.c.resize(total);
  evaluate_abc_into(shape, inputs, aux, v.a, v.b, v.c, exec, extra);
  return v;
}

}  // namespace cuzk::r1cs
