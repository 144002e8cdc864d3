/// @file
/// Status and Result<T>: how every fallible pyfileindex call reports failure.
///
/// The library never aborts on bad input and reports every failure as a value: bad bytes,
/// options, types or predicates give a Status naming the problem. FileIndexReader,
/// FileIndexWriter, RowBitmap::Deserialize, the Options getters and ParseMemorySize also
/// catch any exception raised inside them (std::bad_alloc included) and return it as a Status
/// (Internal "out of memory" for std::bad_alloc), so no exception crosses those calls. The rest
/// of the API (RowBitmap set algebra, Predicate and Literal building, ParseDataType, ToString)
/// can only fail by running out of memory, where it throws std::bad_alloc like the standard
/// containers it is made of.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "pyfileindex/export.h"

namespace pyfileindex {

/// What kind of failure a Status reports.
enum class StatusCode : int {
  kOk = 0,               ///< success
  kInvalidArgument = 1,  ///< the caller passed something unusable (option, type, literal)
  kCorrupt = 2,          ///< index bytes are truncated or structurally damaged
  kNotSupported = 3,     ///< a valid request this library (or Paimon) does not support
  kNotFound = 4,         ///< a named column / index type is absent
  kIoError = 5,          ///< reading or writing a file failed
  kInternal = 6,         ///< a broken invariant (a bug in pyfileindex), or out of memory
};

namespace internal {

// One piece of a Status message: text as it is, a char as a character, an integer in decimal
// (std::to_string: never locale-dependent). Anything else (a double, a bool, an enum) is a
// compile error, not a silent conversion: the caller formats it the way the reader expects.
template <typename T>
inline constexpr bool kIsTextPiece = std::is_convertible_v<const T&, std::string_view>;

template <typename T>
void AppendPiece(std::string* out, const T& piece) {
  if constexpr (std::is_same_v<T, char>) {
    out->push_back(piece);
  } else if constexpr (std::is_same_v<T, const char*> || std::is_same_v<T, char*>) {
    if (piece != nullptr) out->append(piece);
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    out->append(std::to_string(piece));
  } else {
    static_assert(kIsTextPiece<T>, "format this value before putting it in a Status message");
    out->append(std::string_view(piece));
  }
}

inline std::string JoinPieces(std::string text) { return text; }
template <typename... Pieces>
std::string JoinPieces(const Pieces&... pieces) {
  std::string out;
  (AppendPiece(&out, pieces), ...);
  return out;
}

}  // namespace internal

/// The outcome of a call: OK, or an error code with a human-readable message. A value type;
/// cheap to copy when OK. [[nodiscard]]: a call whose Status is dropped does not compile
/// quietly; discard one deliberately with `(void)` and a comment saying why.
class [[nodiscard]] PYFILEINDEX_EXPORT Status {
 public:
  /// OK.
  Status() = default;

  /// The success value.
  static Status OK() { return Status(); }
  /// Factories for each error code. The message is the pieces joined: strings as they are,
  /// integers in decimal, e.g. `Status::Corrupt("block ", i, " ends past ", size)`.
  template <typename... Pieces>
  static Status InvalidArgument(const Pieces&... pieces) {
    return Status(StatusCode::kInvalidArgument, internal::JoinPieces(pieces...));
  }
  template <typename... Pieces>
  static Status Corrupt(const Pieces&... pieces) {
    return Status(StatusCode::kCorrupt, internal::JoinPieces(pieces...));
  }
  template <typename... Pieces>
  static Status NotSupported(const Pieces&... pieces) {
    return Status(StatusCode::kNotSupported, internal::JoinPieces(pieces...));
  }
  template <typename... Pieces>
  static Status NotFound(const Pieces&... pieces) {
    return Status(StatusCode::kNotFound, internal::JoinPieces(pieces...));
  }
  template <typename... Pieces>
  static Status IoError(const Pieces&... pieces) {
    return Status(StatusCode::kIoError, internal::JoinPieces(pieces...));
  }
  template <typename... Pieces>
  static Status Internal(const Pieces&... pieces) {
    return Status(StatusCode::kInternal, internal::JoinPieces(pieces...));
  }

  /// True for success.
  bool ok() const { return code_ == StatusCode::kOk; }
  /// The error code (kOk for success).
  StatusCode code() const { return code_; }
  /// The error message (empty for success).
  const std::string& message() const { return message_; }

  /// "Corrupt index: <message>", or "OK".
  std::string ToString() const;

  /// Prefixes the message with context (pieces joined as in the factories), e.g. the column
  /// an index belongs to. OK stays OK.
  template <typename... Pieces>
  Status WithContext(const Pieces&... context) const {
    if (ok()) return *this;
    return Status(code_, internal::JoinPieces(context..., ": ", message_));
  }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

/// A value of type T, or the Status explaining why there is none. Check ok() before value():
/// reading the value of a failed Result is undefined behaviour. [[nodiscard]] like Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  /// An unassigned Result reports an error (bindings need default-constructible values).
  /// Its message is short enough to be stored inline: Cython makes such a Result on every
  /// call that receives one, so making it must not allocate.
  Result() : status_(Status::Internal("Result unset")) {}
  /// A successful result holding `value`.
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  /// A failed result; `status` must be an error (an OK status becomes an Internal error).
  Result(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    assert(!status_.ok() && "a Result built from a Status must carry an error");
    if (status_.ok()) status_ = Status::Internal("Result constructed from an OK status");
  }

  /// True when a value is present.
  bool ok() const { return status_.ok(); }
  /// OK, or the error.
  const Status& status() const { return status_; }

  /// The value (only when ok()); the rvalue forms move it out.
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  /// Moves the value out (only when ok(); despite the name it never aborts).
  T ValueOrDie() && { return std::move(*value_); }

  /// Pointer-like access to the value (only when ok()).

  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace pyfileindex

#define PFI_CONCAT_INNER(a, b) a##b
#define PFI_CONCAT(a, b) PFI_CONCAT_INNER(a, b)

/// Returns the Status from the enclosing function if `expr` (a Status) failed.
#define PFI_RETURN_NOT_OK(expr)                       \
  do {                                                \
    ::pyfileindex::Status _pfi_status = (expr);       \
    if (!_pfi_status.ok()) return _pfi_status;        \
  } while (false)

#define PFI_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                              \
  if (!tmp.ok()) return tmp.status();              \
  lhs = std::move(tmp).ValueOrDie()

/// `PFI_ASSIGN_OR_RETURN(auto x, MakeX());` declares x from a Result or returns its error.
#define PFI_ASSIGN_OR_RETURN(lhs, rexpr) \
  PFI_ASSIGN_OR_RETURN_IMPL(PFI_CONCAT(_pfi_result_, __LINE__), lhs, rexpr)
