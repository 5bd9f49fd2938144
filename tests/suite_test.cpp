// Suite files: what they select, and the errors bad ones get.
#include <gtest/gtest.h>

#include "core/suite.hpp"

namespace iobench {
namespace {

std::string error_of(const std::string& text) {
    try {
        parse_suite(text, "t.json");
    } catch (const suite_error& e) {
        return e.what();
    }
    return "";
}

TEST(Suite, BuiltInDefaultHasTheIssueTwoPairsInOrder) {
    const Suite s = load_suite("default");
    std::vector<std::string> names;
    for (const Case& c : s.cases) names.push_back(c.name);
    const std::vector<std::string> expected = {"ints_out/fprintf", "ints_out/ofstream", "ints_out/write",
                                               "ints_out/obuf",    "ints_in/fscanf",    "ints_in/ifstream",
                                               "ints_in/ibuf",     "hello/fwrite",      "hello/ofstream",
                                               "hello/write",      "hello/obuf"};
    EXPECT_EQ(names, expected);
    EXPECT_EQ(s.repetitions, 3);
}

TEST(Suite, EveryBuiltInSuiteLoads) {
    for (const std::string& name : builtin_suites()) EXPECT_NO_THROW(load_suite(name)) << name;
}

TEST(Suite, StarSelectsEveryMethodOfTheWorkload) {
    const Suite s = parse_suite(R"({"benchmarks": [{"workload": "ints_in", "methods": "*"}]})", "t.json");
    std::vector<std::string> names;
    for (const Case& c : s.cases) names.push_back(c.name);
    for (const char* m : {"ints_in/fscanf", "ints_in/ifstream", "ints_in/ibuf"})
        EXPECT_NE(std::find(names.begin(), names.end(), m), names.end()) << m;
    for (const Case& c : s.cases) EXPECT_EQ(c.workload->name(), "ints_in");
}

TEST(Suite, BufferSizesBecomeTheBufParameter) {
    const Suite s = parse_suite(
        R"({"benchmarks": [{"workload": "ints_out", "methods": ["obuf"], "buffer_sizes": [512, 4096]}]})", "t.json");
    ASSERT_EQ(s.cases.size(), 2u);
    EXPECT_EQ(s.cases[0].name, "ints_out/obuf/buf:512");
    EXPECT_EQ(s.cases[1].params.buffer_size, 4096u);
}

TEST(Suite, BadSuitesAreRejectedWithTheReason) {
    EXPECT_EQ(error_of("{"), error_of("{"));  // stable message
    EXPECT_NE(error_of("{").find("suite t.json: not valid JSON"), std::string::npos) << error_of("{");
    EXPECT_NE(error_of(R"({"benchmarks": []})").find("\"benchmarks\" must be a non-empty array"), std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "nosuch", "methods": "*"}]})").find("unknown workload \"nosuch\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "ints_in", "methods": ["fprintf"]}]})")
                  .find("method \"fprintf\" cannot run workload \"ints_in\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "hello", "methods": ["write"], "buffer_sizes": [512]}]})")
                  .find("method \"write\" has no buffer size to set"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"repetitions": 0, "benchmarks": [{"workload": "hello", "methods": "*"}]})")
                  .find("\"repetitions\" must be at least 1"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"benchmark": []})").find("unknown key \"benchmark\""), std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "hello", "method": "*"}]})").find("unknown key \"method\""),
              std::string::npos);
}

TEST(Suite, UnknownSuiteNameListsTheBuiltIns) {
    try {
        load_suite("nosuch");
        FAIL() << "no error";
    } catch (const suite_error& e) {
        EXPECT_NE(std::string(e.what()).find("default"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace iobench
