/// @file
/// Paimon table options (string keys and values) with Paimon's parsing rules.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pyfileindex/export.h"
#include "pyfileindex/status.h"

namespace pyfileindex {

/// Table options, e.g. {"file-index.bitmap.columns", "f0,f1"}. Insertion order is kept: Java
/// iterates the table options in a HashMap order that depends on it, and index bytes follow.
/// A plain value; not synchronised (share a const one between threads, or copy it).
class PYFILEINDEX_EXPORT Options {
 public:
  /// No options.
  Options() = default;
  /// From a map (entries in key order) or a vector of pairs (entries in the given order).
  explicit Options(const std::map<std::string, std::string>& entries) {
    for (const auto& [key, value] : entries) Set(key, value);
  }
  explicit Options(std::vector<std::pair<std::string, std::string>> entries) {
    for (auto& [key, value] : entries) Set(std::move(key), std::move(value));
  }

  /// Replaces an existing key in place (keeping its position), else appends.
  void Set(std::string key, std::string value);
  /// The value of `key`, or std::nullopt.
  std::optional<std::string> Get(std::string_view key) const;
  /// Whether `key` is set.
  bool Contains(std::string_view key) const { return Get(key).has_value(); }
  /// All entries in insertion order.
  const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }
  /// True when no option is set.
  bool empty() const { return entries_.empty(); }

  /// Typed getters: absent -> default; present but malformed -> InvalidArgument naming the key.
  /// Values are read as Paimon reads them: GetInt as Java's Long.parseLong (a sign and digits,
  /// no spaces), GetDouble as Double.parseDouble ("1e-3", " 0.1d ", "0x1p-4", "NaN").
  Result<int64_t> GetInt(std::string_view key, int64_t default_value) const;
  Result<double> GetDouble(std::string_view key, double default_value) const;
  Result<bool> GetBool(std::string_view key, bool default_value) const;
  /// Paimon MemorySize: "16kb", "500 B", "1 mb", "1024" (bytes).
  Result<int64_t> GetMemorySize(std::string_view key, int64_t default_bytes) const;

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

/// Parses a Paimon MemorySize string ("16kb", "1 mb", "1024") into bytes.
PYFILEINDEX_EXPORT Result<int64_t> ParseMemorySize(std::string_view text);

}  // namespace pyfileindex
