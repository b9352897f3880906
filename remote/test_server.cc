#include "remote/test_server.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "remote/role_options.h"

namespace tickbench::remote {

TestServer::TestServer(const std::string& listen, ServerOptions options) {
  absl::StatusOr<transport::InetAddress> address = ParseHostPort(listen);
  if (!address.ok()) {
    listen_status_ = address.status();
    return;
  }
  options.listen = *address;
  options.log = [this](absl::string_view line) {
    absl::MutexLock lock(&mutex_);
    log_.emplace_back(line);
  };
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    listen_status_ = absl::InternalError("pipe2 failed");
    return;
  }
  stop_read_.reset(fds[0]);
  stop_write_.reset(fds[1]);
  absl::StatusOr<std::unique_ptr<EchoServer>> server = EchoServer::Listen(options);
  if (!server.ok()) {
    listen_status_ = server.status();
    return;
  }
  server_ = std::move(*server);
  thread_ = std::thread([this] { serve_status_ = server_->Serve(stop_read_.get()); });
}

TestServer::~TestServer() { Stop(); }

absl::Duration TestServer::Stop() {
  const absl::Time start = absl::Now();
  if (thread_.joinable()) {
    const char byte = 0;
    while (write(stop_write_.get(), &byte, 1) < 0 && errno == EINTR) {
    }
    thread_.join();
  }
  return absl::Now() - start;
}

std::vector<std::string> TestServer::log() const {
  absl::MutexLock lock(&mutex_);
  return log_;
}

bool TestServer::WaitForLog(const std::string& text, absl::Duration timeout, int count) const {
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    int seen = 0;
    for (const std::string& line : log()) {
      if (absl::StrContains(line, text)) ++seen;
    }
    if (seen >= count) return true;
    if (absl::Now() >= deadline) return false;
    absl::SleepFor(absl::Milliseconds(5));
  }
}

}  // namespace tickbench::remote
