// Bounds-checked bincode decoder for FallbackPoStSectorProof (see post_vanilla_proof.hpp).
#include "gadgets/native/post_vanilla_proof.hpp"

#include <cstring>

namespace cuzk::gadgets::native {

const char* to_string(vproof_errc c) {
  switch (c) {
    case vproof_errc::ok: return "ok";
    case vproof_errc::truncated: return "input ends inside the field";
    case vproof_errc::count_exceeds_input: return "declared count runs past the end of the input";
    case vproof_errc::bad_variant: return "unknown MerkleProof variant";
    case vproof_errc::non_canonical_fr: return "domain value is not a canonical field element";
    case vproof_errc::index_out_of_range: return "path element index out of range";
    case vproof_errc::trailing_bytes: return "trailing bytes after the proof";
  }
  return "unknown error";
}

std::string vproof_error::message() const {
  std::string m = field.empty() ? std::string("input") : field;
  m.append(" at offset ");
  m.append(std::to_string(offset));
  m.append(": ");
  m.append(to_string(code));
  if (code == vproof_errc::count_exceeds_input || code == vproof_errc::bad_variant ||
      code == vproof_errc::index_out_of_range || code == vproof_errc::trailing_bytes) {
    m.append(" (");
    m.append(std::to_string(value));
    m.push_back(')');
  }
  return m;
}

std::vector<merkle_path_level<fr>> post_merkle_proof::levels() const {
  std::vector<merkle_path_level<fr>> all(base);
  all.insert(all.end(), sub.begin(), sub.end());
  all.insert(all.end(), top.begin(), top.end());
  return all;
}

namespace {

// Minimal encoded sizes, for checking a declared count against the bytes left before
// allocating: a path element is at least its two u64s; a MerkleProof at least its tag, root,
// leaf and one empty path (Single); a SectorProof at least its count, comm_c, comm_r_last.
constexpr uint64_t min_path_element = 16;
constexpr uint64_t min_merkle_proof = 4 + 64 + 8;
constexpr uint64_t min_sector_proof = 8 + 64;

// Where the reader is, kept as numbers and formatted only when an error is reported (the
// decoder does no string work on the success path).
struct location {
  int64_t sector = -1, proof = -1, element = -1, hash = -1;
  const char* path = nullptr;  // "path" (Single), "base", "sub", "top"
  const char* field = "";      // the field being read

  std::string format() const {
    std::string s;
    auto indexed = [&s](const char* name, int64_t i) {
      s.append(name);
      s.push_back('[');
      s.append(std::to_string(i));
      s.push_back(']');
    };
    if (sector >= 0) indexed("sectors", sector);
    if (proof >= 0) indexed(".inclusion_proofs", proof);
    if (path) {
      s.push_back('.');
      if (element >= 0) indexed(path, element); else s.append(path);
    }
    if (!s.empty()) s.push_back('.');
    if (hash >= 0) indexed(field, hash); else s.append(field);
    return s;
  }
};

class reader {
 public:
  explicit reader(std::span<const uint8_t> b) : b_(b) {}

  location at;  // updated by the caller before each read

  uint64_t offset() const { return at_; }
  uint64_t left() const { return b_.size() - at_; }
  const vproof_error& error() const { return err_; }

  bool u64(uint64_t& v) {
    if (!need(8)) return false;
    v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | b_[at_ + static_cast<std::size_t>(i)];
    at_ += 8;
    return true;
  }
  bool u32(uint32_t& v) {
    if (!need(4)) return false;
    v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | b_[at_ + static_cast<std::size_t>(i)];
    at_ += 4;
    return true;
  }
  bool domain(fr& v) {
    if (!need(32)) return false;
    if (!fr::from_bytes_le(b_.data() + at_, v)) return fail(vproof_errc::non_canonical_fr, at_, 0);
    at_ += 32;
    return true;
  }
  // A u64 count of elements of at least min_size bytes each.
  bool count(uint64_t& n, uint64_t min_size) {
    const uint64_t start = at_;
    if (!u64(n)) return false;
    if (n > left() / min_size) return fail(vproof_errc::count_exceeds_input, start, n);
    return true;
  }
  bool fail(vproof_errc c, uint64_t offset, uint64_t value) {
    err_.code = c;
    err_.field = at.format();
    err_.offset = offset;
    err_.value = value;
    return false;
  }

 private:
  bool need(uint64_t n) {
    if (left() < n) return fail(vproof_errc::truncated, at_, 0);
    return true;
  }
  std::span<const uint8_t> b_;
  uint64_t at_ = 0;
  vproof_error err_;
};

bool read_path(reader& r, std::vector<merkle_path_level<fr>>& out, const char* name) {
  r.at.path = name;
  r.at.element = r.at.hash = -1;
  r.at.field = "len";
  uint64_t n;
  if (!r.count(n, min_path_element)) return false;
  out.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    r.at.element = static_cast<int64_t>(i);
    r.at.field = "hashes.len";
    uint64_t nh;
    if (!r.count(nh, 32)) return false;
    out[i].siblings.resize(nh);
    r.at.field = "hashes";
    for (uint64_t k = 0; k < nh; ++k) {
      r.at.hash = static_cast<int64_t>(k);
      if (!r.domain(out[i].siblings[k])) return false;
    }
    r.at.hash = -1;
    r.at.field = "index";
    const uint64_t at = r.offset();
    uint64_t index;
    if (!r.u64(index)) return false;
    if (index > nh) return r.fail(vproof_errc::index_out_of_range, at, index);
    out[i].index = static_cast<std::size_t>(index);
  }
  r.at.path = nullptr;
  r.at.element = -1;
  return true;
}

bool read_domain(reader& r, fr& v, const char* field) {
  r.at.field = field;
  return r.domain(v);
}

bool read_merkle_proof(reader& r, post_merkle_proof& p) {
  r.at.field = "variant";
  const uint64_t at = r.offset();
  uint32_t tag;
  if (!r.u32(tag)) return false;
  if (tag > 2) return r.fail(vproof_errc::bad_variant, at, tag);
  p.kind = static_cast<merkle_proof_kind>(tag);
  if (p.kind == merkle_proof_kind::single) {
    return read_domain(r, p.root, "root") && read_domain(r, p.leaf, "leaf") && read_path(r, p.base, "path");
  }
  if (!read_path(r, p.base, "base") || !read_path(r, p.sub, "sub")) return false;
  if (p.kind == merkle_proof_kind::top && !read_path(r, p.top, "top")) return false;
  return read_domain(r, p.root, "root") && read_domain(r, p.leaf, "leaf");
}

}  // namespace

vproof_error decode_fallback_post_sector_proof(std::span<const uint8_t> bytes, fallback_post_sector_proof& out) {
  reader r(bytes);
  auto body = [&]() -> bool {
    uint64_t n_sectors;
    if (!(r.at.field = "sector_id", r.u64(out.sector_id)) || !read_domain(r, out.comm_r, "comm_r") ||
        !(r.at.field = "sectors.len", r.count(n_sectors, min_sector_proof)))
      return false;
    out.sectors.resize(n_sectors);
    for (uint64_t s = 0; s < n_sectors; ++s) {
      r.at = location{};
      r.at.sector = static_cast<int64_t>(s);
      post_sector_proof& sp = out.sectors[s];
      uint64_t n_proofs;
      r.at.field = "inclusion_proofs.len";
      if (!r.count(n_proofs, min_merkle_proof)) return false;
      sp.inclusion_proofs.resize(n_proofs);
      for (uint64_t i = 0; i < n_proofs; ++i) {
        r.at.proof = static_cast<int64_t>(i);
        if (!read_merkle_proof(r, sp.inclusion_proofs[i])) return false;
      }
      r.at.proof = -1;
      if (!read_domain(r, sp.comm_c, "comm_c") || !read_domain(r, sp.comm_r_last, "comm_r_last")) return false;
    }
    r.at = location{};
    r.at.field = "end";
    if (r.left() != 0) return r.fail(vproof_errc::trailing_bytes, r.offset(), r.left());
    return true;
  };
  (void)body();
  return r.error();
}

}  // namespace cuzk::gadgets::native
