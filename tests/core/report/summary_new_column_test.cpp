// A new column of the console summary is one entry of its spec
// (tools/iobench_compare/spec/summary_columns.json) and no code: this program is
// built with core/report/summary.cpp compiled against the table the build
// generates from the spec with one column more ("user CPU": the counter
// user_time, written as a time, in every table with a row that has it;
// tests/CMakeLists.txt, summary.new_column), and prints the summary of a saved
// run (iobench-compare's side: tools/tests/test_columns.py, NewColumnTest).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/report/number_format.hpp"
#include "generated/summary_columns.hpp"
#include "saved_run.hpp"

namespace iobench {
namespace {

/// The cells of one line of a summary table: texts parted by two spaces or more.
std::vector<std::string> cells_of(const std::string& line) {
    static const std::regex gap(" {2,}");
    std::vector<std::string> out;
    for (std::sregex_token_iterator it(line.begin(), line.end(), gap, -1), end; it != end; ++it)
        if (!it->str().empty()) out.push_back(*it);
    return out;
}

TEST(SummaryNewColumn, TheSpecsEntryAloneShowsUnderItsHeaderWithTheRowsCounter) {
    ASSERT_EQ(summary_columns::columns.back().key, "user_cpu") << "built against the spec's own table";
    const std::string fixture = IOBENCH_FIXTURES_DIR "/quick-gcc.json";
    std::ifstream in(fixture);
    ASSERT_TRUE(in) << "cannot open " << fixture;
    const json doc = json::parse(in);
    const std::string text = summary_of(read_saved_run(doc));
    // ints_out/obuf's user CPU: the user_time of the run that stands for the row, its median.
    std::string obuf_user_cpu;
    for (const json& row : doc.at("benchmarks"))
        if (row.at("name") == "ints_out/obuf_median") obuf_user_cpu = format_time(row.at("user_time").get<double>());
    ASSERT_FALSE(obuf_user_cpu.empty());

    std::istringstream lines(text);
    std::string line, table;
    int headers = 0;
    bool obuf_seen = false;
    while (std::getline(lines, line)) {
        if (!line.empty() && line[0] != ' ') table = line;  // a table's title
        if (line.rfind("  method ", 0) == 0) {
            const std::vector<std::string> header = cells_of(line);
            EXPECT_EQ(header.back(), "user CPU") << table << ": " << line;
            ++headers;
        } else if (table == "ints_out" && line.rfind("  obuf ", 0) == 0) {
            const std::vector<std::string> cells = cells_of(line);
            EXPECT_EQ(cells.back(), obuf_user_cpu) << line;
            obuf_seen = true;
        }
    }
    EXPECT_GE(headers, 2) << text;
    EXPECT_TRUE(obuf_seen) << text;
}

}  // namespace
}  // namespace iobench
