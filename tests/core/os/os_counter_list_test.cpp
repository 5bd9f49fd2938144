// The OS counters are written once, in tools/iobench_compare/spec/os_counters.json:
// the build generates IOBENCH_OS_COUNTERS from it, and OsCounter and
// os_counter_list are that list in its order (iobench-compare reads the same
// file: counters.py, tools/tests/test_rules.py).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

#include "core/os/os_counters.hpp"

namespace iobench {
namespace {

TEST(OsCounterList, IsTheSpecificationsInItsOrder) {
    std::ifstream in(IOBENCH_OS_COUNTERS_SPEC);
    ASSERT_TRUE(in) << "cannot open " << IOBENCH_OS_COUNTERS_SPEC;
    const nlohmann::json spec = nlohmann::json::parse(in).at("counters");
    ASSERT_EQ(spec.size(), os_counter_count);
    for (std::size_t i = 0; i < os_counter_count; ++i) {
        const OsCounterInfo& c = os_counter_list[i];
        EXPECT_EQ(std::string(c.name), spec[i].at("name").get<std::string>()) << "counter " << i;
        EXPECT_EQ(std::string(c.unit), spec[i].at("unit").get<std::string>()) << c.name;
        EXPECT_EQ(std::string(c.meaning), spec[i].at("meaning").get<std::string>()) << c.name;
        EXPECT_EQ(os_counter_name(static_cast<OsCounter>(i)), c.name);
    }
}

}  // namespace
}  // namespace iobench
