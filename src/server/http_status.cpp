#include "server/http_status.hpp"
#include "server/listen.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cuzk::server {

using engine::errc;
using engine::error;

http_status_server::~http_status_server() { stop(); }

void http_status_server::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

engine::result<std::unique_ptr<http_status_server>> http_status_server::start(const listen_address& a, handler h) {
  auto res = resolve_passive(a);
  if (!res) return error{res.error().code, "status_listen: " + res.error().message};
  std::unique_ptr<http_status_server> s(new http_status_server());
  std::string failure = "no usable address";
  for (addrinfo* ai = res.value().get(); ai && s->fd_ < 0; ai = ai->ai_next) {
    int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || ::listen(fd, 16) != 0) {
      failure = std::strerror(errno);
      ::close(fd);
      continue;
    }
    s->fd_ = fd;
  }
  if (s->fd_ < 0) {
    return error{errc::already_exists, "cannot listen on " + a.display() + " (status_listen): " + failure};
  }
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  ::getsockname(s->fd_, reinterpret_cast<sockaddr*>(&ss), &len);
  char host[NI_MAXHOST], serv[NI_MAXSERV];
  ::getnameinfo(reinterpret_cast<sockaddr*>(&ss), len, host, sizeof host, serv, sizeof serv,
                NI_NUMERICHOST | NI_NUMERICSERV);
  s->bound_ = (ss.ss_family == AF_INET6 ? "[" + std::string(host) + "]" : std::string(host)) + ":" + serv;
  s->handler_ = std::move(h);
  s->thread_ = std::thread([p = s.get()] { p->loop(); });
  return s;
}

void http_status_server::loop() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    timeval tv{2, 0};
    ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    std::string req;
    char buf[1024];
    while (req.find("\r\n\r\n") == std::string::npos && req.size() <= 4096) {
      const auto n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      req.append(buf, static_cast<std::size_t>(n));
    }
    http_response r;
    const auto sp1 = req.find(' ');
    const auto sp2 = sp1 == std::string::npos ? sp1 : req.find(' ', sp1 + 1);
    if (req.size() > 4096) {
      r = {413, "text/plain", "request too large\n"};
    } else if (sp2 == std::string::npos) {
      r = {400, "text/plain", "bad request\n"};
    } else if (req.compare(0, sp1, "GET") != 0) {
      r = {405, "text/plain", "only GET\n"};
    } else {
      r = handler_(req.substr(sp1 + 1, sp2 - sp1 - 1));
    }
    const char* reason = r.code == 200 ? "OK" : r.code == 404 ? "Not Found" : r.code == 503 ? "Service Unavailable" : "Error";
    std::string out = "HTTP/1.1 " + std::to_string(r.code) + " " + reason + "\r\nContent-Type: " + r.content_type +
                      "\r\nContent-Length: " + std::to_string(r.body.size()) + "\r\nConnection: close\r\n\r\n" + r.body;
    std::size_t off = 0;
    while (off < out.size()) {
      const auto n = ::send(c, out.data() + off, out.size() - off, MSG_NOSIGNAL);
      if (n <= 0) break;
      off += static_cast<std::size_t>(n);
    }
    ::close(c);
  }
}

}  // namespace cuzk::server
