// The console summary, line by line: results files of real runs (the
// fixtures the Python reports are tested with, tools/tests/fixtures/) are read
// back into the rows Google Benchmark reported and the summary printed from
// them must be exactly tests/data/summary/<fixture>.txt. A change to the
// summary's text shows here as a diff; when it is meant, regenerate the files
// with IOBENCH_UPDATE_GOLDEN=1 and read the diff before committing it.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/report/report.hpp"
#include "saved_run.hpp"

namespace iobench {
namespace {

using Run = benchmark::BenchmarkReporter::Run;
using nlohmann::json;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

class SummaryGolden : public testing::TestWithParam<const char*> {};

TEST_P(SummaryGolden, IsTheTextOfTheGoldenFile) {
    const std::string fixture = std::string(IOBENCH_FIXTURES_DIR "/") + GetParam() + ".json";
    const std::string golden = std::string(IOBENCH_TEST_DATA_DIR "/summary/") + GetParam() + ".txt";
    std::ifstream in(fixture);
    ASSERT_TRUE(in) << "cannot open " << fixture;
    const std::string text = summary_of(read_saved_run(json::parse(in)));
    if (const char* update = std::getenv("IOBENCH_UPDATE_GOLDEN"); update && std::string(update) == "1") {
        std::ofstream(golden, std::ios::binary) << text;
        GTEST_SKIP() << "wrote " << golden;
    }
    std::ifstream expected_in(golden, std::ios::binary);
    ASSERT_TRUE(expected_in) << "cannot open " << golden << " (IOBENCH_UPDATE_GOLDEN=1 writes it)";
    std::stringstream expected;
    expected << expected_in.rdbuf();
    const std::vector<std::string> want = lines_of(expected.str()), got = lines_of(text);
    for (std::size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
        ASSERT_LT(i, got.size()) << "the summary ends before line " << i + 1 << " of " << golden << ": "
                                 << want[i];
        ASSERT_LT(i, want.size()) << "the summary has more lines than " << golden << ", from line " << i + 1
                                  << ": " << got[i];
        ASSERT_EQ(got[i], want[i]) << "line " << i + 1 << " of " << golden;
    }
    EXPECT_EQ(text, expected.str());  // line ends and the final newline too
}

// A quick run with every row's structure; file_read warm and cold (cold/warm
// column, labels); the same under wine (skips with reasons); instruction
// counts; failed rows (and a file without the structure fields, read from
// the names); buffer sizes of a sweep.
INSTANTIATE_TEST_SUITE_P(Fixtures, SummaryGolden,
                         testing::Values("quick-structure", "cold-gcc", "cold-mingw-wine", "instructions-valgrind",
                                         "failed", "file-read-cache", "sweep-gcc", "gcc-2reps"),
                         [](const testing::TestParamInfo<const char*>& param) {
                             std::string name = param.param;
                             for (char& c : name)
                                 if (c == '-') c = '_';
                             return name;
                         });

/// The reading back itself: a golden file cannot catch a reader that drops
/// what both sides lose. The rows' times and counters survive it.
TEST(SummaryGolden, ReadingBackKeepsTimesCountersAndOutcomes) {
    std::ifstream in(IOBENCH_FIXTURES_DIR "/failed.json");
    ASSERT_TRUE(in);
    const json doc = json::parse(in);
    const SavedRun saved = read_saved_run(doc);
    ASSERT_EQ(saved.runs.size(), doc.at("benchmarks").size());
    std::set<std::string> failed;  // benchmarks with a row that failed (not skipped)
    for (std::size_t i = 0; i < saved.runs.size(); ++i) {
        const json& row = doc.at("benchmarks")[i];
        const benchmark::BenchmarkReporter::Run& r = saved.runs[i];
        if (row.value("error_occurred", false)) {
            if (row.value("error_message", "").rfind("skipped: ", 0) != 0) failed.insert(row.at("run_name"));
            continue;
        }
        const double real = row.at("real_time").get<double>();
        // A percentage aggregate (cv) is written as it is; a time per run in time_unit.
        const double read_back = row.value("aggregate_unit", "time") == "percentage" ? r.real_accumulated_time
                                                                                     : r.GetAdjustedRealTime();
        EXPECT_NEAR(read_back, real, 1e-9 * real) << row.at("name");
        for (const char* counter : {"write_calls", "bytes_per_second"}) {
            if (row.contains(counter)) {
                EXPECT_EQ(r.counters.at(counter).value, row.at(counter).get<double>()) << row.at("name");
            }
        }
    }
    ASSERT_FALSE(failed.empty()) << "failed.json has failed rows";
    EXPECT_EQ(saved.outcomes.failed(), static_cast<int>(failed.size()));
}

}  // namespace
}  // namespace iobench
