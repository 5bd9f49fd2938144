// endl: the '\n' versus std::endl experiment
// (the write-up "IO Benchmarking - results" (C++ std::endl vs '\n'), docs/results/README.md#sources): N strings of 175 bytes,
// newline included, written to a file; N = 10,000,000 (1,750 MB). The seed
// reports bandwidth in MB/s (10^6 bytes), here the bytes_per_second counter.
#include "workloads/repeat_workload.hpp"

namespace iobench {
namespace {

constexpr std::uint64_t published_count = 10'000'000;
// The seed does not publish its string, only its size: 17,500 MB for
// N = 100,000,000 is 175 bytes per string. A method ending lines with
// std::endl writes the first 174 bytes and then std::endl.
constexpr std::string_view line =
    "Each of the N strings of the endl experiment is 175 bytes with its newline, so N = 10,000,000 writes 1,750 MB "
    "and N = 100,000,000 the 17,500 MB of the published run..........\n";
static_assert(line.size() == 175);

class Endl final : public RepeatWorkload {
public:
    Endl()
        : RepeatWorkload("endl",
                         "write a 175-byte line (newline included) N times (N = 10M, 1,750 MB): '\\n' versus std::endl",
                         line, published_count) {}
};

const WorkloadRegistrar<Endl> endl_registrar;

}  // namespace
}  // namespace iobench
