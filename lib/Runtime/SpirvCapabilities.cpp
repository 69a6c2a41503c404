//===- SpirvCapabilities.cpp - What a SPIR-V module asks of a device ------===//
#include "sluice/Runtime/SpirvCapabilities.h"

#include <cstring>

namespace sluice::rt {

std::vector<uint32_t> spirvCapabilities(const void *bytes, size_t size) {
  std::vector<uint32_t> caps;
  if (!bytes || size < 20 || size % 4)
    return caps;
  size_t count = size / 4;
  auto word = [&](size_t i, bool swap) {
    uint32_t w;
    std::memcpy(&w, static_cast<const char *>(bytes) + 4 * i, 4);
    return swap ? __builtin_bswap32(w) : w;
  };
  uint32_t magic = word(0, false);
  bool swap = magic == 0x03022307u;
  if (!swap && magic != 0x07230203u)
    return caps;
  // After the 5-word header, OpCapability (opcode 17) instructions come
  // first; the scan stops at the first other instruction.
  constexpr uint32_t kOpCapability = 17;
  for (size_t i = 5; i < count;) {
    uint32_t first = word(i, swap);
    uint32_t length = first >> 16, opcode = first & 0xffff;
    if (opcode != kOpCapability || length != 2 || i + 1 >= count)
      break;
    caps.push_back(word(i + 1, swap));
    i += length;
  }
  return caps;
}

} // namespace sluice::rt
