// main() of iobench_tests: GoogleTest's, after the console workloads' child
// mode has had its turn (on Windows a console trial runs each measured call
// by starting the running executable again: workloads/console_trial.hpp).
#include <gtest/gtest.h>

#include "workloads/console_trial.hpp"

int main(int argc, char** argv) {
    if (const auto status = iobench::console_child_main(argc, argv)) return *status;
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
