// The results file is built once as a JSON value (core/report/json_report.cpp); its
// Google Benchmark fields must be what Google Benchmark's own JSONReporter
// writes for the same rows and context, so that its tools keep reading it.
// Every row of the results files of real runs (tools/tests/fixtures) is
// written by both and compared field by field, in order.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/engine/outcome.hpp"
#include "core/os/emulator.hpp"
#include "core/report/json_report.hpp"
#include "core/report/report.hpp"
#include "saved_run.hpp"

namespace iobench {
namespace {

using BenchmarkRun = benchmark::BenchmarkReporter::Run;
using nlohmann::ordered_json;

/// Google Benchmark's JSONReporter's text of one row, read as JSON (discarded
/// where it wrote NaN or Infinity, which JSON has not).
ordered_json google_benchmark_row(const BenchmarkRun& run) {
    std::ostringstream text;
    benchmark::JSONReporter reporter;
    reporter.SetOutputStream(&text);
    reporter.SetErrorStream(&text);
    reporter.ReportRuns({run});
    return ordered_json::parse(text.str(), nullptr, false);
}

/// Google Benchmark's JSONReporter's context block for `context`.
ordered_json google_benchmark_context_text(const benchmark::BenchmarkReporter::Context& context) {
    std::ostringstream text;
    benchmark::JSONReporter reporter;
    reporter.SetOutputStream(&text);
    reporter.SetErrorStream(&text);
    reporter.ReportContext(context);
    return ordered_json::parse(text.str() + "]}").at("context");
}

std::vector<std::string> keys_of(const ordered_json& object) {
    std::vector<std::string> keys;
    for (const auto& item : object.items()) keys.push_back(item.key());
    return keys;
}

bool all_finite(const BenchmarkRun& r) {
    if (!std::isfinite(r.real_accumulated_time) || !std::isfinite(r.cpu_accumulated_time)) return false;
    for (const auto& entry : r.counters)
        if (!std::isfinite(entry.second.value)) return false;
    return true;
}

class RowsAsGoogleBenchmarkWritesThem : public testing::TestWithParam<const char*> {};

TEST_P(RowsAsGoogleBenchmarkWritesThem, FieldByField) {
    std::ifstream in(std::string(IOBENCH_FIXTURES_DIR "/") + GetParam() + ".json");
    ASSERT_TRUE(in);
    const SavedRun saved = read_saved_run(nlohmann::json::parse(in));
    ASSERT_FALSE(saved.runs.empty());
    int compared = 0;
    for (const BenchmarkRun& run : saved.runs) {
        const ordered_json ours = json_report::results_row(run, nullptr);
        if (!all_finite(run)) continue;  // (Google Benchmark writes NaN: no JSON to compare with)
        const ordered_json theirs = google_benchmark_row(run);
        ASSERT_FALSE(theirs.is_discarded()) << run.benchmark_name();
        ASSERT_EQ(keys_of(ours), keys_of(theirs)) << run.benchmark_name();
        for (const auto& item : theirs.items())
            EXPECT_EQ(ours.at(item.key()), item.value()) << run.benchmark_name() << ": " << item.key();
        ++compared;
    }
    EXPECT_GT(compared, 0);
}

// Iteration and aggregate rows (a cv in percent), failed and skipped rows with
// their messages, labels, counters of every kind, several time units.
INSTANTIATE_TEST_SUITE_P(Fixtures, RowsAsGoogleBenchmarkWritesThem,
                         testing::Values("quick-structure", "cold-gcc", "cold-mingw-wine", "instructions-valgrind",
                                         "failed", "file-read-cache", "gcc-aggregates", "gcc-2reps", "sweep-gcc"),
                         [](const testing::TestParamInfo<const char*>& param) {
                             std::string name = param.param;
                             for (char& c : name)
                                 if (c == '-') c = '_';
                             return name;
                         });

/// The instant `t` in UTC as `yyyy-mm-ddTHH:MM:SS`.
std::string utc_text(std::time_t t) {
    std::tm utc{};
#ifdef _WIN32
    gmtime_s(&utc, &t);
#else
    gmtime_r(&t, &utc);
#endif
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
    return text;
}

/// True when `theirs` is `before`, `after` or between the two (texts of one
/// format, in which later instants sort later).
bool between(const std::string& before, const std::string& theirs, const std::string& after) {
    return theirs == before || theirs == after || (before < theirs && theirs < after);
}

/// The current second read as Google Benchmark reads it (system_clock). Not
/// std::time: glibc's reads a coarse clock that can still give the last second
/// a few ms after system_clock has moved to the next one.
std::time_t now_as_google_benchmark_reads_it() {
    return std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
}

/// Checks our context against Google Benchmark's, which reads the clock
/// itself: its date must be one of ours for instants taken before and after
/// it, or fall between them (however long the calls took).
void expect_context_as_google_benchmark_writes_it() {
    const benchmark::BenchmarkReporter::Context context;
    const std::time_t first = now_as_google_benchmark_reads_it();
    const ordered_json before = json_report::google_benchmark_context(context, first);
    const ordered_json theirs = google_benchmark_context_text(context);
    const std::time_t last = now_as_google_benchmark_reads_it();
    const ordered_json after = json_report::google_benchmark_context(context, last);
    ASSERT_EQ(keys_of(before), keys_of(theirs));
    for (const auto& item : theirs.items()) {
        const std::string& key = item.key();
        if (key == "date") {
            const std::string date = item.value();
            if (date.size() == 25 && date.substr(19) == "-00:00") {
                // Where its C runtime's strftime gives no numeric %z (MinGW's),
                // Google Benchmark writes the UTC time with RFC 3339's unknown
                // offset; ours has the offset (json_report.hpp).
                EXPECT_TRUE(between(utc_text(first), date.substr(0, 19), utc_text(last)))
                    << "theirs " << date << ", the UTC time " << utc_text(first) << " to " << utc_text(last);
                continue;
            }
            EXPECT_TRUE(between(before.at(key).get<std::string>(), date, after.at(key).get<std::string>()))
                << "theirs " << item.value() << ", ours " << before.at(key) << " and " << after.at(key);
        } else if (key == "load_avg") {
            // Written with 6 significant digits by Google Benchmark, exactly by us.
            ASSERT_EQ(before.at(key).size(), item.value().size());
            for (std::size_t i = 0; i < item.value().size(); ++i)
                EXPECT_NEAR(before.at(key)[i].get<double>(), item.value()[i].get<double>(),
                            1e-5 * std::max(1.0, item.value()[i].get<double>()));
        } else {
            EXPECT_EQ(before.at(key), item.value()) << key;
        }
    }
}

TEST(ResultsContext, HasGoogleBenchmarksFieldsAsItWritesThem) { expect_context_as_google_benchmark_writes_it(); }

#ifndef _WIN32
/// Sets TZ for the life of the object, then restores it.
class TimeZone {
public:
    explicit TimeZone(const char* tz) {
        if (const char* old = std::getenv("TZ")) old_ = old;
        ::setenv("TZ", tz, 1);
        ::tzset();
    }
    ~TimeZone() {
        if (old_) ::setenv("TZ", old_->c_str(), 1);
        else ::unsetenv("TZ");
        ::tzset();
    }
    TimeZone(const TimeZone&) = delete;
    TimeZone& operator=(const TimeZone&) = delete;

private:
    std::optional<std::string> old_;
};

TEST(ResultsContext, TheDateCarriesTheOffsetOfAnyTimeZone) {
    // POSIX TZ strings (no time zone database needed): UTC+5:30, UTC-3:15, UTC+14.
    for (const char* tz : {"IST-5:30", "XYZ+3:15", "LINT-14"}) {
        const TimeZone zone(tz);
        SCOPED_TRACE(tz);
        expect_context_as_google_benchmark_writes_it();
    }
    const TimeZone zone("IST-5:30");
    const std::string date =
        json_report::google_benchmark_context(benchmark::BenchmarkReporter::Context(), std::time(nullptr))["date"];
    EXPECT_EQ(date.substr(date.size() - 6), "+05:30") << date;
}

TEST(ResultsContext, TheDateOfAnInstantInEachTimeZone) {
    // Fixed instants (seconds since the epoch, the UTC time beside them) in
    // POSIX TZ strings (no time zone database needed; "+" is west of UTC):
    // each way the offset is computed from the local and the UTC date.
    struct Case {
        const char* tz;
        std::time_t now;
        const char* date;
    };
    const Case cases[] = {
        {"UTC0", 1704067200, "2024-01-01T00:00:00+00:00"},      // 2024-01-01 00:00 UTC: midnight, no offset
        {"IST-5:30", 1709231400, "2024-03-01T00:00:00+05:30"},  // 2024-02-29 18:30 UTC: local midnight, the next day
        {"IST-5:30", 1709323200, "2024-03-02T01:30:00+05:30"},  // 2024-03-01 20:00 UTC: the next day
        {"IST-5:30", 1704049200, "2024-01-01T00:30:00+05:30"},  // 2023-12-31 19:00 UTC: the next day and year
        {"XYZ+3:15", 1709254800, "2024-02-29T21:45:00-03:15"},  // 2024-03-01 01:00 UTC: the day before
        {"XYZ+3:15", 1704067200, "2023-12-31T20:45:00-03:15"},  // 2024-01-01 00:00 UTC: the day and year before
        {"HST+10", 1718452800, "2024-06-15T02:00:00-10:00"},    // 2024-06-15 12:00 UTC: the same day, west
        {"LINT-14", 1718445600, "2024-06-16T00:00:00+14:00"},   // 2024-06-15 10:00 UTC: the largest offset
        {"NEG+0:30", 1719792600, "2024-06-30T23:40:00-00:30"},  // 2024-07-01 00:10 UTC: west by less than an hour
        // Summer time by the zone's rule: +02:00 in July, +01:00 in January.
        {"CET-1CEST,M3.5.0,M10.5.0/3", 1719792600, "2024-07-01T02:10:00+02:00"},
        {"CET-1CEST,M3.5.0,M10.5.0/3", 1704067200, "2024-01-01T01:00:00+01:00"},
    };
    for (const Case& c : cases) {
        const TimeZone zone(c.tz);
        EXPECT_EQ(json_report::local_date_time(c.now), c.date) << c.tz << " at " << c.now;
        EXPECT_EQ(json_report::google_benchmark_context(benchmark::BenchmarkReporter::Context(), c.now)["date"], c.date)
            << c.tz << " at " << c.now;
    }
}
#endif

/// The structure of `ints_out/<method>/buf:4096`.
RowStructure ints_out_structure(const std::string& method, const std::string& family) {
    RowStructure s;
    s.name = "ints_out/" + method + "/buf:4096";
    s.workload = "ints_out";
    s.method = method;
    s.family = family;
    s.buffer_size = 4096;
    s.item_unit = "integer";
    return s;
}

/// A whole results document of `runs` with the structure `index` gives them.
nlohmann::json document_of(const std::vector<BenchmarkRun>& runs, const CaseIndex& index,
                           std::map<std::string, std::string> context = {}) {
    std::ostringstream file;
    NamedJSONReporter json(index, file);
    json.set_context(std::move(context));
    json.set_plugins({{"/p/plugin.so", "alice", std::string(64, 'a'), "GNU 12", {"mine"}, {"mine_write"}, {}, {}}});
    json.ReportContext(benchmark::BenchmarkReporter::Context());
    json.ReportRuns(runs);
    json.Finalize();
    return nlohmann::json::parse(file.str());  // throws, failing the test, where it is no JSON
}

TEST(ResultsFile, IobenchsContextFollowsGoogleBenchmarksAndRowsCarryTheirStructure) {
    BenchmarkRun row;
    row.run_name.function_name = "ints_out/obuf/buf:4096";
    row.repetitions = 1;
    row.time_unit = benchmark::kMillisecond;
    row.real_accumulated_time = 0.002;
    CaseIndex index;
    index.add(ints_out_structure("obuf", "obuf"));
    std::ostringstream file;
    NamedJSONReporter json(index, file);
    json.set_context({{"suite", "default"}, {"BUFSIZ", "8192"}});
    json.ReportContext(benchmark::BenchmarkReporter::Context());
    json.ReportRuns({row});
    json.Finalize();
    const ordered_json doc = ordered_json::parse(file.str());
    const std::vector<std::string> context_keys = keys_of(doc.at("context"));
    ASSERT_GE(context_keys.size(), 3u);
    // After Google Benchmark's last key, iobench's by key; no plugins, no key.
    EXPECT_EQ(std::vector<std::string>(context_keys.end() - 3, context_keys.end()),
              (std::vector<std::string>{"library_build_type", "BUFSIZ", "suite"}));
    const ordered_json& r = doc.at("benchmarks").at(0);
    EXPECT_EQ(r.at("real_time"), 2.0);
    EXPECT_EQ(r.at("workload"), "ints_out");
    EXPECT_EQ(r.at("method"), "obuf");
    EXPECT_EQ(r.at("params"), ordered_json({{"buffer_size", 4096}}));
    EXPECT_EQ(r.at("compared_per"), "item");
    std::vector<std::string> keys = keys_of(r);
    if (!cpu_emulator().empty()) {  // a run on an emulated CPU: every row says so last (the ARM64 tests under qemu)
        ASSERT_EQ(keys.back(), "emulated");
        EXPECT_EQ(r.at("emulated"), true);
        keys.pop_back();
    }
    EXPECT_FALSE(r.contains("emulated") && cpu_emulator().empty());
    EXPECT_EQ(std::vector<std::string>(keys.end() - 7, keys.end()),
              (std::vector<std::string>{"workload", "method", "family", "reference", "params", "item_unit",
                                        "compared_per"}));
}

TEST(ResultsFile, FamiliesBuiltInSayWhatCompiledThemBeforeThePlugins) {
    // An executable made with iobench_add_executable: each family's own
    // compiler (not iobench's), build type and the executable's flags.
    BenchmarkRun row;
    row.run_name.function_name = "hello/mine";
    row.repetitions = 1;
    const CaseIndex none;
    std::ostringstream file;
    NamedJSONReporter json(none, file);
    json.set_plugins({{"/p/plugin.so", "alice", std::string(64, 'a'), "GNU 12", {"mine"}, {"mine_write"}, {}, {}}});
    json.set_added_families({{"spdlog", "Clang 14.0.6", "libstdc++ 20230528, C++11 ABI", "Release"}},
                            "-O3 -DNDEBUG -O2 -DNDEBUG");
    json.ReportContext(benchmark::BenchmarkReporter::Context());
    json.ReportRuns({row});
    json.Finalize();
    const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(file.str());
    const nlohmann::ordered_json& context = doc.at("context");
    EXPECT_EQ(context.at("added_families"),
              nlohmann::ordered_json::parse(R"([{"family": "spdlog", "compiler": "Clang 14.0.6",
                  "standard_library": "libstdc++ 20230528, C++11 ABI", "build_type": "Release",
                  "build_flags": "-O3 -DNDEBUG -O2 -DNDEBUG"}])"));
    std::vector<std::string> keys;
    for (const auto& item : context.items()) keys.push_back(item.key());
    ASSERT_GE(keys.size(), 2u);
    EXPECT_EQ(keys[keys.size() - 2], "added_families");
    EXPECT_EQ(keys.back(), "plugins");
    // Without families built in, no key.
    EXPECT_FALSE(document_of({row}, none).at("context").contains("added_families"));
}

TEST(ResultsFile, IsValidJsonWhateverTheRowsHold) {
    // A message that is not UTF-8 (a path's bytes) and a counter that is not
    // finite: Google Benchmark would write invalid JSON for both.
    BenchmarkRun row;
    row.run_name.function_name = "hello/mine";
    row.repetitions = 1;
    row.error_occurred = true;
    row.error_message = "cannot open /tmp/\xff\xfe";
    row.counters["bytes_per_second"] = benchmark::Counter(std::nan(""));
    const CaseIndex none;
    const nlohmann::json doc = document_of({row}, none);
    const nlohmann::json& r = doc.at("benchmarks").at(0);
    EXPECT_EQ(r.at("error_message"), "cannot open /tmp/\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_TRUE(r.at("bytes_per_second").is_null()) << r;
    EXPECT_FALSE(r.contains("workload")) << "a row no case made has no structure: " << r;
    EXPECT_EQ(doc.at("context").at("plugins").at(0).at("families"), nlohmann::json({"mine"}));
    EXPECT_EQ(doc.at("context").at("plugins").at(0).at("owner"), "alice");
    EXPECT_EQ(doc.at("context").at("plugins").at(0).at("sha256"), std::string(64, 'a'));
}

/// tools/iobench_compare/spec/results_format.json: what the results file says beyond Google
/// Benchmark's fields, which tools/iobench_compare reads (its tests check the
/// same file).
TEST(ResultsFile, SaysWhatTheResultsFormatSpecSays) {
    std::ifstream in(IOBENCH_RESULTS_FORMAT_SPEC);
    ASSERT_TRUE(in) << "cannot open " << IOBENCH_RESULTS_FORMAT_SPEC;
    const nlohmann::json spec = nlohmann::json::parse(in);
    EXPECT_EQ(Outcome::skipped("why").error_message(), spec.at("skipped_prefix").get<std::string>() + "why");
    EXPECT_EQ(Outcome::failed("why").error_message(), "why");
    // A row with every field of the structure: a program method's row without call counts.
    RowStructure s = ints_out_structure("go_File.Write", "go");
    s.calls_not_counted = "not counted here";
    s.program = true;
    s.overwrites_existing = true;  // (limit_overwrite's field, here only to list every field)
    s.copies_in_memory = true;     // (memcpy's field, likewise)
    BenchmarkRun run;
    run.run_name.function_name = s.name;
    const std::vector<std::string> gb = keys_of(json_report::results_row(run, nullptr));
    const std::vector<std::string> all = keys_of(json_report::results_row(run, &s));
    ASSERT_GT(all.size(), gb.size());
    EXPECT_TRUE(std::equal(gb.begin(), gb.end(), all.begin())) << "Google Benchmark's fields come first";
    std::vector<std::string> fields;
    for (const auto& f : spec.at("row_structure")) fields.push_back(f.at("field"));
    // "emulated", last, only on the rows of a run on an emulated CPU (the ARM64 tests under qemu).
    ASSERT_EQ(fields.back(), "emulated");
    if (cpu_emulator().empty()) fields.pop_back();
    EXPECT_EQ(std::vector<std::string>(all.begin() + static_cast<std::ptrdiff_t>(gb.size()), all.end()), fields);
}

TEST(ResultsFile, APerCallRowsThreadsAreItsThreadCount) {
    // Google Benchmark's rows say how many threads ran them; iobench starts a
    // per-call row's threads itself, so `threads` is the row's count, not 1.
    BenchmarkRun run;
    run.threads = 1;
    RowStructure s = ints_out_structure("fprintf", "stdio");
    s.name += "/threads:8/sink:shared";
    s.threads = 8;
    s.shared_sink = true;
    run.run_name.function_name = s.name;
    EXPECT_EQ(json_report::results_row(run, &s)["threads"], 8);
    EXPECT_EQ(json_report::results_row(run, nullptr)["threads"], 1);
    s.threads = 0;  // a whole-run row: Google Benchmark's
    EXPECT_EQ(json_report::results_row(run, &s)["threads"], 1);
}

}  // namespace
}  // namespace iobench
