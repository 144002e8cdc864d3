#include "pyfileindex/status.h"

namespace pyfileindex {

namespace {
const char* CodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidArgument: return "Invalid argument";
    case StatusCode::kCorrupt: return "Corrupt index";
    case StatusCode::kNotSupported: return "Not supported";
    case StatusCode::kNotFound: return "Not found";
    case StatusCode::kIoError: return "I/O error";
    case StatusCode::kInternal: return "Internal error";
  }
  return "Unknown";
}
}  // namespace

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(CodeName(code_)) + ": " + message_;
}

}  // namespace pyfileindex
