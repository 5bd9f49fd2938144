// Where a new file's pages come from (core/os/page_supply.hpp): the facts read
// from the kernel, the measured cost of a new file's pages against
// overwritten ones, and the context's text.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/os/page_supply.hpp"
#include "test_dir.hpp"

namespace iobench {
namespace {

TEST(PageSupply, ANewFilesPagesAndOverwrittenOnesAreTimedAndTheFileIsGone) {
    const test::TempDir dir;
    const std::optional<PageCost> cost = measure_page_cost(dir.path(), (8 << 20) - 100, 2);
#ifdef __linux__
    ASSERT_TRUE(cost.has_value());
    EXPECT_EQ(cost->bytes, std::uint64_t{8} << 20);  // rounded up to whole MiB
    EXPECT_EQ(cost->rounds, 2);
    // Some ns per page, and far below a millisecond (2,048 pages each).
    EXPECT_GT(cost->new_file_ns, 0);
    EXPECT_GT(cost->overwrite_ns, 0);
    EXPECT_LT(cost->new_file_ns, 1e6);
    EXPECT_LT(cost->overwrite_ns, 1e6);
    EXPECT_GE(cost->new_page_ns(), 0);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
    // A directory that is not there: nothing measured, nothing thrown.
    EXPECT_FALSE(measure_page_cost(dir.path() / "missing", 1 << 20, 1).has_value());
#else
    EXPECT_FALSE(cost.has_value());
#endif
}

TEST(PageSupply, TheNewPagesCostIsTheDifferenceAndNeverBelowZero) {
    EXPECT_DOUBLE_EQ((PageCost{.new_file_ns = 1800, .overwrite_ns = 300}.new_page_ns()), 1500);
    EXPECT_DOUBLE_EQ((PageCost{.new_file_ns = 300, .overwrite_ns = 320}.new_page_ns()), 0);
}

TEST(PageSupply, TheTransparentHugePageModesAreTheKernelsBracketedWords) {
    const PageSupplyFacts facts = page_supply_facts();
#ifdef __linux__
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (std::getline(in, line)) {
        EXPECT_NE(line.find("[" + facts.thp + "]"), std::string::npos) << line << " / " << facts.thp;
        EXPECT_TRUE(facts.thp == "always" || facts.thp == "madvise" || facts.thp == "never") << facts.thp;
    } else {
        EXPECT_EQ(facts.thp, "");
    }
#else
    EXPECT_FALSE(facts.virtual_machine);
    EXPECT_FALSE(facts.free_page_reporting);
    EXPECT_EQ(facts.thp, "");
#endif
}

TEST(PageSupply, TheContextSaysTheFactsAndTheCostOrWhyNot) {
    const PageSupplyFacts vm{.virtual_machine = true,
                             .free_page_reporting = true,
                             .damon_pageout_s = 60,
                             .thp = "madvise",
                             .shmem_thp = "never"};
    EXPECT_EQ(describe_page_supply(vm, PageCost{.new_file_ns = 2150.4, .overwrite_ns = 310, .bytes = 1 << 30, .rounds = 3}),
              "virtual machine; free page reporting (virtio balloon); DAMON pages out memory idle for 60 s; "
              "transparent huge pages madvise, tmpfs huge pages never; a new file's pages 2150 ns per 4 KiB page, overwriting them 310 ns (1024 MiB in the "
              "target directory, least of 3 each)");
    EXPECT_EQ(describe_page_supply(PageSupplyFacts{}, std::nullopt, "an instructions run"),
              "no hypervisor flag; page cost not measured: an instructions run");
}

}  // namespace
}  // namespace iobench
