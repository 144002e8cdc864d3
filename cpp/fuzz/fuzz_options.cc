// Table options as a user or another writer sets them: lines of "key=value" (a leading byte
// below 0x80 puts the key under "file-index." so most lines reach the index options). A writer
// is made from them and finishes an empty file, or the options are refused with an error
// naming them; every typed getter and ParseMemorySize take every value without crashing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pyfileindex/options.h"
#include "pyfileindex/writer.h"
#include "target_support.h"

namespace pyfileindex::fuzz {
namespace {

// What refusing an option may give.
void CheckRefusal(const Status& status, const char* call) {
  fuzz::CheckRefusal(status, call, {StatusCode::kInvalidArgument, StatusCode::kNotSupported,
                                    StatusCode::kNotFound});
}

const char* const kPrefixes[] = {"file-index.bitmap.", "file-index.bloom-filter.",
                                 "file-index.bsi.", "file-index.range-bitmap.", "file-index."};

void Run(const uint8_t* data, size_t size) {
  Options options;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  while (!text.empty()) {
    size_t end = text.find('\n');
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == text.size() ? end : end + 1);
    std::string prefix;
    if (!line.empty() && static_cast<uint8_t>(line[0]) < 0x80) {
      prefix = kPrefixes[static_cast<uint8_t>(line[0]) % 5];
      line.remove_prefix(1);
    }
    const size_t equals = line.find('=');
    const std::string key = prefix + std::string(line.substr(0, equals));
    const std::string value =
        equals == std::string_view::npos ? "" : std::string(line.substr(equals + 1));
    options.Set(key, value);
  }
  for (const auto& [key, value] : options.entries()) {
    CheckRefusal(ParseMemorySize(value).status(), "ParseMemorySize");
    CheckRefusal(options.GetInt(key, 0).status(), "GetInt");
    CheckRefusal(options.GetDouble(key, 0).status(), "GetDouble");
    CheckRefusal(options.GetBool(key, false).status(), "GetBool");
    CheckRefusal(options.GetMemorySize(key, 0).status(), "GetMemorySize");
  }
  auto type = [](const char* name) { return ParseDataType(name).ValueOrDie(); };
  const std::vector<Field> fields = {{"a", type("INT")},      {"b", type("STRING")},
                                     {"c", type("BIGINT")},   {"d", type("DOUBLE")},
                                     {"m", type("MAP<STRING, INT>")}};
  auto writer = FileIndexWriter::Make(fields, options);
  CheckRefusal(writer.status(), "FileIndexWriter::Make");
  if (!writer.ok()) return;
  auto finished = (*writer)->Finish();
  if (!finished.ok()) Fail("Finish of an empty file", finished.status().ToString());
}

}  // namespace
}  // namespace pyfileindex::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pyfileindex::fuzz::Run(data, size);
  return 0;
}
