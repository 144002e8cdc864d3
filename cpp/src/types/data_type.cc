// Parser and printer for Paimon type strings (the `type` of a field in a schema file).
#include "pyfileindex/data_type.h"

#include <cctype>
#include <limits>

namespace pyfileindex {

namespace {

constexpr int32_t kMaxLength = std::numeric_limits<int32_t>::max();

class TypeParser {
 public:
  explicit TypeParser(std::string_view text) : text_(text) {}

  Result<DataType> ParseAll() {
    PFI_ASSIGN_OR_RETURN(DataType type, ParseType());
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the type");
    return type;
  }

 private:
  Status Error(const std::string& what) const {
    return Status::InvalidArgument("cannot parse Paimon type '", text_, "': ",
                                   what, " at position ", pos_);
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  // An identifier-like word, upper-cased ("" if none).
  std::string PeekWord() {
    SkipSpace();
    size_t end = pos_;
    while (end < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) {
      ++end;
    }
    std::string word(text_.substr(pos_, end - pos_));
    for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return word;
  }
  std::string TakeWord() {
    std::string word = PeekWord();
    pos_ += word.size();
    return word;
  }
  bool TakeKeyword(const char* keyword) {
    const size_t saved = pos_;
    if (TakeWord() == keyword) return true;
    pos_ = saved;
    return false;
  }
  bool TakeChar(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Result<int32_t> TakeInt() {
    SkipSpace();
    int64_t value = 0;
    size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      value = value * 10 + (text_[pos_] - '0');
      if (value > kMaxLength) return Error("number too large");
      ++pos_;
    }
    if (pos_ == start) return Error("expected a number");
    return static_cast<int32_t>(value);
  }

  // "(n)" when present, else `default_value`.
  Result<int32_t> OptionalLength(int32_t default_value) {
    if (!TakeChar('(')) return default_value;
    PFI_ASSIGN_OR_RETURN(int32_t value, TakeInt());
    if (!TakeChar(')')) return Error("expected ')'");
    return value;
  }

  // A CHAR / VARCHAR / BINARY / VARBINARY length: 1 when absent; Java refuses 0 (its types'
  // MIN_LENGTH is 1), and TakeInt already refuses what passes 2^31 - 1.
  Result<int32_t> Length(const char* type_name) {
    PFI_ASSIGN_OR_RETURN(int32_t length, OptionalLength(1));
    if (length < 1) return Error(std::string(type_name) + " length must be 1..2147483647");
    return length;
  }

  Result<DataType> ParseType() {
    DataType type;
    const std::string word = TakeWord();
    if (word.empty()) return Error("expected a type name");
    if (word == "BOOLEAN") {
      type.root = TypeRoot::kBoolean;
    } else if (word == "TINYINT") {
      type.root = TypeRoot::kTinyInt;
    } else if (word == "SMALLINT") {
      type.root = TypeRoot::kSmallInt;
    } else if (word == "INT" || word == "INTEGER") {
      type.root = TypeRoot::kInt;
    } else if (word == "BIGINT") {
      type.root = TypeRoot::kBigInt;
    } else if (word == "FLOAT") {
      type.root = TypeRoot::kFloat;
    } else if (word == "DOUBLE") {
      TakeKeyword("PRECISION");
      type.root = TypeRoot::kDouble;
    } else if (word == "DECIMAL" || word == "NUMERIC" || word == "DEC") {
      type.root = TypeRoot::kDecimal;
      type.precision = 10;
      type.scale = 0;
      if (TakeChar('(')) {
        PFI_ASSIGN_OR_RETURN(type.precision, TakeInt());
        if (TakeChar(',')) {
          PFI_ASSIGN_OR_RETURN(type.scale, TakeInt());
        }
        if (!TakeChar(')')) return Error("expected ')'");
      }
      if (type.precision < 1 || type.precision > 38 || type.scale > type.precision) {
        return Error("DECIMAL precision must be 1..38 and scale 0..precision");
      }
    } else if (word == "CHAR") {
      type.root = TypeRoot::kChar;
      PFI_ASSIGN_OR_RETURN(type.precision, Length("CHAR"));
    } else if (word == "VARCHAR") {
      type.root = TypeRoot::kVarChar;
      PFI_ASSIGN_OR_RETURN(type.precision, Length("VARCHAR"));
    } else if (word == "STRING") {
      type.root = TypeRoot::kVarChar;
      type.precision = kMaxLength;
    } else if (word == "BINARY") {
      type.root = TypeRoot::kBinary;
      PFI_ASSIGN_OR_RETURN(type.precision, Length("BINARY"));
    } else if (word == "VARBINARY") {
      type.root = TypeRoot::kVarBinary;
      PFI_ASSIGN_OR_RETURN(type.precision, Length("VARBINARY"));
    } else if (word == "BYTES") {
      type.root = TypeRoot::kVarBinary;
      type.precision = kMaxLength;
    } else if (word == "DATE") {
      type.root = TypeRoot::kDate;
    } else if (word == "TIME") {
      type.root = TypeRoot::kTime;
      PFI_ASSIGN_OR_RETURN(type.precision, OptionalLength(0));
      if (TakeKeyword("WITHOUT")) {
        if (!TakeKeyword("TIME") || !TakeKeyword("ZONE")) return Error("expected TIME ZONE");
      }
      if (type.precision > 9) return Error("TIME precision must be 0..9");
    } else if (word == "TIMESTAMP" || word == "TIMESTAMP_LTZ") {
      type.root = word == "TIMESTAMP" ? TypeRoot::kTimestamp : TypeRoot::kTimestampLocalTimeZone;
      PFI_ASSIGN_OR_RETURN(type.precision, OptionalLength(6));
      if (word == "TIMESTAMP") {
        const size_t saved = pos_;
        if (TakeKeyword("WITH")) {
          if (!TakeKeyword("LOCAL") || !TakeKeyword("TIME") || !TakeKeyword("ZONE")) {
            pos_ = saved;
            return Error("expected WITH LOCAL TIME ZONE");
          }
          type.root = TypeRoot::kTimestampLocalTimeZone;
        } else if (TakeKeyword("WITHOUT")) {
          if (!TakeKeyword("TIME") || !TakeKeyword("ZONE")) return Error("expected TIME ZONE");
        }
      }
      if (type.precision > 9) return Error("TIMESTAMP precision must be 0..9");
    } else if (word == "MAP") {
      type.root = TypeRoot::kMap;
      if (!TakeChar('<')) return Error("expected '<' after MAP");
      PFI_ASSIGN_OR_RETURN(DataType key, ParseType());
      if (!TakeChar(',')) return Error("expected ',' between MAP key and value types");
      PFI_ASSIGN_OR_RETURN(DataType value, ParseType());
      if (!TakeChar('>')) return Error("expected '>' closing MAP");
      type.children = {std::move(key), std::move(value)};
    } else if (word == "ARRAY" || word == "MULTISET") {
      type.root = word == "ARRAY" ? TypeRoot::kArray : TypeRoot::kMultiset;
      if (!TakeChar('<')) return Error("expected '<'");
      PFI_ASSIGN_OR_RETURN(DataType element, ParseType());
      if (!TakeChar('>')) return Error("expected '>'");
      type.children = {std::move(element)};
    } else if (word == "ROW") {
      type.root = TypeRoot::kRow;
      if (!TakeChar('<')) return Error("expected '<' after ROW");
      if (!TakeChar('>')) {
        do {
          SkipSpace();
          if (TakeChar('`')) {  // quoted field name
            while (pos_ < text_.size() && text_[pos_] != '`') ++pos_;
            if (!TakeChar('`')) return Error("unterminated field name");
          } else if (TakeWord().empty()) {
            return Error("expected a field name");
          }
          PFI_ASSIGN_OR_RETURN(DataType field, ParseType());
          SkipSpace();
          if (TakeChar('\'')) {  // field description
            while (pos_ < text_.size() && text_[pos_] != '\'') ++pos_;
            if (!TakeChar('\'')) return Error("unterminated description");
          }
          type.children.push_back(std::move(field));
        } while (TakeChar(','));
        if (!TakeChar('>')) return Error("expected '>' closing ROW");
      }
    } else if (word == "VARIANT") {
      type.root = TypeRoot::kVariant;
    } else if (word == "BLOB") {
      type.root = TypeRoot::kBlob;
    } else {
      return Error("unknown type '" + word + "'");
    }
    if (TakeKeyword("NOT")) {
      if (!TakeKeyword("NULL")) return Error("expected NULL after NOT");
      type.nullable = false;
    } else {
      TakeKeyword("NULL");
    }
    return type;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

std::string Parenthesized(const char* name, int32_t n) {
  return std::string(name) + "(" + std::to_string(n) + ")";
}

}  // namespace

Result<DataType> ParseDataType(std::string_view text) { return TypeParser(text).ParseAll(); }

std::string DataType::ToString() const {
  std::string text;
  switch (root) {
    case TypeRoot::kBoolean: text = "BOOLEAN"; break;
    case TypeRoot::kTinyInt: text = "TINYINT"; break;
    case TypeRoot::kSmallInt: text = "SMALLINT"; break;
    case TypeRoot::kInt: text = "INT"; break;
    case TypeRoot::kBigInt: text = "BIGINT"; break;
    case TypeRoot::kFloat: text = "FLOAT"; break;
    case TypeRoot::kDouble: text = "DOUBLE"; break;
    case TypeRoot::kDecimal:
      text = "DECIMAL(" + std::to_string(precision) + ", " + std::to_string(scale) + ")";
      break;
    case TypeRoot::kChar: text = Parenthesized("CHAR", precision); break;
    case TypeRoot::kVarChar:
      text = precision == kMaxLength ? "STRING" : Parenthesized("VARCHAR", precision);
      break;
    case TypeRoot::kBinary: text = Parenthesized("BINARY", precision); break;
    case TypeRoot::kVarBinary:
      text = precision == kMaxLength ? "BYTES" : Parenthesized("VARBINARY", precision);
      break;
    case TypeRoot::kDate: text = "DATE"; break;
    case TypeRoot::kTime: text = Parenthesized("TIME", precision); break;
    case TypeRoot::kTimestamp: text = Parenthesized("TIMESTAMP", precision); break;
    case TypeRoot::kTimestampLocalTimeZone:
      text = Parenthesized("TIMESTAMP", precision) + " WITH LOCAL TIME ZONE";
      break;
    case TypeRoot::kMap:
      text = "MAP<" + children.at(0).ToString() + ", " + children.at(1).ToString() + ">";
      break;
    case TypeRoot::kArray: text = "ARRAY<" + children.at(0).ToString() + ">"; break;
    case TypeRoot::kMultiset: text = "MULTISET<" + children.at(0).ToString() + ">"; break;
    case TypeRoot::kRow: {
      text = "ROW<";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) text += ", ";
        text += "f" + std::to_string(i) + " " + children[i].ToString();
      }
      text += ">";
      break;
    }
    case TypeRoot::kVariant: text = "VARIANT"; break;
    case TypeRoot::kBlob: text = "BLOB"; break;
  }
  if (!nullable) text += " NOT NULL";
  return text;
}

bool DataType::operator==(const DataType& other) const {
  return root == other.root && nullable == other.nullable && precision == other.precision &&
         scale == other.scale && children == other.children;
}

}  // namespace pyfileindex
