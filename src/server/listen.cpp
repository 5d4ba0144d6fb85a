#include "server/listen.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <utility>

namespace cuzk::server {

using engine::errc;
using engine::error;

std::string listen_address::grpc_uri() const {
  if (kind == unix_socket) return "unix:" + path;
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

std::string listen_address::display() const {
  if (kind == unix_socket) return "unix://" + path;
  return grpc_uri();
}

engine::result<listen_address> parse_listen_address(std::string_view text) {
  listen_address a;
  auto bad = [&](const std::string& why) {
    return error{errc::invalid_argument, "invalid listen address \"" + std::string(text) + "\": " + why +
                                             " (expected \"host:port\", \"[::1]:port\" or \"unix:///path\")"};
  };
  if (text.starts_with("unix:")) {
    std::string_view rest = text.substr(5);
    if (rest.starts_with("//")) {
      rest.remove_prefix(2);
      if (!rest.starts_with("/")) return bad("unix:// must be followed by an absolute path");
    }
    if (rest.empty()) return bad("empty socket path");
    if (rest.size() > 100) return bad("socket path longer than 100 bytes");
    a.kind = listen_address::unix_socket;
    a.path = std::string(rest);
    return a;
  }
  if (text.find("://") != std::string_view::npos) return bad("unsupported scheme");
  std::string_view host, port;
  if (text.starts_with("[")) {
    auto close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return bad("malformed IPv6 address");
    }
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return bad("missing port");
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) return bad("IPv6 addresses need brackets");
  }
  if (host.empty()) return bad("missing host (use 0.0.0.0 for all interfaces)");
  unsigned value = 0;
  auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || p != port.data() + port.size() || value > 65535) {
    return bad("port must be a number from 0 to 65535");
  }
  a.kind = listen_address::tcp;
  a.host = std::string(host);
  a.port = static_cast<std::uint16_t>(value);
  return a;
}

socket_lock::socket_lock(socket_lock&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), lock_path_(std::move(o.lock_path_)) {}

socket_lock& socket_lock::operator=(socket_lock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
    lock_path_ = std::move(o.lock_path_);
  }
  return *this;
}

socket_lock::~socket_lock() {
  // The lock file itself stays: unlinking it would let a newcomer lock a fresh inode while a
  // racing process holds the old one.
  if (fd_ >= 0) ::close(fd_);
}

engine::result<socket_lock> socket_lock::acquire(const std::string& socket_path, bool& removed_stale) {
  removed_stale = false;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = fs::path(socket_path).parent_path();
  if (!parent.empty()) {
    fs::create_directories(parent, ec);
    if (ec) {
      return error{errc::unavailable, "cannot create " + parent.string() + " for the socket: " + ec.message()};
    }
  }
  socket_lock l;
  l.lock_path_ = socket_path + ".lock";
  l.fd_ = ::open(l.lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (l.fd_ < 0) {
    return error{errc::unavailable, "cannot open lock file " + l.lock_path_ + ": " + std::strerror(errno)};
  }
  if (::flock(l.fd_, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    char buf[32] = {};
    const auto n = ::pread(l.fd_, buf, sizeof buf - 1, 0);
    std::string pid = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("?");
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    if (e == EWOULDBLOCK) {
      return error{errc::already_exists, "another cuzk-daemon (pid " + pid + ") is serving unix://" +
                                             socket_path + " (lock " + l.lock_path_ + " is held)"};
    }
    return error{errc::unavailable, "cannot lock " + l.lock_path_ + ": " + std::strerror(e)};
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(l.fd_, 0) != 0 || ::pwrite(l.fd_, pid.data(), pid.size(), 0) < 0) {
    return error{errc::unavailable, "cannot write lock file " + l.lock_path_ + ": " + std::strerror(errno)};
  }
  struct stat st {};
  if (::lstat(socket_path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return error{errc::already_exists, socket_path + " exists and is not a socket; refusing to replace it"};
    }
    if (::unlink(socket_path.c_str()) != 0) {
      return error{errc::unavailable, "cannot remove stale socket " + socket_path + ": " + std::strerror(errno)};
    }
    removed_stale = true;
  }
  return l;
}

void addrinfo_deleter::operator()(addrinfo* p) const {
  if (p) ::freeaddrinfo(p);
}

engine::result<addrinfo_list> resolve_passive(const listen_address& a) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  const std::string port = std::to_string(a.port);
  if (int rc = ::getaddrinfo(a.host.c_str(), port.c_str(), &hints, &res); rc != 0) {
    return error{errc::invalid_argument, "cannot resolve " + a.host + ": " + ::gai_strerror(rc)};
  }
  return addrinfo_list(res);
}

engine::status probe_tcp_bind(const listen_address& a) {
  if (a.kind != listen_address::tcp || a.port == 0) return engine::ok;
  auto res = resolve_passive(a);
  if (!res) return res.error();
  std::string failure;
  for (addrinfo* ai = res.value().get(); ai; ai = ai->ai_next) {
    int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);  // as gRPC does
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
      failure = std::strerror(errno);
      ::close(fd);
      break;
    }
    ::close(fd);
  }
  if (!failure.empty()) {
    return error{errc::already_exists, "cannot listen on " + a.display() + ": " + failure +
                                           " (is another cuzk-daemon running?)"};
  }
  return engine::ok;
}

}  // namespace cuzk::server
