// The harness check (docs/methodology.md, "What the harness costs"): the
// ints_out/obuf run outside iobench. The same work as the method
// (methods/obuf.cpp: open, N x put_uint(i) + put('\n') into iobench's obuf
// over a file descriptor, flush, close), from the same headers, in a program
// of its own that times it with the same clock (steady_clock) and starts every
// run from the same state as iobench does (core/os/page_cache.cpp: the
// previous output removed, the file system written back, memory for the output
// made resident). Prints one time per run in milliseconds
// and then the median, after checking the last run's output line by line
// (exit 1 when it is wrong). tests/harness/harness-overhead.sh alternates it with
// `iobench --benchmark_filter=^ints_out/obuf$`.
//
// Usage: iobench_standalone_ints_out DIR [RUNS [COUNT]]
//   DIR: an existing directory for the output file; RUNS: 15; COUNT: 10,000,000.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "core/os/page_cache.hpp"
#include "methods/fd_device.hpp"
#include "methods/posix_file.hpp"

namespace {

/// The measured work: what methods/obuf.cpp's put_ints does.
void obuf_ints(const std::string& path, std::uint64_t count) {
    iobench::unique_fd fd = iobench::create_file(path);
    {
        iobench::obuf out(iobench::fd_sink_device{fd.get(), path}, 0);
        for (std::uint64_t i = 0; i < count; ++i) {
            out.put_uint(i);
            out.put('\n');
        }
        out.flush();
    }
    fd.close();
}

/// Bytes of 0 .. count-1 in decimal, one per line.
std::uint64_t output_bytes(std::uint64_t count) {
    std::uint64_t total = 0;
    for (std::uint64_t digits = 1, low = 0, high = 10; low < count; ++digits, low = high, high *= 10)
        total += (std::min(count, high) - low) * (digits + 1);
    return total;
}

/// Empty when the file at `path` holds 0 .. count-1 in decimal, one per
/// line (checked after the last run, outside the timed work), else what differs.
std::string verify(const std::string& path, std::uint64_t count) {
    std::FILE* in = std::fopen(path.c_str(), "rb");
    if (in == nullptr) return "cannot open the output";
    std::string expected;
    std::string got;
    char number[24];
    std::uint64_t mismatch = count;
    for (std::uint64_t i = 0; i < count && mismatch == count; ++i) {
        expected.assign(number, static_cast<std::size_t>(std::snprintf(number, sizeof number, "%llu\n",
                                                                      static_cast<unsigned long long>(i))));
        got.resize(expected.size());
        if (std::fread(got.data(), 1, got.size(), in) != got.size() || got != expected) mismatch = i;
    }
    const bool extra = std::fgetc(in) != EOF;
    std::fclose(in);
    if (mismatch != count) return "line " + std::to_string(mismatch + 1) + " differs";
    if (extra) return "bytes after the last line";
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s DIR [RUNS [COUNT]]\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const int runs = argc > 2 ? std::atoi(argv[2]) : 15;
    const std::uint64_t count = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 10'000'000;
    if (runs < 1 || count < 1) {
        std::fprintf(stderr, "%s: RUNS and COUNT must be positive\n", argv[0]);
        return 2;
    }
    const std::string path = dir + "/standalone-ints_out-obuf";
    std::vector<double> ms;
    try {
        for (int r = 0; r < runs; ++r) {
            iobench::remove_and_settle(path, output_bytes(count));  // what iobench does before every output run
            const auto start = std::chrono::steady_clock::now();
            obuf_ints(path, count);
            const auto stop = std::chrono::steady_clock::now();
            ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
            std::printf("%.3f\n", ms.back());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        ::unlink(path.c_str());
        return 1;
    }
    const std::string mismatch = verify(path, count);
    ::unlink(path.c_str());
    if (!mismatch.empty()) {
        std::fprintf(stderr, "%s: the output is wrong: %s\n", argv[0], mismatch.c_str());
        return 1;
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    std::printf("median %.3f ms over %zu runs\n", n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, n);
    return 0;
}
