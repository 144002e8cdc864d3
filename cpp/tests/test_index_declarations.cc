// DeclaredIndexes describes the plan FileIndexWriter::Make follows: which index on which column,
// and which of them take dictionary-encoded strings as they are.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pyfileindex/index_declarations.h"
#include "pyfileindex/writer.h"

namespace pyfileindex {
namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

std::vector<Field> Fields() {
  std::vector<Field> fields;
  for (const auto& [name, type] : std::vector<std::pair<std::string, std::string>>{
           {"s", "STRING"}, {"i", "INT"}, {"m", "MAP<STRING, STRING>"}, {"c", "CHAR(3)"}}) {
    fields.push_back(Field{name, *ParseDataType(type)});
  }
  return fields;
}

const IndexDeclaration* Find(const std::vector<IndexDeclaration>& declared,
                             const std::string& column, const std::string& type) {
  for (const IndexDeclaration& d : declared) {
    if (d.column == column && d.index_type == type) return &d;
  }
  return nullptr;
}

TEST(IndexDeclarationsTest, DescribesEveryDeclaredIndex) {
  const Options options(Entries{{"file-index.bitmap.columns", "s,i,m[k]"},
                                {"file-index.bsi.columns", "i"},
                                {"file-index.bloom-filter.columns", "c"}});
  const Result<std::vector<IndexDeclaration>> declared = DeclaredIndexes(Fields(), options);
  ASSERT_TRUE(declared.ok()) << declared.status().ToString();
  ASSERT_EQ(declared->size(), 5u);
  const IndexDeclaration* on_string = Find(*declared, "s", "bitmap");
  ASSERT_NE(on_string, nullptr);
  EXPECT_EQ(on_string->field, "s");
  EXPECT_TRUE(on_string->takes_dictionaries);
  const IndexDeclaration* on_map_key = Find(*declared, "m[k]", "bitmap");
  ASSERT_NE(on_map_key, nullptr);
  EXPECT_EQ(on_map_key->field, "m");
  EXPECT_FALSE(on_map_key->takes_dictionaries);  // map values are gathered row by row
  ASSERT_NE(Find(*declared, "i", "bsi"), nullptr);
  EXPECT_FALSE(Find(*declared, "i", "bsi")->takes_dictionaries);  // not a string column
  ASSERT_NE(Find(*declared, "c", "bloom-filter"), nullptr);
  EXPECT_TRUE(Find(*declared, "c", "bloom-filter")->takes_dictionaries);
}

TEST(IndexDeclarationsTest, NoDeclarationGivesNone) {
  const Result<std::vector<IndexDeclaration>> declared =
      DeclaredIndexes(Fields(), Options(Entries{{"bucket", "4"}}));
  ASSERT_TRUE(declared.ok());
  EXPECT_TRUE(declared->empty());
}

TEST(IndexDeclarationsTest, RefusesWhatTheWriterRefuses) {
  for (const Options& options :
       {Options(Entries{{"file-index.bitmap.columns", "nope"}}),
        Options(Entries{{"file-index.no-such-index.columns", "s"}}),
        Options(Entries{{"file-index.bloom-filter.columns", "s"},
                        {"file-index.bloom-filter.s.fpp", "often"}})}) {
    const Result<std::vector<IndexDeclaration>> declared = DeclaredIndexes(Fields(), options);
    const Result<std::unique_ptr<FileIndexWriter>> writer =
        FileIndexWriter::Make(Fields(), options);
    ASSERT_FALSE(declared.ok());
    ASSERT_FALSE(writer.ok());
    EXPECT_EQ(declared.status().message(), writer.status().message());
  }
  std::vector<Field> twice = Fields();
  twice.push_back(twice.front());
  EXPECT_FALSE(DeclaredIndexes(twice, Options(Entries{{"file-index.bitmap.columns", "s"}})).ok());
}

}  // namespace
}  // namespace pyfileindex
