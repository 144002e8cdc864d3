#include "pyfileindex/options.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "api/boundary.h"

namespace pyfileindex {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Status BadValue(std::string_view key, const std::string& value, const char* expected) {
  return Status::InvalidArgument("option '" + std::string(key) + "': cannot parse '" + value +
                                 "' as " + expected);
}

}  // namespace

void Options::Set(std::string key, std::string value) {
  for (auto& entry : entries_) {
    if (entry.first == key) {
      entry.second = std::move(value);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(value));
}

std::optional<std::string> Options::Get(std::string_view key) const {
  for (const auto& entry : entries_) {
    if (entry.first == key) return entry.second;
  }
  return std::nullopt;
}

Result<int64_t> Options::GetInt(std::string_view key, int64_t default_value) const {
  return api::CatchAll("Options::GetInt", [&]() -> Result<int64_t> {
    auto value = Get(key);
    if (!value) return default_value;
    const std::string text(Trim(*value));
    if (text.empty()) return BadValue(key, *value, "an integer");
    char* end = nullptr;
    errno = 0;
    const long long parsed = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end != text.c_str() + text.size()) {
      return BadValue(key, *value, "an integer");
    }
    return static_cast<int64_t>(parsed);
  });
}

Result<double> Options::GetDouble(std::string_view key, double default_value) const {
  return api::CatchAll("Options::GetDouble", [&]() -> Result<double> {
    auto value = Get(key);
    if (!value) return default_value;
    const std::string text(Trim(*value));
    if (text.empty()) return BadValue(key, *value, "a number");
    char* end = nullptr;
    errno = 0;
    const double parsed = std::strtod(text.c_str(), &end);
    if (errno != 0 || end != text.c_str() + text.size()) return BadValue(key, *value, "a number");
    return parsed;
  });
}

Result<bool> Options::GetBool(std::string_view key, bool default_value) const {
  return api::CatchAll("Options::GetBool", [&]() -> Result<bool> {
    auto value = Get(key);
    if (!value) return default_value;
    const std::string text = Lower(Trim(*value));
    if (text == "true") return true;
    if (text == "false") return false;
    return BadValue(key, *value, "a boolean (true/false)");
  });
}

Result<int64_t> Options::GetMemorySize(std::string_view key, int64_t default_bytes) const {
  return api::CatchAll("Options::GetMemorySize", [&]() -> Result<int64_t> {
    auto value = Get(key);
    if (!value) return default_bytes;
    Result<int64_t> parsed = ParseMemorySize(*value);
    if (!parsed.ok()) return parsed.status().WithContext("option '" + std::string(key) + "'");
    return parsed;
  });
}

Result<int64_t> ParseMemorySize(std::string_view text) {
  return api::CatchAll("ParseMemorySize", [&]() -> Result<int64_t> {
    const std::string_view trimmed = Trim(text);
    size_t digits = 0;
    while (digits < trimmed.size() && std::isdigit(static_cast<unsigned char>(trimmed[digits]))) {
      ++digits;
    }
    if (digits == 0) {
      return Status::InvalidArgument("memory size '" + std::string(text) +
                                     "' does not start with a number");
    }
    uint64_t number = 0;
    for (size_t i = 0; i < digits; ++i) {
      number = number * 10 + static_cast<uint64_t>(trimmed[i] - '0');
      if (number > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Status::InvalidArgument("memory size '" + std::string(text) + "' is too large");
      }
    }
    const std::string unit = Lower(Trim(trimmed.substr(digits)));
    uint64_t multiplier = 1;
    if (unit.empty() || unit == "b" || unit == "bytes") {
      multiplier = 1;
    } else if (unit == "k" || unit == "kb" || unit == "kibibytes") {
      multiplier = uint64_t{1} << 10;
    } else if (unit == "m" || unit == "mb" || unit == "mebibytes") {
      multiplier = uint64_t{1} << 20;
    } else if (unit == "g" || unit == "gb" || unit == "gibibytes") {
      multiplier = uint64_t{1} << 30;
    } else if (unit == "t" || unit == "tb" || unit == "tebibytes") {
      multiplier = uint64_t{1} << 40;
    } else {
      return Status::InvalidArgument("memory size '" + std::string(text) + "' has unknown unit '" +
                                     unit + "' (use b, kb, mb, gb or tb)");
    }
    if (number > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / multiplier) {
      return Status::InvalidArgument("memory size '" + std::string(text) + "' is too large");
    }
    return static_cast<int64_t>(number * multiplier);
  });
}

}  // namespace pyfileindex
