// Every example of tests/data/number_format.json, the one specification of
// how iobench writes numbers (the Python tables are tested against it too).
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/report/number_format.hpp"

namespace iobench {
namespace {

TEST(NumberFormat, EveryExampleOfTheSpecification) {
    std::ifstream in(IOBENCH_TEST_DATA_DIR "/number_format.json");
    ASSERT_TRUE(in) << "cannot open " << IOBENCH_TEST_DATA_DIR "/number_format.json";
    const auto spec = nlohmann::json::parse(in);
    const std::map<std::string, std::function<std::string(double)>> format = {
        {"time", format_time},   {"throughput", format_throughput}, {"ratio", format_ratio},
        {"count", format_count}, {"bytes", format_bytes},           {"percent", format_percent},
    };
    std::map<std::string, int> checked;
    for (const auto& example : spec.at("examples")) {
        const std::string kind = example.at("kind");
        const auto it = format.find(kind);
        ASSERT_NE(it, format.end()) << "no C++ formatter for kind " << kind;
        EXPECT_EQ(it->second(example.at("value").get<double>()), example.at("text").get<std::string>())
            << kind << " " << example.at("value");
        ++checked[kind];
    }
    EXPECT_EQ(checked.size(), format.size());  // every kind has examples
}

}  // namespace
}  // namespace iobench
