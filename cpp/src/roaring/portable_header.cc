#include "roaring/portable_header.h"

#include <string>

namespace pyfileindex::roaring {

namespace {
constexpr uint32_t kCookieNoRun = 12346;
constexpr uint32_t kCookieRun = 12347;
constexpr size_t kMaxContainers = 65536;
constexpr size_t kNoOffsetThreshold = 4;  // run-cookie bitmaps list offsets from 4 containers
}  // namespace

Result<PortableHeader> PortableHeader::Read(const uint8_t* data, size_t size) {
  if (size < 4) return Status::Corrupt("roaring bitmap: shorter than its cookie");
  PortableHeader head;
  const uint32_t cookie = io::LoadU32LE(data);
  size_t pos = 4;
  bool offsets = true;
  if ((cookie & 0xFFFF) == kCookieRun) {
    head.count = (cookie >> 16) + 1;
    head.run_flags = data + pos;
    pos += (head.count + 7) / 8;
    offsets = head.count >= kNoOffsetThreshold;
  } else if (cookie == kCookieNoRun) {
    if (size < 8) return Status::Corrupt("roaring bitmap: shorter than its header");
    head.count = io::LoadU32LE(data + 4);
    pos = 8;
    if (head.count > kMaxContainers) {
      return Status::Corrupt("roaring bitmap: ", head.count, " containers");
    }
  } else {
    return Status::Corrupt("roaring bitmap: unknown cookie ", cookie);
  }
  head.descriptors = data + pos;
  pos += 4 * head.count + (offsets ? 4 * head.count : 0);
  if (pos > size) return Status::Corrupt("roaring bitmap: header overruns its ",
                                         size, " bytes");
  head.bodies = pos;
  return head;
}

}  // namespace pyfileindex::roaring
