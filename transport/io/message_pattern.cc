#include "transport/io/message_pattern.h"

namespace tickbench::transport {

std::string Describe(const MessageCheck& check) {
  char text[96];
  return core::DescribeCheck(check, text, sizeof text);
}

}  // namespace tickbench::transport
