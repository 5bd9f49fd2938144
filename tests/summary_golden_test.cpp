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

#include "core/outcome.hpp"
#include "core/report.hpp"
#include "core/suite.hpp"

namespace iobench {
namespace {

using Run = benchmark::BenchmarkReporter::Run;
using nlohmann::json;

/// What the summary of a finished run is printed from, read from its results file.
struct SavedRun {
    std::vector<Run> runs;
    Outcomes outcomes;
    CaseIndex index;
    std::vector<Skipped> skipped;
    std::vector<LoadedPlugin> plugins;
    std::string instructions_source;
};

benchmark::TimeUnit time_unit_of(const std::string& unit) {
    if (unit == "ns") return benchmark::kNanosecond;
    if (unit == "us") return benchmark::kMicrosecond;
    if (unit == "s") return benchmark::kSecond;
    return benchmark::kMillisecond;
}

/// Seconds per unit of `unit` (Google Benchmark's GetTimeUnitMultiplier, inverted).
double seconds_per(benchmark::TimeUnit unit) {
    switch (unit) {
    case benchmark::kNanosecond: return 1e-9;
    case benchmark::kMicrosecond: return 1e-6;
    case benchmark::kMillisecond: return 1e-3;
    case benchmark::kSecond: return 1;
    }
    return 1e-3;
}

/// The keys of a results row that are not counters: Google Benchmark's own
/// and the structure iobench adds (NamedJSONReporter).
bool is_counter(const std::string& key) {
    static const char* const not_counters[] = {
        "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
        "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
        "aggregate_unit", "error_occurred", "error_message", "label", "workload", "method", "family",
        "reference", "params", "item_unit", "compared_per", "calls_not_counted", "counters_scope"};
    for (const char* k : not_counters)
        if (key == k) return false;
    return true;
}

/// The rows of `doc` as Google Benchmark reported them, and the structure the
/// rows carry (files written before rows had it: read from the name).
SavedRun read_saved_run(const json& doc) {
    SavedRun saved;
    const json& context = doc.at("context");
    saved.instructions_source = context.value("instructions_source", "");
    // "name: reason; name: reason" (skipped_context); the names hold no ": ".
    std::string skipped = context.value("skipped", "");
    for (std::size_t start = 0; start < skipped.size();) {
        std::size_t end = skipped.find("; ", start);
        if (end == std::string::npos) end = skipped.size();
        const std::string item = skipped.substr(start, end - start);
        const std::size_t colon = item.find(": ");
        saved.skipped.push_back({item.substr(0, colon), colon == std::string::npos ? "" : item.substr(colon + 2)});
        start = end + 2;
    }
    for (const json& p : context.value("plugins", json::array()))
        saved.plugins.push_back({p.at("path"), p.at("sha256"), p.value("built_with", ""), p.at("families"),
                                 p.value("methods", std::vector<std::string>{})});
    for (const json& row : doc.at("benchmarks")) {
        Run r;
        const std::string name = row.at("run_name");
        r.run_name.function_name = name;
        r.run_type = row.value("run_type", "iteration") == "aggregate" ? Run::RT_Aggregate : Run::RT_Iteration;
        r.aggregate_name = row.value("aggregate_name", "");
        r.family_index = row.value("family_index", 0);
        r.per_family_instance_index = row.value("per_family_instance_index", 0);
        r.repetitions = row.value("repetitions", 1);
        r.repetition_index = row.value("repetition_index", 0);
        r.iterations = row.value("iterations", 1);
        r.time_unit = time_unit_of(row.value("time_unit", "ms"));
        r.report_label = row.value("label", "");
        r.error_occurred = row.value("error_occurred", false);
        r.error_message = row.value("error_message", "");
        // The file has the time per run in time_unit; a percentage aggregate (cv) as it is.
        const double real = row.value("real_time", 0.0), cpu = row.value("cpu_time", 0.0);
        if (row.value("aggregate_unit", "time") == "percentage") {
            r.aggregate_unit = benchmark::StatisticUnit::kPercentage;
            r.real_accumulated_time = real;
            r.cpu_accumulated_time = cpu;
        } else {
            const double runs = r.iterations > 0 ? static_cast<double>(r.iterations) : 1.0;
            r.real_accumulated_time = real * runs * seconds_per(r.time_unit);
            r.cpu_accumulated_time = cpu * runs * seconds_per(r.time_unit);
        }
        for (const auto& [key, value] : row.items())
            if (value.is_number() && is_counter(key)) r.counters[key] = value.get<double>();
        if (r.error_occurred) {
            const std::string prefix = "skipped: ";
            saved.outcomes.record(name, r.error_message.rfind(prefix, 0) == 0
                                            ? Outcome::skipped(r.error_message.substr(prefix.size()))
                                            : Outcome::failed(r.error_message));
        } else {
            saved.outcomes.record(name, {});
        }
        if (row.contains("workload") && !saved.index.find(name)) {
            RowStructure s;
            s.name = name;
            s.workload = row.at("workload");
            s.method = row.at("method");
            s.family = row.value("family", "");
            s.reference = row.value("reference", false);
            const json params = row.value("params", json::object());
            s.buffer_size = params.value("buffer_size", std::size_t{0});
            if (params.contains("cache"))
                s.cache = params.at("cache") == "cold" ? CacheState::cold : CacheState::warm;
            s.item_unit = row.value("item_unit", "");
            s.compared_per_byte = row.value("compared_per", "item") == "byte";
            s.calls_not_counted = row.value("calls_not_counted", "");
            s.process_counters = row.value("counters_scope", "") == "process";
            s.program = row.value("counters_scope", "") == "program";
            saved.index.add(std::move(s));
        }
        saved.runs.push_back(std::move(r));
    }
    return saved;
}

std::string summary_of(const SavedRun& saved) {
    std::ostringstream out;
    SummaryConsoleReporter reporter(saved.outcomes, saved.index, benchmark::ConsoleReporter::OO_None);
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&out);
    reporter.set_skipped(saved.skipped);
    reporter.set_plugins(saved.plugins);
    if (!saved.instructions_source.empty()) reporter.set_instructions_source(saved.instructions_source);
    reporter.ReportRuns(saved.runs);
    reporter.Finalize();
    return out.str();
}

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
