// The "bitmap" index type: Paimon's BitmapFileIndexFactory.
#include <memory>

#include "index/bitmap/bitmap_key.h"
#include "index/bitmap/bitmap_reader.h"
#include "index/bitmap/bitmap_writer.h"
#include "index/index_type.h"

namespace pyfileindex::index {

namespace {

class BitmapIndexTypeImpl final : public IndexType {
 public:
  std::string_view name() const override { return "bitmap"; }

  std::vector<std::string_view> OptionNames() const override {
    return {"version", "index-block-size"};
  }

  Status CheckType(const DataType& type) const override {
    return bitmap::BitmapKeyFor(type).status();
  }

  Result<std::unique_ptr<ColumnIndexWriter>> MakeWriter(const DataType& type,
                                                        const Options& options) const override {
    PFI_ASSIGN_OR_RETURN(keys::PhysicalKey key, bitmap::BitmapKeyFor(type));
    PFI_ASSIGN_OR_RETURN(bitmap::WriterOptions parsed, bitmap::ParseWriterOptions(options));
    return std::unique_ptr<ColumnIndexWriter>(
        std::make_unique<bitmap::BitmapIndexWriter>(type, key, parsed));
  }

  Result<std::unique_ptr<ColumnIndexReader>> OpenReader(const DataType& type,
                                                        ByteSpan payload) const override {
    PFI_ASSIGN_OR_RETURN(std::unique_ptr<bitmap::BitmapIndexReader> reader,
                         bitmap::BitmapIndexReader::Open(type, payload));
    return std::unique_ptr<ColumnIndexReader>(std::move(reader));
  }
};

}  // namespace

const IndexType& BitmapIndexType() {
  static const BitmapIndexTypeImpl instance;
  return instance;
}

}  // namespace pyfileindex::index
