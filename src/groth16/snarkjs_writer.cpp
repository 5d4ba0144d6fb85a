#include "groth16/snarkjs_writer.hpp"

#include <cstring>
#include <stdexcept>

#include "ff/bls12_381.hpp"
#include "groth16/digest.hpp"
#include "groth16/file_io.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "poly/ntt.hpp"

namespace cuzk::groth16::snarkjs {

namespace {

// L_j(tau) for x_j = omega^(first + step * j), j < count, on the domain of size domain_n:
// (tau^N - 1) / N * x_j / (tau - x_j). Chunks of the range each do one batch inversion
// (Montgomery's trick: 3 multiplications per element) and a few more for the chunk's first power.
std::vector<fr> lagrange_at(const fr& tau, const fr& omega, std::size_t domain_n, uint64_t first, uint64_t step,
                            std::size_t count, base::executor& ex) {
  const fr zn = tau.pow_u64(domain_n) - fr::one();
  if (zn.is_zero()) throw setup_error(setup_errc::tau_in_domain, "snarkjs::make_zkey: tau is in the evaluation domain");
  const fr scale = zn * fr::from_u64(domain_n).inverse();
  const fr stride = omega.pow_u64(step);
  std::vector<fr> out(count);
  ex.parallel_for(count, 4096, [&](std::size_t lo, std::size_t hi) {
    std::vector<fr> x(hi - lo), scratch(hi - lo);
    fr xj = omega.pow_u64(first) * stride.pow_u64(lo);
    for (std::size_t j = lo; j < hi; ++j) {
      x[j - lo] = xj;
      out[j] = tau - xj;  // nonzero: tau^N != 1
      xj = xj * stride;
    }
    ff::batch_inverse(out.data() + lo, hi - lo, scratch.data());
    for (std::size_t j = lo; j < hi; ++j) out[j] = out[j] * x[j - lo] * scale;
  });
  return out;
}

// out[col] += M[row][col] * lag[row] for every entry of m (serial).
void scatter(const cuzk::r1cs::r1cs_shape& shape, const cuzk::r1cs::csr_matrix& m, const std::vector<fr>& lag, std::vector<fr>& out) {
  for (std::size_t r = 0; r < m.rows(); ++r) {
    for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) out[m.cols[k]] += lag[r] * shape.coeffs[m.coeff_ids[k]];
  }
}

// --- byte output ----------------------------------------------------------------------------------
struct byte_writer {
  std::vector<uint8_t> buf;
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) buf.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) buf.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  template <std::size_t N>
  void bigint(const ff::bigint<N>& x) {
    for (std::size_t i = 0; i < 8 * N; ++i) buf.push_back(static_cast<uint8_t>(x.w[i / 8] >> (8 * (i % 8))));
  }
  void fr_standard(const fr& x) { bigint(x.to_canonical()); }
  // Opens a section: id and a size placeholder, patched by end_section.
  std::size_t begin_section(uint32_t id) {
    u32(id);
    u64(0);
    return buf.size();
  }
  void end_section(std::size_t start) {
    const uint64_t size = buf.size() - start;
    for (int i = 0; i < 8; ++i) buf[start - 8 + i] = static_cast<uint8_t>(size >> (8 * i));
  }
  uint8_t* grow(std::size_t n) {
    buf.resize(buf.size() + n);
    return buf.data() + buf.size() - n;
  }
};

template <class Point, std::size_t Bytes, class Encode>
void put_points(byte_writer& w, const std::vector<Point>& pts, Encode encode, base::executor& ex) {
  uint8_t* out = w.grow(pts.size() * Bytes);
  ex.parallel_for(pts.size(), 4096, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) encode(pts[i], out + i * Bytes);
  });
}

void check_u32(std::size_t v, const char* what) {
  if (v > 0xffffffffu) throw std::invalid_argument(std::string("snarkjs::make_zkey: ") + what + " exceeds 2^32 - 1");
}

}  // namespace

zkey make_zkey(const cuzk::r1cs::r1cs_shape& shape, const toxic_waste& tw, base::executor& ex) {
  const std::size_t ncons = shape.num_constraints, ni = shape.num_inputs, cols = shape.num_columns();
  if (ni == 0) throw std::invalid_argument("snarkjs::make_zkey: the shape has no ONE input");
  if (shape.a.rows() != ncons || shape.b.rows() != ncons || shape.c.rows() != ncons)
    throw std::invalid_argument("snarkjs::make_zkey: malformed shape");
  if (tw.gamma.is_zero() || tw.delta.is_zero())
    throw setup_error(setup_errc::unexpected_identity, "snarkjs::make_zkey: gamma or delta is zero");
  check_u32(cols, "nVars");
  unsigned logn = 0;
  while ((std::size_t{1} << logn) < ncons + ni) ++logn;
  if (logn > 28) throw std::invalid_argument("snarkjs::make_zkey: domain over 2^28");
  const std::size_t n = std::size_t{1} << logn;

  zkey z;
  z.n_vars = static_cast<uint32_t>(cols);
  z.n_public = static_cast<uint32_t>(ni - 1);
  z.domain_size = static_cast<uint32_t>(n);

  // Lagrange basis at tau on snarkjs's domain, the three column evaluations (extra rows: A only).
  const fr omega = ffjs_root_of_unity(logn);
  const std::vector<fr> lag = lagrange_at(tw.tau, omega, n, 0, 1, n, ex);
  std::vector<fr> u(cols, fr::zero()), v(cols, fr::zero()), w(cols, fr::zero());
  ex.parallel_for(3, 1, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t t = lo; t < hi; ++t) {
      if (t == 0) scatter(shape, shape.a, lag, u);
      if (t == 1) scatter(shape, shape.b, lag, v);
      if (t == 2) scatter(shape, shape.c, lag, w);
    }
  });
  for (std::size_t s = 0; s < ni; ++s) u[s] += lag[ncons + s];

  // Section 4: per row the A terms, then the B terms; then the extra rows.
  z.coeffs.reserve(shape.a.nnz() + shape.b.nnz() + ni);
  for (std::size_t r = 0; r < ncons; ++r) {
    for (uint32_t mtx = 0; mtx < 2; ++mtx) {
      const cuzk::r1cs::csr_matrix& m = mtx == 0 ? shape.a : shape.b;
      for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k)
        z.coeffs.push_back({mtx, static_cast<uint32_t>(r), m.cols[k], shape.coeffs[m.coeff_ids[k]]});
    }
  }
  for (std::size_t s = 0; s < ni; ++s)
    z.coeffs.push_back({0, static_cast<uint32_t>(ncons + s), static_cast<uint32_t>(s), fr::one()});

  // Scalars of the fixed-base multiplications.
  const fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  std::vector<fr> ic_s(ni), c_s(cols - ni), h_s;
  ex.parallel_for(cols, 4096, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      const fr t = tw.beta * u[i] + tw.alpha * v[i] + w[i];
      if (i < ni) ic_s[i] = t * gamma_inv;
      else c_s[i - ni] = t * delta_inv;
    }
  });
  // H: L^{2n}_{2i+1}(tau) / delta on the 2n-domain of ffjavascript's 2n-th root.
  h_s = lagrange_at(tw.tau, ffjs_root_of_unity(logn + 1), 2 * n, 1, 2, n, ex);
  ex.parallel_for(n, 4096, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) h_s[i] = h_s[i] * delta_inv;
  });

  using g1_table = fixed_base_table<ec::g1_curve>;
  using g2_table = fixed_base_table<ec::g2_curve>;
  const g1_table t1(tw.g1, g1_table::best_window(n + 4 * cols), ex);
  const g2_table t2(tw.g2, g2_table::best_window(cols), ex);
  z.ic.resize(ni);
  t1.batch_mul(ic_s, z.ic, ex);
  z.a.resize(cols);
  t1.batch_mul(u, z.a, ex);
  z.b_g1.resize(cols);
  t1.batch_mul(v, z.b_g1, ex);
  z.b_g2.resize(cols);
  t2.batch_mul(v, z.b_g2, ex);
  z.c.resize(cols - ni);
  t1.batch_mul(c_s, z.c, ex);
  z.h.resize(n);
  t1.batch_mul(h_s, z.h, ex);

  verifying_key vk;  // the same points as groth16::setup's
  set_vk_points(tw, vk);
  z.alpha_g1 = vk.alpha_g1;
  z.beta_g1 = vk.beta_g1;
  z.beta_g2 = vk.beta_g2;
  z.gamma_g2 = vk.gamma_g2;
  z.delta_g1 = vk.delta_g1;
  z.delta_g2 = vk.delta_g2;
  return z;
}

std::vector<uint8_t> encode_zkey(const zkey& z, base::executor& ex) {
  constexpr uint32_t n8q = 48, n8r = 32;
  const std::size_t npriv = std::size_t{z.n_vars} - z.n_public - 1;
  if (z.ic.size() != std::size_t{z.n_public} + 1 || z.a.size() != z.n_vars || z.b_g1.size() != z.n_vars ||
      z.b_g2.size() != z.n_vars || z.c.size() != npriv || z.h.size() != z.domain_size)
    throw std::invalid_argument("snarkjs::encode_zkey: point counts disagree with nVars / nPublic / domainSize");
  check_u32(z.coeffs.size(), "coefficient count");

  byte_writer w;
  const std::size_t total = 12 + 10 * 12 + 4 + 3 * 4 + n8q + n8r + 4 * 96 + 3 * 192 + 4 + z.coeffs.size() * 44 +
                            (z.ic.size() + 3 * z.n_vars + npriv + z.domain_size) * 96 + z.n_vars * 96 + 68;
  w.buf.reserve(total);
  w.buf.insert(w.buf.end(), {'z', 'k', 'e', 'y'});
  w.u32(1);   // version
  w.u32(10);  // sections

  std::size_t s = w.begin_section(1);
  w.u32(1);  // Groth16
  w.end_section(s);

  const std::size_t hashed_from = w.buf.size();
  s = w.begin_section(2);
  w.u32(n8q);
  w.bigint(ff::fp::modulus);
  w.u32(n8r);
  w.bigint(ff::fr::modulus);
  w.u32(z.n_vars);
  w.u32(z.n_public);
  w.u32(z.domain_size);
  encode_lem_g1(z.alpha_g1, w.grow(96));
  encode_lem_g1(z.beta_g1, w.grow(96));
  encode_lem_g2(z.beta_g2, w.grow(192));
  encode_lem_g2(z.gamma_g2, w.grow(192));
  encode_lem_g1(z.delta_g1, w.grow(96));
  encode_lem_g2(z.delta_g2, w.grow(192));
  w.end_section(s);

  s = w.begin_section(4);
  w.u32(static_cast<uint32_t>(z.coeffs.size()));
  {
    uint8_t* out = w.grow(z.coeffs.size() * 44);
    ex.parallel_for(z.coeffs.size(), 4096, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) {
        const zkey_coefficient& c = z.coeffs[i];
        uint8_t* p = out + i * 44;
        for (int b = 0; b < 4; ++b) {
          p[b] = static_cast<uint8_t>(c.matrix >> (8 * b));
          p[4 + b] = static_cast<uint8_t>(c.constraint >> (8 * b));
          p[8 + b] = static_cast<uint8_t>(c.signal >> (8 * b));
        }
        // v R^2 mod r: the Montgomery representation of the integer v R mod r.
        const ff::bigint<4> stored = fr::from_canonical(c.value.v).v;
        for (std::size_t b = 0; b < 32; ++b) p[12 + b] = static_cast<uint8_t>(stored.w[b / 8] >> (8 * (b % 8)));
      }
    });
  }
  w.end_section(s);

  auto g1_section = [&](uint32_t id, const std::vector<g1_affine>& pts) {
    const std::size_t at = w.begin_section(id);
    put_points<g1_affine, lem_g1_bytes>(w, pts, encode_lem_g1, ex);
    w.end_section(at);
  };
  g1_section(3, z.ic);
  g1_section(9, z.h);
  g1_section(8, z.c);
  g1_section(5, z.a);
  g1_section(6, z.b_g1);
  s = w.begin_section(7);
  put_points<g2_affine, lem_g2_bytes>(w, z.b_g2, encode_lem_g2, ex);
  w.end_section(s);

  const blake2b_512_digest cs_hash =
      blake2b_512(std::span<const uint8_t>(w.buf.data() + hashed_from, w.buf.size() - hashed_from));
  s = w.begin_section(10);
  w.buf.insert(w.buf.end(), cs_hash.begin(), cs_hash.end());
  w.u32(0);  // contributions
  w.end_section(s);
  return std::move(w.buf);
}

error write_zkey_file(const std::string& path, const zkey& z, base::executor& ex) {
  const std::vector<uint8_t> bytes = encode_zkey(z, ex);
  if (read_error e = write_file(path, bytes); !e.ok()) return error{errc::io, path + ": " + e.message()};
  return {};
}

std::vector<uint8_t> encode_wtns(std::span<const fr> witness) {
  if (witness.size() > 0xffffffffu) throw std::invalid_argument("snarkjs::encode_wtns: more than 2^32 - 1 values");
  byte_writer w;
  w.buf.reserve(12 + 12 + 40 + 12 + 32 * witness.size());
  w.buf.insert(w.buf.end(), {'w', 't', 'n', 's'});
  w.u32(2);  // version
  w.u32(2);  // sections
  std::size_t s = w.begin_section(1);
  w.u32(32);
  w.bigint(ff::fr::modulus);
  w.u32(static_cast<uint32_t>(witness.size()));
  w.end_section(s);
  s = w.begin_section(2);
  for (const fr& x : witness) w.fr_standard(x);
  w.end_section(s);
  return std::move(w.buf);
}

error write_wtns_file(const std::string& path, std::span<const fr> witness) {
  const std::vector<uint8_t> bytes = encode_wtns(witness);
  if (read_error e = write_file(path, bytes); !e.ok()) return error{errc::io, path + ": " + e.message()};
  return {};
}

}  // namespace cuzk::groth16::snarkjs
