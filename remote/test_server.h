// An EchoServer on a loopback address and a kernel-chosen port, in a thread of the test:
// started by the constructor, stopped through its stop pipe and joined by the destructor, so that
// no test leaves a server running, whatever it asserts.
#ifndef REMOTE_TEST_SERVER_H_
#define REMOTE_TEST_SERVER_H_

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "remote/echo_server.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/inet_address.h"

namespace tickbench::remote {

class TestServer {
 public:
  // `listen` is "127.0.0.1:0" or "[::1]:0"; `options.listen` and `options.log` are set
  // here, the other fields are used as given.
  explicit TestServer(const std::string& listen = "127.0.0.1:0",
                      ServerOptions options = ServerOptions());
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;
  ~TestServer();

  // False when the server could not listen; status() says why.
  bool ok() const { return server_ != nullptr; }
  const absl::Status& status() const { return listen_status_; }
  const transport::InetAddress& address() const { return server_->address(); }

  // Asks the server to stop and waits for Serve() to return; how long that took.
  absl::Duration Stop();
  // What Serve() returned (after Stop()).
  const absl::Status& serve_status() const { return serve_status_; }

  // The log lines so far.
  std::vector<std::string> log() const;
  // Waits up to `timeout` for `count` log lines containing `text`.
  bool WaitForLog(const std::string& text, absl::Duration timeout, int count = 1) const;

 private:
  absl::Status listen_status_;
  std::unique_ptr<EchoServer> server_;
  transport::UniqueFd stop_read_, stop_write_;
  std::thread thread_;
  absl::Status serve_status_;
  mutable absl::Mutex mutex_;
  std::vector<std::string> log_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace tickbench::remote

#endif  // REMOTE_TEST_SERVER_H_
