// Runs a cuzk-daemon binary as a child process for integration tests: temp dir, config file,
// log capture, readiness (the "listening on" line), signals, exit status.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "cuzk/v1/proving.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"

namespace cuzk::test {

class temp_dir {
 public:
  temp_dir() {
    char tmpl[] = "/tmp/cuzk-it-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name)) << text;
    return file(name);
  }

 private:
  std::string path_;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class daemon_process {
 public:
  daemon_process(std::string binary, std::vector<std::string> args, std::string log_path,
                 std::vector<std::pair<std::string, std::string>> env = {})
      : log_(std::move(log_path)) {
    pid_ = ::fork();
    if (pid_ == 0) {
      const int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      for (auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
      std::vector<char*> argv{binary.data()};
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(binary.c_str(), argv.data());
      ::_exit(127);
    }
  }
  daemon_process(const daemon_process&) = delete;
  ~daemon_process() {
    if (running()) {
      ::kill(pid_, SIGKILL);
      int st = 0;
      ::waitpid(pid_, &st, 0);
    }
  }

  std::string log() const { return read_text(log_); }

  // Waits for `text` in the log; nullopt on timeout or if the process exited first.
  bool wait_log(const std::string& text, std::chrono::milliseconds limit = std::chrono::seconds(15)) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (log().find(text) != std::string::npos) return true;
      if (!running()) return log().find(text) != std::string::npos;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  // The address from "listening on <addr>" (first word after it), after the line appeared.
  std::optional<std::string> listening(const std::string& marker = "listening on ") {
    if (!wait_log(marker)) return std::nullopt;
    const auto l = log();
    auto p = l.find(marker) + marker.size();
    auto e = l.find_first_of(" \n", p);
    return l.substr(p, e - p);
  }

  bool running() {
    if (exited_) return false;
    int st = 0;
    const pid_t r = ::waitpid(pid_, &st, WNOHANG);
    if (r == pid_) {
      exited_ = true;
      status_ = st;
      return false;
    }
    return true;
  }

  // Exit code once the process ended within `limit`; -1 on timeout, 128+sig when signalled.
  int wait_exit(std::chrono::milliseconds limit = std::chrono::seconds(15)) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (running()) {
      if (std::chrono::steady_clock::now() > end) return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
  }

  void signal(int sig) { ::kill(pid_, sig); }
  pid_t pid() const { return pid_; }

 private:
  std::string log_;
  pid_t pid_ = -1;
  bool exited_ = false;
  int status_ = 0;
};

inline std::shared_ptr<grpc::Channel> connect(const std::string& addr) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(256 << 20);
  args.SetMaxSendMessageSize(256 << 20);
  const std::string target = addr.starts_with("unix:") ? addr : "dns:///" + addr;
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

inline void deadline(grpc::ClientContext& ctx, std::chrono::milliseconds d = std::chrono::seconds(10)) {
  ctx.set_deadline(std::chrono::system_clock::now() + d);
}

// One blocking Prove call (submit and await in one RPC) with a client deadline.
inline grpc::Status prove(cuzk::v1::ProvingEngine::Stub& s, const cuzk::v1::SubmitProofRequest& req,
                          cuzk::v1::AwaitProofResponse& out, std::chrono::milliseconds limit) {
  cuzk::v1::ProveRequest p;
  *p.mutable_submit() = req;
  cuzk::v1::ProveResponse resp;
  grpc::ClientContext ctx;
  deadline(ctx, limit);
  auto st = s.Prove(&ctx, p, &resp);
  out = resp.result();
  return st;
}

// GET http://<host:port><path> (IPv4 literal host): the whole response (status line, headers,
// body), "" when the connection fails.
inline std::string http_get(const std::string& host_port, const std::string& path) {
  const auto colon = host_port.rfind(':');
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  ::inet_pton(AF_INET, host_port.substr(0, colon).c_str(), &a.sin_addr);
  a.sin_port = htons(static_cast<std::uint16_t>(std::stoi(host_port.substr(colon + 1))));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return {};
  }
  const std::string req = "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
  (void)::send(fd, req.data(), req.size(), 0);
  std::string resp;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) resp.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return resp;
}

}  // namespace cuzk::test
