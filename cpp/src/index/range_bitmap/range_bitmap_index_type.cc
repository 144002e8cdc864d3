// The "range-bitmap" entry of the index-type registry.
#include "index/index_type.h"
#include "index/range_bitmap/key_kind.h"
#include "index/range_bitmap/range_bitmap_reader.h"
#include "index/range_bitmap/range_bitmap_writer.h"

namespace pyfileindex::index {

namespace {

class RangeBitmapType final : public IndexType {
 public:
  std::string_view name() const override { return range_bitmap::kRangeBitmapName; }

  std::vector<std::string_view> OptionNames() const override {
    return {range_bitmap::kChunkSizeOption};
  }

  Status CheckType(const DataType& type) const override {
    return range_bitmap::KeySpecFor(type).status();
  }

  Result<std::unique_ptr<ColumnIndexWriter>> MakeWriter(const DataType& type,
                                                        const Options& options) const override {
    return range_bitmap::RangeBitmapWriter::Make(type, options);
  }

  Result<std::unique_ptr<ColumnIndexReader>> OpenReader(const DataType& type,
                                                        ByteSpan payload) const override {
    PFI_ASSIGN_OR_RETURN(std::unique_ptr<range_bitmap::RangeBitmapReader> reader,
                         range_bitmap::RangeBitmapReader::Open(type, payload));
    return std::unique_ptr<ColumnIndexReader>(std::move(reader));
  }
};

}  // namespace

const IndexType& RangeBitmapIndexType() {
  static const RangeBitmapType type;
  return type;
}

}  // namespace pyfileindex::index
