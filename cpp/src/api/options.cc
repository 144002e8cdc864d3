#include "pyfileindex/options.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <optional>

#include "api/boundary.h"
#include "java/java_text.h"

namespace pyfileindex {

namespace {

// ASCII lower case, as Java's toLowerCase(Locale.US) for the option words compared here; the
// C library's tolower would follow the process locale.
std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return IsDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }

// Java's Long.parseLong, which Paimon applies to the option text as is (OptionsUtils does not
// trim it): an optional sign, then ASCII digits and nothing else. (Java also takes other
// scripts' decimal digits; no option value in practice uses them.)
std::optional<int64_t> ParseJavaLong(std::string_view text) {
  size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
  if (i == text.size()) return std::nullopt;
  for (size_t k = i; k < text.size(); ++k) {
    if (!IsDigit(text[k])) return std::nullopt;
  }
  errno = 0;
  const std::string copy(text);
  const long long parsed = std::strtoll(copy.c_str(), nullptr, 10);
  if (errno != 0) return std::nullopt;  // out of the long range: Java fails too
  return static_cast<int64_t>(parsed);
}

// Adds `shift` to an exponent written as optional sign and decimal digits, saturating far
// beyond any double's range (strtod then overflows or underflows it as it would the original).
std::string ShiftedExponent(std::string_view exponent, int64_t shift) {
  constexpr int64_t kSaturate = int64_t{1} << 40;
  bool negative = false;
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
    negative = exponent[0] == '-';
    exponent.remove_prefix(1);
  }
  int64_t value = 0;
  for (char c : exponent) value = std::min(kSaturate, value * 10 + (c - '0'));
  value = (negative ? -value : value) + shift;
  return std::to_string(std::clamp(value, -kSaturate, kSaturate));
}

// Java's Double.parseDouble: the text trimmed of characters <= ' ', an optional sign, then
// "NaN", "Infinity", a decimal number (digits with an optional point, at least one digit, an
// optional exponent) or a hexadecimal one (0x, hex digits with an optional point, and a
// required binary exponent p), and an optional type suffix f, F, d or D. The value is the
// nearest double, overflow giving infinity and underflow a subnormal or zero: what glibc's
// correctly rounded strtod returns, with ERANGE, for the same digits.
//
// Java reads the same text in every locale; strtod takes the locale's radix character (a
// comma in de_DE), so the number reaches it with no point at all: the fraction's digits are
// appended to the integer's and the exponent lowered to match ("1.25e3" -> "125e1", and
// "0x1.8p0" -> "0x18p-4").
std::optional<double> ParseJavaDouble(std::string_view text) {
  text = java::Trim(text);
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (text == "Infinity") {
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (!text.empty() && std::string_view("fFdD").find(text.back()) != std::string_view::npos &&
      !(hex && text.find_first_of("pP") == std::string_view::npos)) {  // 0x1f: a hex digit
    text.remove_suffix(1);
  }
  size_t i = hex ? 2 : 0;
  auto digits = [&](bool (*is_digit)(char)) {
    const size_t start = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    return text.substr(start, i - start);
  };
  std::string number = negative ? "-" : "";
  if (hex) number += "0x";
  number += digits(hex ? IsHexDigit : IsDigit);
  size_t fraction_digits = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    const std::string_view fraction = digits(hex ? IsHexDigit : IsDigit);
    number += fraction;
    fraction_digits = fraction.size();
  }
  if (number.size() == (negative ? 1u : 0u) + (hex ? 2u : 0u)) return std::nullopt;  // no digit
  std::string_view exponent = "0";
  const char exponent_mark = hex ? 'p' : 'e';
  if (i < text.size() && (text[i] | 0x20) == exponent_mark) {
    ++i;
    const size_t start = i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits(IsDigit).empty()) return std::nullopt;
    exponent = text.substr(start, i - start);
  } else if (hex) {
    return std::nullopt;  // Java requires the binary exponent
  }
  if (i != text.size()) return std::nullopt;
  // A hex fraction digit is four binary places.
  const int64_t places = static_cast<int64_t>(fraction_digits) * (hex ? 4 : 1);
  number += exponent_mark;
  number += ShiftedExponent(exponent, -places);
  char* end = nullptr;
  const double parsed = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size()) return std::nullopt;
  return parsed;  // ERANGE included: see above
}

Status BadValue(std::string_view key, const std::string& value, const char* expected) {
  return Status::InvalidArgument("option '", key, "': cannot parse '", value,
                                 "' as ", expected);
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
    const std::optional<int64_t> parsed = ParseJavaLong(*value);
    if (!parsed) return BadValue(key, *value, "an integer (Java's Long.parseLong)");
    return *parsed;
  });
}

Result<double> Options::GetDouble(std::string_view key, double default_value) const {
  return api::CatchAll("Options::GetDouble", [&]() -> Result<double> {
    auto value = Get(key);
    if (!value) return default_value;
    const std::optional<double> parsed = ParseJavaDouble(*value);
    if (!parsed) return BadValue(key, *value, "a number (Java's Double.parseDouble)");
    return *parsed;
  });
}

Result<bool> Options::GetBool(std::string_view key, bool default_value) const {
  return api::CatchAll("Options::GetBool", [&]() -> Result<bool> {
    auto value = Get(key);
    if (!value) return default_value;
    // Paimon's convertToBoolean: the text as is (no trim), any letter case.
    const std::string text = AsciiLower(*value);
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
    if (!parsed.ok()) return parsed.status().WithContext("option '", key, "'");
    return parsed;
  });
}

Result<int64_t> ParseMemorySize(std::string_view text) {
  return api::CatchAll("ParseMemorySize", [&]() -> Result<int64_t> {
    // MemorySize.parseBytes: String.trim, ASCII digits, then the unit trimmed again.
    const std::string_view trimmed = java::Trim(text);
    size_t digits = 0;
    while (digits < trimmed.size() && IsDigit(trimmed[digits])) ++digits;
    if (digits == 0) {
      return Status::InvalidArgument("memory size '", text,
                                     "' does not start with a number");
    }
    uint64_t number = 0;
    for (size_t i = 0; i < digits; ++i) {
      number = number * 10 + static_cast<uint64_t>(trimmed[i] - '0');
      if (number > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Status::InvalidArgument("memory size '", text, "' is too large");
      }
    }
    const std::string unit = AsciiLower(java::Trim(trimmed.substr(digits)));
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
      return Status::InvalidArgument("memory size '", text, "' has unknown unit '",
                                     unit, "' (use b, kb, mb, gb or tb)");
    }
    if (number > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / multiplier) {
      return Status::InvalidArgument("memory size '", text, "' is too large");
    }
    return static_cast<int64_t>(number * multiplier);
  });
}

}  // namespace pyfileindex
