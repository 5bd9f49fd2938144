// The columns of the console summary: generated/summary_columns.hpp, which the
// build writes from tools/iobench_compare/spec/summary_columns.json
// (cmake/GenerateSummaryColumns.cmake), is that file entry by entry, read here
// with a JSON parser of its own (iobench-compare reads the same file:
// tools/tests/test_columns.py), and the summary's tables are laid out by it.
// The summary's whole text: summary_golden_test.cpp; a column added to the
// spec alone shows in the summary: summary.new_column (tests/CMakeLists.txt).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/report_rules.hpp"
#include "generated/summary_columns.hpp"

namespace iobench {
namespace {

using nlohmann::json;
namespace sc = summary_columns;

json read_path(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    return json::parse(in);
}

json read_json(const std::string& name) { return read_path(std::string(IOBENCH_TEST_DATA_DIR "/") + name); }

/// The spec of the summary's columns, the file the build generated the table from.
json read_spec() { return read_path(IOBENCH_SUMMARY_COLUMNS_SPEC); }

// The names the specification gives the values of each enumeration.
const std::map<std::string, sc::Field> fields = {
    {"label", sc::Field::label},           {"time", sc::Field::time},
    {"interval", sc::Field::interval},     {"throughput", sc::Field::throughput},
    {"x_fastest", sc::Field::x_fastest},   {"x_baseline", sc::Field::x_baseline},
    {"x_smallest", sc::Field::x_smallest},
    {"cold_warm", sc::Field::cold_warm},   {"counter", sc::Field::counter},
    {"cpu_share", sc::Field::cpu_share},   {"cv", sc::Field::cv},
    {"latency", sc::Field::latency},     {"nanoseconds", sc::Field::nanoseconds},
};
const std::map<std::string, sc::Format> formats = {
    {"text", sc::Format::text},   {"interval", sc::Format::interval},     {"time", sc::Format::time},
    {"ratio", sc::Format::ratio}, {"throughput", sc::Format::throughput}, {"count", sc::Format::count},
    {"bytes", sc::Format::bytes}, {"percent", sc::Format::percent},
};
const std::map<std::string, sc::Shown> conditions = {
    {"always", sc::Shown::always},
    {"ranked_by_time", sc::Shown::ranked_by_time},
    {"ranked_by_size", sc::Shown::ranked_by_size},
    {"baseline", sc::Shown::baseline},
    {"limit", sc::Shown::limit},
    {"cold_warm", sc::Shown::cold_warm},
    {"counter", sc::Shown::counter},
    {"per_call", sc::Shown::per_call},
    {"other_threads", sc::Shown::other_threads},
    {"reads", sc::Shown::reads},
    {"writes", sc::Shown::writes},
    {"no_calls", sc::Shown::no_calls},
};
const std::map<std::string, sc::Flag> flags = {
    {"cv_flag", sc::Flag::cv_flag},
    {"interval_flag", sc::Flag::interval_flag},
};

/// A string member of the specification, "" for null.
std::string text_or_empty(const json& column, const char* member) {
    const json& value = column.at(member);
    return value.is_null() ? std::string() : value.get<std::string>();
}

template <class Enum>
Enum named(const std::map<std::string, Enum>& names, const std::string& name) {
    const auto it = names.find(name);
    if (it == names.end()) throw std::runtime_error("no value named " + name);
    return it->second;
}

template <class Enum>
std::set<std::string> names_of(const std::map<std::string, Enum>& names) {
    std::set<std::string> out;
    for (const auto& [name, value] : names) out.insert(name);
    return out;
}

std::set<std::string> keys_of(const json& object) {
    std::set<std::string> out;
    for (const auto& [key, value] : object.items()) out.insert(key);
    return out;
}

TEST(SummaryColumns, TheTableIsTheSpecificationEntryByEntry) {
    const json spec = read_spec();
    // Every name the specification explains is one the table can hold, and the other way round.
    EXPECT_EQ(keys_of(spec.at("fields")), names_of(fields));
    EXPECT_EQ(keys_of(spec.at("formats")), names_of(formats));
    EXPECT_EQ(keys_of(spec.at("shown")), names_of(conditions));
    const json& columns = spec.at("columns");
    ASSERT_EQ(columns.size(), sc::columns.size()) << "generated/summary_columns.hpp has another number of columns";
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const json& want = columns[i];
        const sc::Column& got = sc::columns[i];
        SCOPED_TRACE(want.at("key").get<std::string>());
        EXPECT_EQ(got.key, want.at("key").get<std::string>());
        EXPECT_EQ(got.header, want.at("header").get<std::string>());
        EXPECT_EQ(got.align == sc::Align::left ? "left" : "right", want.at("align").get<std::string>());
        EXPECT_EQ(got.width, want.at("width").get<std::size_t>());
        EXPECT_EQ(got.grows, want.at("grows").get<bool>());
        EXPECT_EQ(got.unit, text_or_empty(want, "unit"));
        EXPECT_EQ(got.field, named(fields, want.at("field").get<std::string>()));
        EXPECT_EQ(got.counter, text_or_empty(want, "counter"));
        EXPECT_EQ(got.format, named(formats, want.at("format").get<std::string>()));
        const json& flag = want.at("flag");
        EXPECT_EQ(got.flag, flag.is_null() ? sc::Flag::none : named(flags, flag.get<std::string>()));
        EXPECT_EQ(got.reference, text_or_empty(want, "reference"));
        EXPECT_EQ(got.shown, named(conditions, want.at("shown").get<std::string>()));
        EXPECT_TRUE(want.at("compare").is_boolean());  // iobench-compare's alone: tools/tests/test_columns.py
    }
}

TEST(SummaryColumns, EachColumnIsWellFormed) {
    // The layout prints a row that did not run as its first cell, then why: the label.
    EXPECT_EQ(sc::columns.front().field, sc::Field::label);
    EXPECT_TRUE(sc::columns.front().grows);
    std::set<std::string_view> keys;
    for (const sc::Column& c : sc::columns) {
        SCOPED_TRACE(std::string(c.key));
        EXPECT_TRUE(keys.insert(c.key).second) << "a key twice";
        // Every header fits its column but "x smallest", one character wider than
        // its 9: the binary_size table's header line has always run one character
        // past its cells there, and the console's text is kept as it is.
        if (c.key == "x_smallest")
            EXPECT_EQ(c.header.size(), c.width + 1);
        else
            EXPECT_GE(c.width, c.header.size()) << "the header is wider than the column";
        // A column that reads a counter names it; the others read none.
        const bool reads_counter = c.field == sc::Field::counter || c.field == sc::Field::cpu_share ||
                                   c.field == sc::Field::throughput || c.field == sc::Field::latency ||
                                   c.field == sc::Field::nanoseconds;
        EXPECT_EQ(!c.counter.empty(), reads_counter);
        EXPECT_EQ(c.format == sc::Format::text, c.field == sc::Field::label);
    }
}

TEST(SummaryColumns, FlagsAndFormatsAreThoseOfTheOtherSpecifications) {
    // A flag is a rule of spec/report_rules.json; a number format a kind
    // of tests/data/number_format.json (or the interval's, or text).
    const json rules_spec = read_path(IOBENCH_REPORT_RULES_SPEC), numbers = read_json("number_format.json"),
               spec = read_spec();
    std::set<std::string> rules, kinds;
    for (const json& rule : rules_spec.at("rules")) rules.insert(rule.at("name").get<std::string>());
    for (const json& example : numbers.at("examples")) kinds.insert(example.at("kind").get<std::string>());
    int flagged = 0;
    for (const json& column : spec.at("columns")) {
        SCOPED_TRACE(column.at("key").get<std::string>());
        if (!column.at("flag").is_null()) {
            EXPECT_EQ(rules.count(column.at("flag").get<std::string>()), 1u);
            ++flagged;
        }
        const std::string format = column.at("format").get<std::string>();
        if (format != "text" && format != "interval") {
            EXPECT_EQ(kinds.count(format), 1u);
        }
    }
    EXPECT_EQ(flagged, 2);  // the cv and the interval
}

TEST(SummaryColumns, TheIntervalsHeaderSaysTheConfidenceLevel) {
    int found = 0;
    for (const sc::Column& c : sc::columns) {
        if (c.field != sc::Field::interval) continue;
        EXPECT_EQ(c.header, fmt::format("{:.0f}% CI", 100 * report_rules::confidence));
        ++found;
    }
    EXPECT_EQ(found, 1);
}

/// The headers of a header line of the summary: texts parted by two spaces or more.
std::vector<std::string> headers_of(const std::string& line) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while ((at = line.find_first_not_of(' ', at)) != std::string::npos) {
        std::size_t end = line.find("  ", at);
        if (end == std::string::npos) end = line.size();
        out.push_back(line.substr(at, end - at));
        at = end;
    }
    return out;
}

TEST(SummaryColumns, EveryTableOfTheGoldenSummariesHasTheSpecificationsHeadersInOrder) {
    // Every table of tests/data/summary/*.txt: its header line is the headers of
    // columns of the table, in its order, each with its least width at least,
    // every column shown always among them.
    int tables = 0;
    for (const auto& entry : std::filesystem::directory_iterator(IOBENCH_TEST_DATA_DIR "/summary")) {
        std::ifstream in(entry.path());
        ASSERT_TRUE(in) << entry.path();
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("  " + std::string(sc::columns.front().header) + " ", 0) != 0) continue;
            SCOPED_TRACE(entry.path().filename().string() + ": " + line);
            ++tables;
            const std::vector<std::string> headers = headers_of(line);
            std::size_t next = 0, end = 0;
            for (const sc::Column& c : sc::columns) {
                const bool here = next < headers.size() && headers[next] == c.header;
                EXPECT_TRUE(here || c.shown != sc::Shown::always) << c.header << " is missing";
                if (!here) continue;
                const std::size_t at = line.find(std::string(c.header), end);
                const std::size_t begin = end;
                end = at + c.header.size();
                EXPECT_GE(end - begin, c.width + 2) << c.header << " is narrower than its column";
                ++next;
            }
            EXPECT_EQ(next, headers.size()) << "a header that is no column's, or out of order: " << headers[next];
        }
    }
    EXPECT_GE(tables, 8) << "every golden summary has a table";
}

}  // namespace
}  // namespace iobench
