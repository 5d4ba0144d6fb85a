#include "groth16/file_io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace cuzk::groth16 {

namespace {

constexpr std::size_t chunk_bytes = std::size_t{1} << 20;

}  // namespace

mapped_file::mapped_file(mapped_file&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

mapped_file& mapped_file::operator=(mapped_file&& o) noexcept {
  if (this != &o) {
    reset();
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

mapped_file::~mapped_file() { reset(); }

void mapped_file::reset() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

read_error mapped_file::open(const std::string& path, mapped_file& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error(errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return io_error(err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return io_error(EINVAL);
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  void* p = nullptr;
  if (size != 0) {
    p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      return io_error(err);
    }
    ::madvise(p, size, MADV_SEQUENTIAL);
  }
  ::close(fd);  // the mapping stays valid
  mapped_file m;
  m.data_ = static_cast<const uint8_t*>(p);
  m.size_ = size;
  out = std::move(m);
  return {};
}

file_writer::~file_writer() {
  if (fd_ >= 0) ::close(fd_);
}

read_error file_writer::open(const std::string& path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return io_error(errno);
  errno_ = 0;
  buf_.clear();
  buf_.reserve(2 * chunk_bytes);
  return {};
}

void file_writer::write(std::span<const uint8_t> bytes) {
  buf_.insert(buf_.end(), bytes.begin(), bytes.end());
  maybe_flush();
}

void file_writer::maybe_flush() {
  if (buf_.size() >= chunk_bytes) flush();
}

void file_writer::flush() {
  if (fd_ < 0 || errno_ != 0) {
    buf_.clear();
    return;
  }
  std::size_t done = 0;
  while (done < buf_.size()) {
    const ssize_t n = ::write(fd_, buf_.data() + done, buf_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      errno_ = errno;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  buf_.clear();
}

read_error file_writer::close() {
  if (fd_ < 0) return io_error(errno_ != 0 ? errno_ : EBADF);
  flush();
  if (::close(fd_) != 0 && errno_ == 0) errno_ = errno;
  fd_ = -1;
  if (errno_ != 0) return io_error(errno_);
  return {};
}

read_error write_file(const std::string& path, std::span<const uint8_t> bytes) {
  file_writer w;
  read_error e = w.open(path);
  if (!e.ok()) return e;
  w.write(bytes);
  return w.close();
}

}  // namespace cuzk::groth16
