// Device setup generator (setup_cuda.hpp): host scalars as groth16::setup computes them, device
// fixed-base multiplications into the resident bases.
#include "backend/cuda/setup_cuda.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <span>
#include <string>
#include <vector>

#include "backend/cuda/fixed_base_cuda.hpp"
#include "groth16/fixed_base.hpp"

namespace cuzk::cuda {

namespace {

using clock_type = std::chrono::steady_clock;
using groth16::fr;
using groth16::setup_errc;
using groth16::setup_error;

double seconds_since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

void check(bool fine, const char* step, const std::string& error) {
  if (!fine) throw std::runtime_error(std::string("cuda::setup_on_device: ") + step + ": " + error);
}

// Scalars folded and multiplied in chunks (host folding of one chunk is a parallel loop; the
// chunk's upload and kernel are queued on the context's stream).
constexpr std::size_t chunk = std::size_t{1} << 22;  // 128 MB of folded scalars

// Table window: 16 bits for large queries (16 windows, 2^19 points, built in ~0.1 s on 16
// cores); smaller for small ones (the table would dominate), as fixed_base_table::best_window.
unsigned window_for(std::size_t n) {
  return std::min(16u, groth16::fixed_base_table<ec::g1_curve>::best_window(std::max<std::size_t>(n, 1)));
}

// out[offset + i] = scalar(i) * base for i < n, scalar(i) computed on the host in chunks.
template <class Bases, class ScalarAt>
void multiply(fixed_base_context& ctx, Bases& out, std::size_t n, ScalarAt scalar_at, base::executor& ex,
              std::vector<folded_scalar>& stage) {
  std::string error;
  for (std::size_t first = 0; first < n; first += chunk) {
    const std::size_t cnt = std::min(chunk, n - first);
    // The previous chunk's copy was queued from `stage`: a pageable cudaMemcpyAsync has staged
    // the bytes when it returns, so the buffer can be refilled.
    ex.parallel_for(cnt, 1 << 14, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) stage[i] = fold_scalar(scalar_at(first + i));
    });
    check(ctx.mul(std::span<const folded_scalar>(stage.data(), cnt), out, first, error), "fixed-base multiplication",
          error);
  }
  check(ctx.synchronize(error), "fixed-base multiplication", error);
}

// Device storage for n points (the bases' only allocation entry is an upload: a repeated base
// point fills it on the device by doubling copies, ~n * 96 B of device copies, then the
// fixed-base kernels overwrite it).
template <class Bases, class Affine>
void allocate(Bases& out, const Affine& filler, std::size_t n) {
  std::string error;
  check(out.upload_repeated(std::span<const Affine>(&filler, 1), n, error), "allocate bases", error);
}

// groth16::evaluate_qap with the scatter spread over every thread: the columns are cut into
// ranges, one task per (matrix, range) scans the matrix's entries and adds only those in its
// range (each task reads all 8 B per entry of its matrix, so ~ranges x 8 B x nnz of streaming
// reads in all, but the field work, ~70% of the serial scatter, is split). Field sums are exact,
// so the values equal evaluate_qap's whatever the order (the tests compare with groth16::setup).
// With groth16::evaluate_qap (one matrix per core) the host part of the setup took 41.9 s at 2^27
// on the H200 machine's 16 cores (docs/gpu-prove-2-27.md).
groth16::qap_at_tau evaluate_qap_parallel(const r1cs::r1cs_shape& shape, const fr& tau, base::executor& ex,
                                          device_setup_timings& t) {
  const std::size_t n = shape.num_constraints, ni = shape.num_inputs, cols = shape.num_columns();
  auto t0 = clock_type::now();
  groth16::qap_at_tau q;
  q.lagrange = groth16::lagrange_at_tau(shape, tau, ex);
  q.domain_size = q.lagrange.size();
  t.host_lagrange = seconds_since(t0);

  t0 = clock_type::now();
  q.u.assign(cols, fr::zero());
  q.v.assign(cols, fr::zero());
  q.w.assign(cols, fr::zero());
  const std::size_t ranges = std::max<std::size_t>(1, std::min<std::size_t>(ex.concurrency(), cols / 4096 + 1));
  const std::size_t width = (cols + ranges - 1) / ranges;
  const fr* coeffs = shape.coeffs.data();
  ex.parallel_for(3 * ranges, 1, [&](std::size_t lo_task, std::size_t hi_task) {
    for (std::size_t task = lo_task; task < hi_task; ++task) {
      const std::size_t which = task / ranges, lo = (task % ranges) * width, hi = std::min(cols, lo + width);
      const r1cs::csr_matrix& mat = which == 0 ? shape.a : which == 1 ? shape.b : shape.c;
      std::vector<fr>& out = which == 0 ? q.u : which == 1 ? q.v : q.w;
      for (std::size_t r = 0; r < n; ++r) {
        for (uint64_t k = mat.row_ptr[r]; k < mat.row_ptr[r + 1]; ++k) {
          const uint32_t col = mat.cols[k];
          if (col < lo || col >= hi) continue;
          const uint32_t id = mat.coeff_ids[k];
          const fr& l = q.lagrange[r];
          if (id == r1cs::coeff_id_one) out[col] += l;
          else if (id == r1cs::coeff_id_minus_one) out[col] -= l;
          else out[col] += l * coeffs[id];
        }
      }
    }
  });
  for (std::size_t i = 0; i < ni; ++i) q.u[i] += q.lagrange[n + i];  // input_i * 0 = 0
  t.host_scatter = seconds_since(t0);
  return q;
}

}  // namespace

device_parameters setup_on_device(const r1cs::r1cs_shape& shape, const groth16::toxic_waste& tw, base::executor& ex,
                                  const std::shared_ptr<device_memory_arbiter>& arbiter,
                                  std::chrono::milliseconds timeout, device_setup_timings* timings) {
  const auto t_start = clock_type::now();
  device_setup_timings t;
  const std::size_t ni = shape.num_inputs;
  const std::size_t cols = shape.num_columns();
  const groth16::setup_inverses inv = groth16::checked_inverses(tw);

  // Host scalars, exactly as groth16::setup.
  auto t0 = clock_type::now();
  std::vector<fr> h_scalars = groth16::h_query_scalars(shape, tw, inv.delta, ex);
  const std::size_t m = h_scalars.size() + 1;
  groth16::qap_at_tau q = evaluate_qap_parallel(shape, tw.tau, ex, t);
  std::vector<fr>().swap(q.lagrange);  // 32 B * m not needed any more
  std::vector<uint32_t> a_cols, b_cols;  // columns with a nonzero u (v), in order
  groth16::check_query_columns(shape, q, &a_cols, &b_cols);
  // IC and L scalars (beta u + alpha v + w) / (gamma | delta); u, v, w are freed after.
  const std::vector<fr> ext = groth16::ic_l_scalars(tw, q, ni, inv, ex);
  std::vector<fr>().swap(q.w);
  for (std::size_t j = ni; j < cols; ++j)  // a zero scalar is exactly an identity point
    if (ext[j].is_zero())
      throw setup_error(setup_errc::unconstrained_variable,
                        "groth16::setup: aux variable " + std::to_string(j - ni) + " is unconstrained (L query identity)");
  t.host_scalars = seconds_since(t0);

  // Device memory: the bases for the result's life, the tables and staging for this call.
  const std::size_t na = cols - ni;
  const unsigned c1 = window_for(m + na + a_cols.size() + b_cols.size()), c2 = window_for(b_cols.size());
  const std::size_t t1 = std::size_t{(255 + c1 - 1) / c1} << (c1 - 1);
  const std::size_t t2 = b_cols.empty() ? 0 : std::size_t{(255 + c2 - 1) / c2} << (c2 - 1);
  auto srs = std::make_shared<resident_srs>();
  srs->arbiter = arbiter;
  srs->memory = arbiter->reserve(((m - 1) + na + a_cols.size() + b_cols.size()) * 96 + b_cols.size() * 192,
                                 "generated SRS (H, L, A, B_G1, B_G2 bases)", timeout);
  const auto scratch = arbiter->reserve(fixed_base_context::device_bytes_for(t1, t2, chunk), "fixed-base tables",
                                        timeout, srs->memory.bytes());

  t0 = clock_type::now();
  // The CPU generator's tables (groth16::fixed_base_table), in the layout the device kernels read.
  const groth16::fixed_base_table<ec::g1_curve> g1_table(tw.g1, c1, ex);
  const auto g2_table = t2 ? std::make_unique<groth16::fixed_base_table<ec::g2_curve>>(tw.g2, c2, ex) : nullptr;
  std::string error;
  auto ctx = fixed_base_context::create(g1_table.points(), c1,
                                        g2_table ? g2_table->points() : std::span<const ec::g2_affine>{},
                                        t2 ? c2 : 0, chunk, error);
  check(ctx != nullptr, "fixed_base_context", error);
  t.tables = seconds_since(t0);

  std::vector<folded_scalar> stage(chunk);
  t0 = clock_type::now();
  allocate(srs->h, tw.g1, m - 1);
  multiply(*ctx, srs->h, m - 1, [&](std::size_t i) { return h_scalars[i]; }, ex, stage);
  std::vector<fr>().swap(h_scalars);
  t.h = seconds_since(t0);

  t0 = clock_type::now();
  allocate(srs->l, tw.g1, na);
  multiply(*ctx, srs->l, na, [&](std::size_t i) { return ext[ni + i]; }, ex, stage);
  t.l = seconds_since(t0);

  t0 = clock_type::now();
  allocate(srs->a, tw.g1, a_cols.size());
  multiply(*ctx, srs->a, a_cols.size(), [&](std::size_t i) { return q.u[a_cols[i]]; }, ex, stage);
  t.a = seconds_since(t0);

  t0 = clock_type::now();
  allocate(srs->b_g1, tw.g1, b_cols.size());
  multiply(*ctx, srs->b_g1, b_cols.size(), [&](std::size_t i) { return q.v[b_cols[i]]; }, ex, stage);
  t.b_g1 = seconds_since(t0);

  t0 = clock_type::now();
  if (!b_cols.empty()) allocate(srs->b_g2, tw.g2, b_cols.size());
  multiply(*ctx, srs->b_g2, b_cols.size(), [&](std::size_t i) { return q.v[b_cols[i]]; }, ex, stage);
  t.b_g2 = seconds_since(t0);
  ctx.reset();

  // IC and the verifying key on the host (num_inputs + 6 scalar multiplications).
  t0 = clock_type::now();
  device_parameters p;
  const ec::g1_jacobian g1 = ec::g1_jacobian::from_affine(tw.g1);
  p.vk.ic.resize(ni);
  ex.parallel_for(ni, 8, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) p.vk.ic[i] = ec::scalar_mul(g1, ext[i]).to_affine();
  });
  groth16::set_vk_points(tw, p.vk);
  t.vk = seconds_since(t0);
  p.srs = std::move(srs);

  t.total = seconds_since(t_start);
  if (timings) *timings = t;
  return p;
}

groth16::parameters download_parameters(const device_parameters& p) {
  groth16::parameters out;
  out.vk = p.vk;
  std::string error;
  check(download_bases(p.srs->h, out.h, error) && download_bases(p.srs->l, out.l, error) &&
            download_bases(p.srs->a, out.a, error) && download_bases(p.srs->b_g1, out.b_g1, error) &&
            download_bases(p.srs->b_g2, out.b_g2, error),
        "download", error);
  return out;
}

}  // namespace cuzk::cuda
