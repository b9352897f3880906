#include "transport/io/test_util.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "transport/io/message_pattern.h"

namespace tickbench::transport {

absl::Status CheckedRoundTrip(Endpoint& client, size_t size, uint64_t sequence) {
  std::vector<char> message(size), echo(size);
  FillPattern(absl::MakeSpan(message));
  StampSequence(absl::MakeSpan(message), sequence);
  if (absl::Status sent = client.Send(message); !sent.ok()) return sent;
  if (absl::Status got = client.Receive(absl::MakeSpan(echo)); !got.ok()) return got;
  if (MessageCheck check = CheckEcho(echo, sequence, true); !check.ok()) {
    return absl::DataLossError(Describe(check));
  }
  return absl::OkStatus();
}

ScopedTmpdir::ScopedTmpdir() {
  const char* base = std::getenv("TEST_TMPDIR");
  path_ = absl::StrCat(base != nullptr && base[0] != '\0' ? base : "/tmp", "/tmpdir-XXXXXX");
  if (mkdtemp(path_.data()) == nullptr) path_.clear();
  const char* old = std::getenv("TMPDIR");
  had_tmpdir_ = old != nullptr;
  if (had_tmpdir_) old_tmpdir_ = old;
  if (!path_.empty()) setenv("TMPDIR", path_.c_str(), 1);
}

ScopedTmpdir::~ScopedTmpdir() {
  if (had_tmpdir_) {
    setenv("TMPDIR", old_tmpdir_.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  if (!path_.empty()) rmdir(path_.c_str());
}

int DirectoryEntryCount(const std::string& path) {
  DIR* dir = opendir(path.c_str());
  if (dir == nullptr) return -1;
  int count = 0;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") ++count;
  }
  closedir(dir);
  return count;
}

int OpenFileDescriptorCount() {
  const int count = DirectoryEntryCount("/proc/self/fd");
  return count < 0 ? -1 : count - 1;  // opendir's own descriptor is listed too
}

}  // namespace tickbench::transport
