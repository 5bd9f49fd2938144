// Where a new file's page-cache pages come from, and what they cost: the
// facts of the machine's memory that move the time of an output workload
// whose file is large (hello's 1.2 GB), measured or read at start for the
// results' context (`page_cache_pages`) and the summary's note.
//
// A new file's bytes need pages the kernel must find, charge and insert
// (tmpfs also zeroes them); overwriting a file's existing pages needs none
// of that. On a virtual machine whose balloon device reports free memory to
// the host (free page reporting), the host takes reported memory back and
// its faults to give it again land inside the measured write(2) calls
// (docs/methodology.md, "Where a new file's pages come from").
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace iobench {

/// The machine's memory facts that move a large output's time.
struct PageSupplyFacts {
    /// Linux: the `hypervisor` flag of /proc/cpuinfo (the CPU says it runs
    /// under one). False elsewhere, or not told.
    bool virtual_machine = false;
    /// A virtio balloon device offers free page reporting (feature bit 5,
    /// VIRTIO_BALLOON_F_REPORTING, of /sys/bus/virtio/drivers/virtio_balloon/
    /// virtio*/features): freed guest memory may go back to the host.
    bool free_page_reporting = false;
    /// Seconds after which a DAMON daemon that is on pages memory out
    /// (/sys/kernel/mm/damon/admin/kdamonds/*: state "on", a scheme whose
    /// action is "pageout": its least age in aggregation intervals times
    /// aggr_us): idle page-cache pages are dropped and, with free page
    /// reporting, go back to the host. 0: none found.
    double damon_pageout_s = 0;
    /// The bracketed mode of /sys/kernel/mm/transparent_hugepage/enabled
    /// ("always", "madvise", "never"); "" where not told.
    std::string thp;
    /// The same for .../shmem_enabled (tmpfs): "always", "within_size",
    /// "advise", "never", "deny", "force"; "" where not told.
    std::string shmem_thp;
};

/// Reads PageSupplyFacts (Linux; on other platforms all false/empty). Never throws.
PageSupplyFacts page_supply_facts();

/// What a page-cache page costs, measured by measure_page_cost.
struct PageCost {
    /// Wall time per 4 KiB page of writing into a new file (the file removed
    /// and its file system synced first, as before every output run), ns.
    double new_file_ns = 0;
    /// Wall time per 4 KiB page of writing the same bytes over the file's
    /// existing pages (opened without truncation), ns.
    double overwrite_ns = 0;
    /// Bytes written per measurement.
    std::uint64_t bytes = 0;
    /// Measurements of each kind; each figure is the least of them.
    int rounds = 0;
    /// new_file_ns - overwrite_ns, at least 0: what finding a new page costs, ns.
    double new_page_ns() const noexcept { return new_file_ns > overwrite_ns ? new_file_ns - overwrite_ns : 0.0; }
};

/// Measures PageCost in `dir`: `bytes` (rounded up to 1 MiB) written in
/// 1 MiB write(2) calls, `rounds` times into a new file and `rounds` times
/// over it, alternating; each figure the least of its rounds (an
/// interrupted round does not count). The file is removed afterwards.
/// std::nullopt on platforms other than Linux, or when a call fails (a full
/// disk: the run's own checks say so).
std::optional<PageCost> measure_page_cost(const std::filesystem::path& dir, std::uint64_t bytes = std::uint64_t{64} << 20,
                                          int rounds = 3);

/// The JSON context's `page_cache_pages`: the facts and the measured cost, e.g.
/// "virtual machine; free page reporting (virtio balloon); transparent huge
/// pages madvise, tmpfs huge pages never; a new file's pages 2150 ns per 4
/// KiB page, overwriting them 310 ns (1024 MiB in the target directory,
/// least of 3 each)". `cost` std::nullopt: "; page cost not measured: <why_not>".
std::string describe_page_supply(const PageSupplyFacts& facts, const std::optional<PageCost>& cost,
                                 std::string_view why_not = "not measurable here");

}  // namespace iobench
