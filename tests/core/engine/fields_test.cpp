// Typed records (iobench/calls.hpp: FieldsRecord, Calls::put_fields): the
// reference formatting each method's line is checked against, the contract of
// a LinesWorkload of records, the anchor's two messages, and a user's records
// (tests/example_records.cpp) through a team's logger and through fmt_print,
// from one thread and several; a logger one byte wrong fails.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include <iobench/method.hpp>
#include <iobench/workload.hpp>
#include "core/engine/case_trial.hpp"
#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "call_run.hpp"
#include "test_dir.hpp"

namespace iobench {
namespace {

/// The line append_fields_line makes of `format` and the fields `add` adds.
template <class Add>
std::string line_of(std::string_view format, Add add) {
    RecordFields fields;
    add(fields);
    std::string out;
    append_fields_line(fields.record(format), out);
    return out;
}

/// What append_fields_line says of `format` with `add`'s fields: "" when it takes them.
template <class Add>
std::string refusal(std::string_view format, Add add) {
    try {
        line_of(format, add);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

TEST(FieldsLine, IsTheFormatWithEachFieldAsFmtPrintsIt) {
    const auto add = [](RecordFields& f) {
        f.integer(-42);
        f.integer(std::numeric_limits<std::int64_t>::max());
        f.real(0.1 + 0.2);
        f.text("Lorem ipsum");
    };
    EXPECT_EQ(line_of("a {} b {} c {} d {}!", add),
              "a -42 b 9223372036854775807 c 0.30000000000000004 d Lorem ipsum!\n");
    EXPECT_EQ(line_of("{}{}{}{}", add), "-429223372036854775807" "0.30000000000000004Lorem ipsum\n");
    // Doubles as {fmt}'s "{}": fixed from 1e-4 below 1e16, else with an exponent.
    for (const double v : {0.1, 1e15, 1e16, 5e-5, 1100000.0, -0.0, 123456.789})
        EXPECT_EQ(line_of("{}", [v](RecordFields& f) { f.real(v); }), fmt::format("{}\n", v)) << v;
    EXPECT_EQ(line_of("{}", [](RecordFields& f) { f.real(1e15); }), "1000000000000000\n");
    EXPECT_EQ(line_of("{}", [](RecordFields& f) { f.real(1e16); }), "1e+16\n");
    EXPECT_EQ(line_of("no fields", [](RecordFields&) {}), "no fields\n");
}

TEST(FieldsLine, RecordFieldsKeepsItsTextsAndTheirNul) {
    RecordFields f;
    {
        std::string gone = "a text that goes away before the record is read";
        f.text(gone);
        f.integer(7);
        f.text("second");
    }
    const FieldsRecord r = f.record("{} {} {}");
    ASSERT_EQ(r.count, 3u);
    EXPECT_EQ(r.fields[0].text, "a text that goes away before the record is read");
    EXPECT_EQ(r.fields[0].text.data()[r.fields[0].text.size()], '\0');
    EXPECT_EQ(r.fields[2].text, "second");
    EXPECT_EQ(r.fields[2].text.data()[r.fields[2].text.size()], '\0');
    f.clear();
    EXPECT_EQ(f.size(), 0u);
}

TEST(FieldsLine, AFormatOtherThanPlainPlaceholdersIsRefused) {
    const auto two = [](RecordFields& f) {
        f.integer(1);
        f.integer(2);
    };
    EXPECT_EQ(refusal("{} {}", two), "");
    EXPECT_EQ(refusal("{}", two), "its format has 1 \"{}\" for its 2 field(s)");
    EXPECT_EQ(refusal("{} {} {}", two), "its format has more \"{}\" than its 2 field(s)");
    EXPECT_EQ(refusal("{0} {1}", two),
              "its format has a '{' at byte 0 that is no \"{}\" (a record's format has plain \"{}\" only)");
    EXPECT_EQ(refusal("{} {:x}", two),
              "its format has a '{' at byte 3 that is no \"{}\" (a record's format has plain \"{}\" only)");
    EXPECT_EQ(refusal("{} } {}", two),
              "its format has a '}' at byte 3 that is no \"{}\" (a record's format has plain \"{}\" only)");
    EXPECT_EQ(refusal("{} {", two),
              "its format has a '{' at byte 3 that is no \"{}\" (a record's format has plain \"{}\" only)");
    EXPECT_EQ(refusal("{}\n{}", two), "its format holds a '\\n' (the line's only '\\n' is its last)");
    EXPECT_EQ(refusal("{}", [](RecordFields& f) { f.text("a\nb"); }), "field 0 is a text that holds a '\\n'");
}

// --- a LinesWorkload of typed records ---------------------------------------------

void two_fields(std::uint64_t i, RecordFields& out) {
    out.integer(static_cast<std::int64_t>(i));
    out.text("x");
}
void same_fields(std::uint64_t, RecordFields& out) { out.integer(1); }
void one_line(std::uint64_t i, std::string& out) { out += "record " + std::to_string(i) + "\n"; }

/// What making a trial of `w` on fmt_print says: "" when it is made, else its error.
std::string trial_problem(const LinesWorkload& w) { return test::trial_problem(w, "fmt_print"); }

TEST(RecordsWorkload, RecordsThatBreakTheContractAreRefusedNamingTheRecord) {
    EXPECT_EQ(trial_problem({.name = "w", .description = "d", .default_count = 10, .record_format = "n={} s={}",
                             .record = two_fields}),
              "");
    EXPECT_EQ(trial_problem({.name = "w", .description = "d", .default_count = 10, .record_format = "n={}",
                             .record = two_fields}),
              "workload w: record 0: its format has 1 \"{}\" for its 2 field(s)");
    EXPECT_EQ(trial_problem({.name = "w", .description = "d", .default_count = 10, .record_format = "n={}",
                             .record = same_fields}),
              "workload w: lines 0 and 1 are the same text: a LinesWorkload's lines must differ (each names its item, "
              "so that the order of each thread's lines can be checked)");
    // One of `line` and `record`, and a record's format.
    EXPECT_THROW(make_lines_workload({.name = "w", .description = "d", .default_count = 1, .line = one_line,
                                      .record_format = "{} {}", .record = two_fields}),
                 std::invalid_argument);
    EXPECT_THROW(make_lines_workload({.name = "w", .description = "d", .default_count = 1, .record = two_fields}),
                 std::invalid_argument);
}

using test::run_calls;

TEST(RecordsWorkload, AUsersRecordsThroughTheTeamsLoggerAndFmtPrintAreChecked) {
    // example_orders (tests/example_records.cpp) at 1e-2: 1,000 records.
    const test::CallRun team = run_calls(1e-2, "example_orders", "example_logger", 1, false);
    EXPECT_EQ(team.verdict, "");
    EXPECT_EQ(team.counters.at("latency_calls"), 1000);
    EXPECT_EQ(run_calls(1e-2, "example_orders", "example_logger", 3, false).verdict, "");
    const test::CallRun shared = run_calls(1e-2, "example_orders", "fmt_print", 4, true);
    EXPECT_EQ(shared.verdict, "");
    EXPECT_EQ(shared.counters.at("latency_calls"), 1000);
}

TEST(RecordsWorkload, AMethodWithoutPutFieldsHasNoRowOnRecords) {
    const Workload* w = find_workload("example_orders");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->spec().call_item, CallItem::put_fields);
    EXPECT_TRUE(w->takes_calls(*find_method("fmt_print")));
    EXPECT_FALSE(w->takes_calls(*find_method("fprintf")));  // printf has no shortest double
    EXPECT_FALSE(find_workload("example_log")->takes_calls(*find_method("example_logger")));
}

/// The expected text of `workload` at `scale`, whole.
std::string expected_text(const char* workload, double scale) {
    test::TempDir dir;
    Session session(dir.path(), scale, false);
    std::string text;
    find_workload(workload)->expected_output(session).bytes([&](std::string_view chunk) { text += chunk; });
    return text;
}

/// Line `n` (from 0) of `text`.
std::string_view nth_line(std::string_view text, std::size_t n) {
    for (; n > 0; --n) text.remove_prefix(text.find('\n') + 1);
    return text.substr(0, text.find('\n') + 1);
}

TEST(AnchorMessages, AreTheLoggerBenchmarksMessagesTwentyAnIteration) {
    const std::string doubles = expected_text("log_ints_double", 1e-3);  // 1,000 records
    EXPECT_EQ(nth_line(doubles, 0), "Logging int: 0, int: 0, double: 0\n");
    EXPECT_EQ(nth_line(doubles, 61), "Logging int: 3, int: 1, double: 3.3\n");
    EXPECT_EQ(nth_line(doubles, 999), "Logging int: 49, int: 19, double: 53.9\n");
    const std::string strings = expected_text("log_ints_string", 1e-3);
    EXPECT_EQ(nth_line(strings, 61), "Logging int: 3, int: 1, string: Lorem ipsum dolor sit amet, consectetur 3\n");
    EXPECT_EQ(find_workload("log_ints_double")->spec().call_item, CallItem::put_fields);
}

TEST(AnchorMessages, FmtPrintsCompileTimeFormatIsChecked) {
    EXPECT_EQ(run_calls(1e-3, "log_ints_double", "fmt_print", 2, true).verdict, "");
    EXPECT_EQ(run_calls(1e-3, "log_ints_string", "fmt_print", 1, false).verdict, "");
    EXPECT_EQ(run_calls(1e-3, "log_ints_string", "example_logger", 2, false).verdict, "");
}

}  // namespace
}  // namespace iobench
