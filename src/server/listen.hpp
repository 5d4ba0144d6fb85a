// Listen addresses ("host:port", "unix:///path") and the guards around binding them: a lock file
// beside a unix socket so a second daemon refuses to start instead of stealing the socket (the
// Rust cuzk unlinked it unconditionally, rust-cuzk.md §8.1 item 6), stale-socket removal, and a
// TCP probe that turns "port in use" into a clear startup error.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/result.hpp"

struct addrinfo;

namespace cuzk::server {

struct listen_address {
  enum kind_t { tcp, unix_socket } kind = tcp;
  std::string host;   // tcp: as written, without brackets for IPv6
  std::uint16_t port = 0;
  std::string path;   // unix_socket: filesystem path

  std::string grpc_uri() const;  // what grpc::ServerBuilder::AddListeningPort takes
  std::string display() const;   // "127.0.0.1:9820" or "unix:///run/curio/cuzk.sock"
};

engine::result<listen_address> parse_listen_address(std::string_view text);

// Holds an exclusive flock on "<socket>.lock" for the daemon's lifetime.
class socket_lock {
 public:
  socket_lock() = default;
  socket_lock(socket_lock&& o) noexcept;
  socket_lock& operator=(socket_lock&& o) noexcept;
  socket_lock(const socket_lock&) = delete;
  socket_lock& operator=(const socket_lock&) = delete;
  ~socket_lock();
  const std::string& lock_path() const { return lock_path_; }

  // Creates the socket's parent directory, takes the lock (error if a live process holds it,
  // naming its pid), and removes a stale socket file left by a dead daemon (`removed_stale` tells).
  static engine::result<socket_lock> acquire(const std::string& socket_path, bool& removed_stale);

 private:
  int fd_ = -1;
  std::string lock_path_;
};

// Tries to bind the TCP address (without SO_REUSEPORT), so that "address already in use" is
// reported precisely before gRPC binds. Port 0 always succeeds.
engine::status probe_tcp_bind(const listen_address& addr);

// The passive (bindable) TCP addresses of a tcp listen_address, numeric port, any family: the
// list every TCP listener here walks. Error: invalid_argument "cannot resolve <host>: <why>".
struct addrinfo_deleter {
  void operator()(addrinfo* p) const;
};
using addrinfo_list = std::unique_ptr<addrinfo, addrinfo_deleter>;
engine::result<addrinfo_list> resolve_passive(const listen_address& addr);

}  // namespace cuzk::server
