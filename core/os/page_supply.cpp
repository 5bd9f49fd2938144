#include "core/os/page_supply.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <vector>

#include "core/os/cleanup.hpp"

#ifdef __linux__
#include <fcntl.h>
#include <unistd.h>
#endif

namespace iobench {

namespace {

#ifdef __linux__
/// The word in brackets of a sysfs mode file ("always [madvise] never"), "" when none.
std::string bracketed_mode(const char* path) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line)) return "";
    const auto open = line.find('[');
    const auto close = line.find(']', open == std::string::npos ? 0 : open);
    if (open == std::string::npos || close == std::string::npos) return "";
    return line.substr(open + 1, close - open - 1);
}

/// The first word of the file at `path`, "" when it cannot be read.
std::string first_word(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string word;
    in >> word;
    return word;
}

/// Writes `bytes` from `chunk` into `path` in chunk-sized write(2) calls,
/// truncating it or not; the wall time in ns, or std::nullopt when a call fails.
std::optional<double> timed_write(const std::string& path, const std::vector<char>& chunk, std::uint64_t bytes,
                                  bool truncate) {
    const auto t0 = std::chrono::steady_clock::now();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0600);
    if (fd < 0) return std::nullopt;
    bool ok = true;
    for (std::uint64_t at = 0; ok && at < bytes; at += chunk.size())
        ok = ::write(fd, chunk.data(), chunk.size()) == static_cast<ssize_t>(chunk.size());
    ok = ::close(fd) == 0 && ok;
    if (!ok) return std::nullopt;
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
}

/// syncfs(2) on the directory `dir`, as remove_and_settle does; false when it fails.
bool sync_directory(const std::filesystem::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::syncfs(fd) == 0;
    ::close(fd);
    return ok;
}
#endif

}  // namespace

PageSupplyFacts page_supply_facts() {
    PageSupplyFacts f;
#ifdef __linux__
    {
        std::ifstream in("/proc/cpuinfo");
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("flags", 0) != 0) continue;
            f.virtual_machine = (line + ' ').find(" hypervisor ") != std::string::npos;
            break;
        }
    }
    std::error_code ec;
    const std::filesystem::path balloons = "/sys/bus/virtio/drivers/virtio_balloon";
    for (std::filesystem::directory_iterator it(balloons, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().filename().string().rfind("virtio", 0) != 0) continue;
        std::ifstream in(it->path() / "features");
        std::string bits;
        // One character per feature bit, bit 0 first (virtio's sysfs layout);
        // bit 5 is VIRTIO_BALLOON_F_REPORTING (the virtio specification, 5.5.3).
        if (std::getline(in, bits) && bits.size() > 5 && bits[5] == '1') f.free_page_reporting = true;
    }
    // DAMON's sysfs interface (the kernel's Documentation/admin-guide/mm/damon/usage.rst).
    const std::filesystem::path kdamonds = "/sys/kernel/mm/damon/admin/kdamonds";
    for (std::filesystem::directory_iterator k(kdamonds, ec), end; !ec && k != end; k.increment(ec)) {
        if (!k->is_directory() || first_word(k->path() / "state") != "on") continue;
        std::error_code ec2;
        for (std::filesystem::directory_iterator c(k->path() / "contexts", ec2); !ec2 && c != end; c.increment(ec2)) {
            const double aggregation_s =
                std::strtod(first_word(c->path() / "monitoring_attrs" / "intervals" / "aggr_us").c_str(), nullptr) / 1e6;
            std::error_code ec3;
            for (std::filesystem::directory_iterator sc(c->path() / "schemes", ec3); !ec3 && sc != end; sc.increment(ec3)) {
                if (first_word(sc->path() / "action") != "pageout") continue;
                const double age = std::strtod(first_word(sc->path() / "access_pattern" / "age" / "min").c_str(), nullptr);
                const double after = std::max(age * aggregation_s, 1e-9);
                f.damon_pageout_s = f.damon_pageout_s > 0 ? std::min(f.damon_pageout_s, after) : after;
            }
        }
    }
    f.thp = bracketed_mode("/sys/kernel/mm/transparent_hugepage/enabled");
    f.shmem_thp = bracketed_mode("/sys/kernel/mm/transparent_hugepage/shmem_enabled");
#endif
    return f;
}

std::optional<PageCost> measure_page_cost(const std::filesystem::path& dir, std::uint64_t bytes, int rounds) {
#ifdef __linux__
    constexpr std::uint64_t chunk_size = std::uint64_t{1} << 20;
    bytes = std::max<std::uint64_t>(1, (bytes + chunk_size - 1) / chunk_size) * chunk_size;
    std::vector<char> chunk(chunk_size);
    for (std::size_t i = 0; i < chunk.size(); ++i) chunk[i] = static_cast<char>('a' + i % 26);
    const std::filesystem::path file = dir / "page-cost.tmp";
    const std::string path = file.string();
    remove_on_interrupt(file);  // a Ctrl-C in the middle leaves nothing behind
    double least_new = std::numeric_limits<double>::infinity(), least_over = least_new;
    bool ok = true;
    rounds = std::max(rounds, 1);
    for (int r = 0; ok && r < rounds; ++r) {
        ::unlink(path.c_str());
        ok = sync_directory(dir);
        const std::optional<double> fresh = ok ? timed_write(path, chunk, bytes, true) : std::nullopt;
        const std::optional<double> over = fresh ? timed_write(path, chunk, bytes, false) : std::nullopt;
        ok = fresh && over;
        if (ok) {
            least_new = std::min(least_new, *fresh);
            least_over = std::min(least_over, *over);
        }
    }
    ::unlink(path.c_str());
    forget_on_interrupt(file);
    if (!ok) return std::nullopt;
    const double pages = static_cast<double>(bytes) / 4096;
    return PageCost{.new_file_ns = least_new / pages, .overwrite_ns = least_over / pages, .bytes = bytes, .rounds = rounds};
#else
    (void)dir;
    (void)bytes;
    (void)rounds;
    return std::nullopt;
#endif
}

std::string describe_page_supply(const PageSupplyFacts& facts, const std::optional<PageCost>& cost,
                                 std::string_view why_not) {
    std::string text = facts.virtual_machine ? "virtual machine" : "no hypervisor flag";
    if (facts.free_page_reporting) text += "; free page reporting (virtio balloon)";
    if (facts.damon_pageout_s > 0)
        text += fmt::format("; DAMON pages out memory idle for {:g} s", facts.damon_pageout_s);
    if (!facts.thp.empty()) text += "; transparent huge pages " + facts.thp;
    if (!facts.shmem_thp.empty()) text += ", tmpfs huge pages " + facts.shmem_thp;
    if (cost)
        text += fmt::format("; a new file's pages {:.0f} ns per 4 KiB page, overwriting them {:.0f} ns ({} MiB in the target "
                            "directory, least of {} each)",
                            cost->new_file_ns, cost->overwrite_ns, cost->bytes >> 20, cost->rounds);
    else
        text += fmt::format("; page cost not measured: {}", why_not);
    return text;
}

}  // namespace iobench
