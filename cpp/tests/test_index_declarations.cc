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

TEST(IndexDeclarationsTest, OptionKeysReadAsJavaReadsThem) {
  using Kind = IndexOptionKey::Kind;
  EXPECT_EQ(ParseIndexOptionKey("bucket").kind, Kind::kOther);
  const IndexOptionKey columns = ParseIndexOptionKey("file-index.a.b.columns");
  EXPECT_EQ(columns.kind, Kind::kColumns);
  EXPECT_EQ(columns.index_type, "a.b");
  const IndexOptionKey option = ParseIndexOptionKey("file-index.bloom-filter.m[k].fpp");
  EXPECT_EQ(option.kind, Kind::kIndexOption);
  EXPECT_EQ(option.index_type, "bloom-filter");
  EXPECT_EQ(option.column, "m[k]");
  EXPECT_EQ(option.option, "fpp");
  EXPECT_EQ(ParseIndexOptionKey("file-index.read.enabled").kind, Kind::kTableLevel);
  EXPECT_EQ(ParseIndexOptionKey("file-index.in-manifest-threshold").kind, Kind::kTableLevel);
  for (const char* ignored : {"file-index.bitmap.version", "file-index..columns",
                              "file-index.a.b.c.d"}) {
    EXPECT_EQ(ParseIndexOptionKey(ignored).kind, Kind::kIgnored) << ignored;
  }
}

TEST(IndexDeclarationsTest, ColumnListsSplitAsJavaSplitsThem) {
  const std::vector<IndexColumnName> names = SplitIndexColumns(" a ,\u3000,\x01,,");
  ASSERT_EQ(names.size(), 3u);  // trailing empty pieces dropped
  EXPECT_EQ(names[0].name, "a");
  EXPECT_FALSE(names[0].blank);
  EXPECT_TRUE(names[1].blank);  // U+3000 is whitespace to Java, though trim keeps it
  EXPECT_EQ(names[1].name, "\u3000");
  EXPECT_EQ(names[2].name, "");  // trim drops every character <= ' '
  EXPECT_FALSE(names[2].blank);
  EXPECT_TRUE(SplitIndexColumns(",,").empty());
}

}  // namespace
}  // namespace pyfileindex
