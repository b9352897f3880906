#include "harness/output/output_format.h"

#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

TEST(OutputFormatTest, ParsesEveryFormatByItsName) {
  for (const auto& [format, name] :
       {std::pair{OutputFormat::kTable, "table"}, std::pair{OutputFormat::kCsv, "csv"},
        std::pair{OutputFormat::kJson, "json"}}) {
    absl::StatusOr<OutputFormat> parsed = ParseOutputFormat(name);
    ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.status();
    EXPECT_EQ(*parsed, format) << name;
    EXPECT_EQ(OutputFormatFlagName(format), name);
  }
  for (const OutputFormatName& row : kOutputFormatNames)
    EXPECT_EQ(*ParseOutputFormat(row.name), row.format) << row.name;
}

TEST(OutputFormatTest, RefusesAnUnknownNameListingTheFormats) {
  for (absl::string_view bad : {"xml", "", "JSON", "tab", "csv "})
    EXPECT_FALSE(ParseOutputFormat(bad).ok()) << bad;
  EXPECT_EQ(ParseOutputFormat("xml").status().message(),
            "--format: unknown format 'xml'; allowed: table, csv, json");
}

TEST(OutputFormatTest, AModeTakesOnlyItsFormats) {
  const OutputFormat table_or_json[] = {OutputFormat::kTable, OutputFormat::kJson};
  EXPECT_EQ(*ParseOutputFormat("json", table_or_json, "list_clocks"), OutputFormat::kJson);
  EXPECT_EQ(*ParseOutputFormat("table", table_or_json, "list_clocks"), OutputFormat::kTable);
  EXPECT_EQ(ParseOutputFormat("csv", table_or_json, "list_clocks").status().message(),
            "--format: --list_clocks reports as table or json; got 'csv'");
  EXPECT_EQ(ParseOutputFormat("x\n", table_or_json, "analyze").status().message(),
            "--format: unknown format 'x\\n'; allowed: table, json");
}

}  // namespace
}  // namespace tickbench::harness
