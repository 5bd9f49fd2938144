// hello: fast_io's "Output 100000000x Hello World" table
// (fast_io's README, https://github.com/cppfastio/fast_io): 100,000,000 lines of "Hello World\n", 1.2 GB.
#include "workloads/repeat_workload.hpp"

namespace iobench {
namespace {

class Hello final : public RepeatWorkload {
public:
    Hello()
        : RepeatWorkload("hello", "write \"Hello World\\n\" N times (N = 100M, 1.2 GB)", "Hello World\n",
                         100'000'000, true) {}
};

const WorkloadRegistrar<Hello> hello_registrar;

}  // namespace
}  // namespace iobench
