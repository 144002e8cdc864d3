// Parser and printer for Paimon type strings (the `type` of a field in a schema file).
#include "pyfileindex/data_type.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace pyfileindex {

namespace {

constexpr int32_t kMaxLength = std::numeric_limits<int32_t>::max();

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// Characters that end a bare word: spaces, punctuation of the grammar and quotes.
bool EndsWord(char c) {
  return IsSpace(c) || c == '<' || c == '>' || c == '(' || c == ')' || c == ',' || c == '\'' ||
         c == '`';
}

std::string AsciiUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

class TypeParser {
 public:
  explicit TypeParser(std::string_view text) : text_(text) {}

  Result<DataType> ParseAll() {
    PFI_ASSIGN_OR_RETURN(DataType type, ParseTypeWithSuffix());
    SkipSpace();
    if (pos_ != text_.size()) {
      return ErrorAt(pos_, "unexpected '", PeekToken(), "'");
    }
    return type;
  }

 private:
  // What is wrong (pieces joined as in Status::InvalidArgument) at `position` of the text.
  template <typename... What>
  Status ErrorAt(size_t position, const What&... what) const {
    return Status::InvalidArgument("cannot parse Paimon type '", text_, "' at position ",
                                   position + 1, ": ", what...);
  }
  // At the next token (or the end of the text).
  template <typename... What>
  Status Error(const What&... what) {
    SkipSpace();
    return ErrorAt(pos_, what...);
  }
  // Where a token is missing: "unexpected end" when the text ended.
  template <typename... What>
  Status Missing(const What&... what) {
    SkipSpace();
    if (pos_ == text_.size()) return ErrorAt(pos_, "unexpected end");
    return ErrorAt(pos_, what...);
  }

  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }

  // The next token as written: a punctuation character, a quoted text or a bare word.
  std::string_view PeekToken() {
    SkipSpace();
    if (pos_ == text_.size()) return {};
    size_t end = pos_ + 1;
    if (!EndsWord(text_[pos_])) {
      while (end < text_.size() && !EndsWord(text_[end])) ++end;
    }
    return text_.substr(pos_, end - pos_);
  }

  // A bare word as written ("" if the next token is none).
  std::string_view PeekWord() {
    const std::string_view token = PeekToken();
    return token.empty() || EndsWord(token[0]) ? std::string_view() : token;
  }
  bool TakeKeyword(const char* keyword) {
    const std::string_view word = PeekWord();
    if (word.empty() || AsciiUpper(word) != keyword) return false;
    pos_ += word.size();
    return true;
  }
  bool TakeChar(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  Status ExpectChar(char c) {
    if (TakeChar(c)) return Status::OK();
    return Error("expected '", c, "'");
  }

  // Decimal digits; values beyond 2^31 - 1 come back as 2^31 (every range check refuses it).
  Result<int64_t> TakeInt() {
    SkipSpace();
    const size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) {
      value = std::min<int64_t>(value * 10 + (text_[pos_] - '0'), int64_t{kMaxLength} + 1);
      ++pos_;
    }
    if (pos_ == start || (pos_ < text_.size() && !EndsWord(text_[pos_]))) {
      pos_ = start;
      return Error("expected an integer");
    }
    return value;
  }

  // "(n)" when present, else `default_value`.
  Result<int64_t> OptionalParameter(int64_t default_value) {
    if (!TakeChar('(')) return default_value;
    PFI_ASSIGN_OR_RETURN(int64_t value, TakeInt());
    PFI_RETURN_NOT_OK(ExpectChar(')'));
    return value;
  }

  // A quoted text: `quote`, then anything with the quote doubled inside, then `quote`.
  Result<std::string> TakeQuoted(char quote, const char* what) {
    const size_t start = pos_;
    ++pos_;  // the opening quote
    std::string out;
    for (;;) {
      if (pos_ >= text_.size()) return ErrorAt(start, "unterminated ", what);
      if (text_[pos_] == quote) {
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == quote) {
          out += quote;
          pos_ += 2;
          continue;
        }
        ++pos_;
        return out;
      }
      out += text_[pos_++];
    }
  }

  // A type, its nullability, then the suffix notation "INT ARRAY" / "STRING MULTISET".
  Result<DataType> ParseTypeWithSuffix() {
    PFI_ASSIGN_OR_RETURN(DataType type, ParseType());
    type.nullable = ParseNullability();
    for (const char* suffix : {"ARRAY", "MULTISET"}) {
      if (TakeKeyword(suffix)) {
        DataType collection;
        collection.root = suffix[0] == 'A' ? TypeRoot::kArray : TypeRoot::kMultiset;
        collection.children = {std::move(type)};
        collection.nullable = ParseNullability();
        return collection;
      }
    }
    return type;
  }

  bool ParseNullability() {
    if (TakeKeyword("NOT")) {
      if (TakeKeyword("NULL")) return false;
      pos_ -= 3;  // "NOT" without NULL: reported as unexpected by the caller
      return true;
    }
    TakeKeyword("NULL");
    return true;
  }

  // A CHAR / VARCHAR / BINARY / VARBINARY length: 1 when absent; Java's types take
  // 1..2147483647.
  Result<int32_t> Length(const char* type_name, size_t at) {
    PFI_ASSIGN_OR_RETURN(int64_t length, OptionalParameter(1));
    if (length < 1 || length > kMaxLength) {
      return ErrorAt(at, type_name, " length must be 1..2147483647");
    }
    return static_cast<int32_t>(length);
  }

  // TIME / TIMESTAMP fractional digits: 0..9.
  Result<int32_t> Precision(const char* type_name, int64_t default_value, size_t at) {
    PFI_ASSIGN_OR_RETURN(int64_t precision, OptionalParameter(default_value));
    if (precision > 9) return ErrorAt(at, type_name, " precision must be 0..9");
    return static_cast<int32_t>(precision);
  }

  Result<DataType> ParseType() {
    DataType type;
    const std::string_view written = PeekWord();
    if (written.empty()) {
      return Missing("expected a type name, found '", PeekToken(), "'");
    }
    const size_t at = pos_;
    pos_ += written.size();
    const std::string word = AsciiUpper(written);
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
      int64_t precision = 10, scale = 0;
      if (TakeChar('(')) {
        PFI_ASSIGN_OR_RETURN(precision, TakeInt());
        if (TakeChar(',')) {
          PFI_ASSIGN_OR_RETURN(scale, TakeInt());
        }
        PFI_RETURN_NOT_OK(ExpectChar(')'));
      }
      if (precision < 1 || precision > 38 || scale > precision) {
        return ErrorAt(at, "DECIMAL precision must be 1..38 and scale 0..precision");
      }
      type.precision = static_cast<int32_t>(precision);
      type.scale = static_cast<int32_t>(scale);
    } else if (word == "CHAR") {
      type.root = TypeRoot::kChar;
      PFI_ASSIGN_OR_RETURN(type.precision, Length("CHAR", at));
    } else if (word == "VARCHAR") {
      type.root = TypeRoot::kVarChar;
      PFI_ASSIGN_OR_RETURN(type.precision, Length("VARCHAR", at));
    } else if (word == "STRING") {
      type.root = TypeRoot::kVarChar;
      type.precision = kMaxLength;
    } else if (word == "BINARY") {
      type.root = TypeRoot::kBinary;
      PFI_ASSIGN_OR_RETURN(type.precision, Length("BINARY", at));
    } else if (word == "VARBINARY") {
      type.root = TypeRoot::kVarBinary;
      PFI_ASSIGN_OR_RETURN(type.precision, Length("VARBINARY", at));
    } else if (word == "BYTES") {
      type.root = TypeRoot::kVarBinary;
      type.precision = kMaxLength;
    } else if (word == "DATE") {
      type.root = TypeRoot::kDate;
    } else if (word == "TIME") {
      type.root = TypeRoot::kTime;
      PFI_ASSIGN_OR_RETURN(type.precision, Precision("TIME", 0, at));
      PFI_RETURN_NOT_OK(WithoutTimeZone());
    } else if (word == "TIMESTAMP" || word == "TIMESTAMP_LTZ") {
      type.root = word == "TIMESTAMP" ? TypeRoot::kTimestamp : TypeRoot::kTimestampLocalTimeZone;
      PFI_ASSIGN_OR_RETURN(type.precision, Precision(word.c_str(), 6, at));
      if (word == "TIMESTAMP" && TakeKeyword("WITH")) {
        for (const char* keyword : {"LOCAL", "TIME", "ZONE"}) {
          if (!TakeKeyword(keyword)) return Error("expected ", keyword);
        }
        type.root = TypeRoot::kTimestampLocalTimeZone;
      } else if (word == "TIMESTAMP") {
        PFI_RETURN_NOT_OK(WithoutTimeZone());
      }
    } else if (word == "MAP") {
      type.root = TypeRoot::kMap;
      PFI_RETURN_NOT_OK(ExpectChar('<'));
      PFI_ASSIGN_OR_RETURN(DataType key, ParseTypeWithSuffix());
      PFI_RETURN_NOT_OK(ExpectChar(','));
      PFI_ASSIGN_OR_RETURN(DataType value, ParseTypeWithSuffix());
      PFI_RETURN_NOT_OK(ExpectChar('>'));
      type.children = {std::move(key), std::move(value)};
    } else if (word == "ARRAY" || word == "MULTISET") {
      type.root = word == "ARRAY" ? TypeRoot::kArray : TypeRoot::kMultiset;
      PFI_RETURN_NOT_OK(ExpectChar('<'));
      PFI_ASSIGN_OR_RETURN(DataType element, ParseTypeWithSuffix());
      PFI_RETURN_NOT_OK(ExpectChar('>'));
      type.children = {std::move(element)};
    } else if (word == "VECTOR") {
      type.root = TypeRoot::kVector;
      PFI_RETURN_NOT_OK(ExpectChar('<'));
      PFI_ASSIGN_OR_RETURN(DataType element, ParseTypeWithSuffix());
      PFI_RETURN_NOT_OK(ExpectChar(','));
      PFI_ASSIGN_OR_RETURN(int64_t length, TakeInt());
      if (length < 1 || length > kMaxLength) {
        return ErrorAt(at, "VECTOR length must be 1..2147483647");
      }
      PFI_RETURN_NOT_OK(ExpectChar('>'));
      type.precision = static_cast<int32_t>(length);
      type.children = {std::move(element)};
    } else if (word == "ROW") {
      type.root = TypeRoot::kRow;
      PFI_RETURN_NOT_OK(ParseRowFields(&type));
    } else if (word == "VARIANT") {
      type.root = TypeRoot::kVariant;
    } else if (word == "BLOB") {
      type.root = TypeRoot::kBlob;
    } else if (word == "GEOMETRY" || word == "GEOGRAPHY") {
      // Their parameters (a coordinate reference system, ...) mean nothing to an index.
      type.root = word == "GEOMETRY" ? TypeRoot::kGeometry : TypeRoot::kGeography;
      if (TakeChar('(')) {
        while (!TakeChar(')')) {
          if (PeekToken().empty()) return Missing("expected ')'");
          const std::string_view token = PeekToken();
          if (token[0] == '\'' || token[0] == '`') {
            PFI_RETURN_NOT_OK(TakeQuoted(token[0], "text").status());
          } else {
            pos_ += token.size();
          }
        }
      }
    } else {
      return ErrorAt(at, "unknown type '", written, "'");
    }
    return type;
  }

  Status WithoutTimeZone() {
    if (!TakeKeyword("WITHOUT")) return Status::OK();
    if (!TakeKeyword("TIME")) return Error("expected TIME");
    if (!TakeKeyword("ZONE")) return Error("expected ZONE");
    return Status::OK();
  }

  // "<" [field ("," field)*] ">", a field being a name (bare or `quoted`), its type and an
  // optional description ([COMMENT] 'text').
  Status ParseRowFields(DataType* row) {
    PFI_RETURN_NOT_OK(ExpectChar('<'));
    if (TakeChar('>')) return Status::OK();
    for (;;) {
      SkipSpace();
      std::string name;
      if (pos_ < text_.size() && text_[pos_] == '`') {
        PFI_ASSIGN_OR_RETURN(name, TakeQuoted('`', "field name"));
      } else {
        const std::string_view word = PeekWord();
        if (word.empty()) return Missing("expected a field name");
        name = std::string(word);
        pos_ += word.size();
      }
      PFI_ASSIGN_OR_RETURN(DataType field, ParseTypeWithSuffix());
      TakeKeyword("COMMENT");
      std::string description;
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == '\'') {
        PFI_ASSIGN_OR_RETURN(description, TakeQuoted('\'', "description"));
      }
      row->children.push_back(std::move(field));
      row->field_names.push_back(std::move(name));
      row->field_descriptions.push_back(std::move(description));
      if (TakeChar('>')) return Status::OK();
      if (!TakeChar(',')) return Missing("expected ',' or '>'");
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

std::string Parenthesized(const char* name, int32_t n) {
  return std::string(name) + "(" + std::to_string(n) + ")";
}

// `text` between `quote`s, each quote inside doubled.
std::string Quoted(const std::string& text, char quote) {
  std::string out(1, quote);
  for (char c : text) {
    out += c;
    if (c == quote) out += quote;
  }
  out += quote;
  return out;
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
      // Java's DataField.asSQLString: `name` TYPE [COMMENT 'description'].
      text = "ROW<";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) text += ", ";
        const std::string name =
            i < field_names.size() ? field_names[i] : "f" + std::to_string(i);
        text += Quoted(name, '`') + " " + children[i].ToString();
        if (i < field_descriptions.size() && !field_descriptions[i].empty()) {
          text += " COMMENT " + Quoted(field_descriptions[i], '\'');
        }
      }
      text += ">";
      break;
    }
    case TypeRoot::kVariant: text = "VARIANT"; break;
    case TypeRoot::kBlob: text = "BLOB"; break;
    case TypeRoot::kVector:
      text = "VECTOR<" + children.at(0).ToString() + ", " + std::to_string(precision) + ">";
      break;
    case TypeRoot::kGeometry: text = "GEOMETRY"; break;
    case TypeRoot::kGeography: text = "GEOGRAPHY"; break;
  }
  if (!nullable) text += " NOT NULL";
  return text;
}

bool DataType::operator==(const DataType& other) const {
  return root == other.root && nullable == other.nullable && precision == other.precision &&
         scale == other.scale && children == other.children &&
         field_names == other.field_names && field_descriptions == other.field_descriptions;
}

}  // namespace pyfileindex
