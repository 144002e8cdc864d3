// The table of built-in index types. An explicit list (not self-registration at static-init
// time, which a static library link can silently drop).
#include "index/index_type.h"

namespace pyfileindex::index {

// Each index type's singleton, defined in its own folder.
const IndexType& BitmapIndexType();
const IndexType& BloomFilterIndexType();
const IndexType& BsiIndexType();
const IndexType& RangeBitmapIndexType();

namespace {
const std::vector<const IndexType*>& AllTypes() {
  static const std::vector<const IndexType*> types = {
      &BitmapIndexType(),
      &BloomFilterIndexType(),
      &BsiIndexType(),
      &RangeBitmapIndexType(),
  };
  return types;
}
}  // namespace

const IndexType* FindIndexType(std::string_view name) {
  for (const IndexType* type : AllTypes()) {
    if (type->name() == name) return type;
  }
  return nullptr;
}

std::vector<std::string_view> IndexTypeNames() {
  std::vector<std::string_view> names;
  for (const IndexType* type : AllTypes()) names.push_back(type->name());
  return names;
}

}  // namespace pyfileindex::index
