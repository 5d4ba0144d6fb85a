// A minimal HTTP/1.1 endpoint ([daemon] status_listen): GET /status (JSON), GET /metrics
// (Prometheus text), GET /healthz ("ok", 503 while shutting down). One request per connection,
// requests over 4 KiB rejected. Bound at startup (a bind failure is a startup error).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "engine/result.hpp"
#include "server/listen.hpp"

namespace cuzk::server {

struct http_response {
  int code = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

class http_status_server {
 public:
  using handler = std::function<http_response(const std::string& path)>;
  ~http_status_server();
  // Binds and starts serving; the bound address (real port when 0 was asked) is in bound().
  static engine::result<std::unique_ptr<http_status_server>> start(const listen_address& addr, handler h);
  const std::string& bound() const { return bound_; }
  void stop();

 private:
  http_status_server() = default;
  void loop();
  int fd_ = -1;
  std::string bound_;
  handler handler_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace cuzk::server
