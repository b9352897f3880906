#include "harness/commands/server_command.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/output/command_status.h"
#include "remote/echo_server.h"
#include "remote/role_options.h"
#include "remote/termination_signals.h"

namespace tickbench::harness {

int RunServerCommand(const CommandLine& command_line, const ReportStreams& streams) {
  absl::StatusOr<remote::RoleOptions> role =
      remote::ParseRoleOptions(command_line.role, command_line.listen, command_line.peer);
  if (!role.ok()) return Usage(role.status());
  const auto log = [&streams](absl::string_view line) {
    streams.err(absl::StrCat("tickbench server: ", line, "\n"));
  };
  absl::StatusOr<transport::UniqueFd> stop = remote::BlockTerminationSignals();
  if (!stop.ok()) {
    log(stop.status().message());
    return kExitFault;
  }
  remote::ServerOptions options;
  options.listen = role->listen;
  options.data_port = role->data_port;
  options.log = log;
  absl::StatusOr<std::unique_ptr<remote::EchoServer>> server = remote::EchoServer::Listen(options);
  if (!server.ok()) return Usage(WithFlag("listen", server.status()));
  log(absl::StrFormat("listening on %s, data port %s; SIGINT or SIGTERM stops",
                      (*server)->address().ToString(),
                      role->data_port == 0 ? "chosen per session" : absl::StrCat(role->data_port)));
  if (absl::Status served = (*server)->Serve(stop->get()); !served.ok()) {
    log(served.message());
    return kExitFault;
  }
  log("stopped");
  return kExitOk;
}

}  // namespace tickbench::harness
