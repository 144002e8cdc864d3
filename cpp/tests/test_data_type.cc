// The Paimon type grammar: the one parser of type strings (Python's schema model asks it too).
#include <gtest/gtest.h>

#include <string>

#include "pyfileindex/data_type.h"

namespace pyfileindex {
namespace {

std::string Canonical(const std::string& text) {
  const Result<DataType> parsed = ParseDataType(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
  return parsed.ok() ? parsed->ToString() : "";
}

std::string Problem(const std::string& text) {
  const Result<DataType> parsed = ParseDataType(text);
  EXPECT_FALSE(parsed.ok()) << text;
  return parsed.ok() ? "" : parsed.status().message();
}

TEST(DataTypeGrammar, JavasSpellingsAndTheNestedForms) {
  EXPECT_EQ(Canonical("integer not null"), "INT NOT NULL");
  EXPECT_EQ(Canonical("INT NULL"), "INT");
  EXPECT_EQ(Canonical("DOUBLE PRECISION"), "DOUBLE");
  EXPECT_EQ(Canonical("TIMESTAMP(3) WITH LOCAL TIME ZONE"), "TIMESTAMP(3) WITH LOCAL TIME ZONE");
  EXPECT_EQ(Canonical("TIME(3) WITHOUT TIME ZONE"), "TIME(3)");
  EXPECT_EQ(Canonical("INT ARRAY NOT NULL"), "ARRAY<INT> NOT NULL");
  EXPECT_EQ(Canonical("STRING NOT NULL MULTISET"), "MULTISET<STRING NOT NULL>");
  EXPECT_EQ(Canonical("VECTOR<FLOAT, 3> NOT NULL"), "VECTOR<FLOAT, 3> NOT NULL");
  EXPECT_EQ(Canonical("GEOMETRY('OGC:CRS84')"), "GEOMETRY");
  EXPECT_EQ(Canonical("ROW<>"), "ROW<>");
  EXPECT_EQ(Canonical("ROW<a INT, `b``c` STRING COMMENT 'it''s', d.e BIGINT 'x'>"),
            "ROW<`a` INT, `b``c` STRING COMMENT 'it''s', `d.e` BIGINT COMMENT 'x'>");
}

TEST(DataTypeGrammar, RowsKeepTheirFieldNamesAndDescriptions) {
  const Result<DataType> row =
      ParseDataType("ROW<`x y` INT COMMENT 'first', z MAP<STRING, INT>>");
  ASSERT_TRUE(row.ok()) << row.status().ToString();
  ASSERT_EQ(row->children.size(), 2u);
  EXPECT_EQ(row->field_names, (std::vector<std::string>{"x y", "z"}));
  EXPECT_EQ(row->field_descriptions, (std::vector<std::string>{"first", ""}));
  EXPECT_EQ(row->children[1].root, TypeRoot::kMap);
  EXPECT_NE(*row, *ParseDataType("ROW<`x y` INT, z MAP<STRING, INT>>"));  // the description
  const Result<DataType> vector = ParseDataType("VECTOR<FLOAT, 8>");
  ASSERT_TRUE(vector.ok());
  EXPECT_EQ(vector->root, TypeRoot::kVector);
  EXPECT_EQ(vector->precision, 8);
  EXPECT_EQ(vector->children.at(0).root, TypeRoot::kFloat);
}

TEST(DataTypeGrammar, ProblemsAreNamedWithTheirPosition) {
  EXPECT_EQ(Problem("WIDGET"),
            "cannot parse Paimon type 'WIDGET' at position 1: unknown type 'WIDGET'");
  EXPECT_EQ(Problem(""), "cannot parse Paimon type '' at position 1: unexpected end");
  EXPECT_EQ(Problem("INT INT"),
            "cannot parse Paimon type 'INT INT' at position 5: unexpected 'INT'");
  EXPECT_NE(Problem("DECIMAL(10,").find("expected an integer"), std::string::npos);
  EXPECT_NE(Problem("MAP<STRING>").find("at position 11: expected ','"), std::string::npos);
  EXPECT_NE(Problem("ROW<a INT b>").find("expected ',' or '>'"), std::string::npos);
  EXPECT_NE(Problem("ROW<`a INT>").find("unterminated field name"), std::string::npos);
  EXPECT_NE(Problem("VARCHAR(2147483648)").find("VARCHAR length must be 1..2147483647"),
            std::string::npos);
  EXPECT_NE(Problem("VECTOR<FLOAT, 0>").find("VECTOR length must be"), std::string::npos);
  EXPECT_NE(Problem("TIMESTAMP_LTZ(10)").find("TIMESTAMP_LTZ precision must be 0..9"),
            std::string::npos);
  EXPECT_NE(Problem("TIMESTAMP WITH TIME ZONE").find("expected LOCAL"), std::string::npos);
}

}  // namespace
}  // namespace pyfileindex
