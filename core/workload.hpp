// Workloads: what is measured (write 10M integers, read them back, ...),
// independent of how (the method). A workload makes a Trial per benchmark; the
// runner times Trial::run() and checks Trial::verify() after every run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/method.hpp"
#include "core/os_counters.hpp"

namespace iobench {

class Session;

/// Page-cache state of an input file when a measured read starts
/// (`/cache:<state>` in the name, for workloads whose `has_cache_state()`).
enum class CacheState {
    warm,  ///< the file was read once before measuring, as the seeds did: a read from memory
    cold,  ///< written back and dropped (fdatasync + posix_fadvise(DONTNEED)) before every run
};

/// "warm" or "cold".
std::string_view to_string(CacheState state);

/// Parameters of one benchmark beyond its workload and method.
struct Params {
    /// User-space buffer in bytes (`/buf:<bytes>` in the name); 0 = method default.
    std::size_t buffer_size = 0;
    /// Page-cache state of the input; used (and always named) only by
    /// workloads that have one.
    CacheState cache = CacheState::warm;
};

/// One workload run by one method. The runner calls, per iteration:
/// `reset()` (not timed), `run()` (timed: open, I/O, close), `verify()` (not timed).
class Trial {
public:
    virtual ~Trial() = default;
    /// Brings the files to the state a run starts from (removes the previous output).
    virtual void reset() {}
    /// The measured work: one call into the method. Throws `io_error`/`parse_error`.
    virtual void run() = 0;
    /// Checks the last run's output or parsed values against the workload's
    /// expected size and checksum. Returns "" when they match, otherwise a
    /// sentence saying what differed.
    virtual std::string verify() = 0;
    /// Removes what the trial created (its output file).
    virtual void finish() {}
    /// Wall time in seconds of the last run() when the trial measured it
    /// itself, because the measured work ran elsewhere (the console workloads
    /// run each call in a child process and time it there); std::nullopt when
    /// the runner's clock around run() is the measurement.
    virtual std::optional<double> measured_seconds() const { return std::nullopt; }
    /// What the operating system counted for the last run() when the measured
    /// work ran elsewhere (the console workloads' child process takes its own
    /// snapshots around the call); std::nullopt when the runner's snapshots
    /// around run() are the measurement.
    virtual std::optional<OsCounters> measured_counters() const { return std::nullopt; }

    std::uint64_t bytes = 0;  ///< bytes written or read per run
    std::uint64_t items = 0;  ///< items (integers, lines) per run
    /// True when a run reads its bytes (bytes_per_call = bytes / read_calls),
    /// false when it writes them (bytes / write_calls).
    bool input = false;
    /// User-space buffer in bytes the run used (0 = unbuffered or unknown).
    std::size_t buffer_size = 0;
    /// Further per-run figures the runner reports as counters of the same
    /// name, from the last verified run (the console workloads: "write_calls",
    /// the write system calls one run made). Values must be non-zero.
    std::map<std::string, double> counters;
};

/// A kind of measured work. Registered from a static initializer in workloads/*.cpp.
class Workload {
public:
    virtual ~Workload() = default;
    /// Benchmark-name part: "ints_out", "hello", ...
    virtual std::string_view name() const = 0;
    /// One line for --list and the docs.
    virtual std::string_view description() const = 0;
    /// Items at scale 1 (the published count).
    virtual std::uint64_t default_count() const = 0;
    /// What one item is, singular ("integer", "line", "double", "message",
    /// "code point"): the unit of Trial::items and of items_per_second, and
    /// the row's `item_unit` in the JSON.
    virtual std::string_view item_unit() const = 0;
    /// True when runs of different item counts are compared per byte rather
    /// than per item (file_read: its items are the file's lines, but what it
    /// measures is bytes read). The row's `compared_per` in the JSON.
    virtual bool compared_per_byte() const { return false; }
    /// True when `method` provides the operation this workload needs.
    virtual bool supports(const Method& method) const = 0;
    /// True when the workload reads an input whose page-cache state is a
    /// parameter (Params::cache, `/cache:warm|cold` in every name).
    virtual bool has_cache_state() const { return false; }
    /// The trial for `method` with `params` at the session's scale and directory.
    /// Generates shared inputs through `session` the first time they are needed.
    virtual std::unique_ptr<Trial> make_trial(const Method& method, const Params& params,
                                              Session& session) const = 0;
};

/// Adds a workload to the registry (ownership passes to it). Throws
/// `std::logic_error` on a duplicate name.
void register_workload(std::unique_ptr<Workload> workload);

/// Every registered workload, sorted by name.
const std::vector<std::unique_ptr<Workload>>& workloads();

/// The workload called `name`, or nullptr.
const Workload* find_workload(std::string_view name);

/// Registers a workload type from a static initializer:
/// `const iobench::WorkloadRegistrar<IntsOut> registrar;`
template <class W>
struct WorkloadRegistrar {
    WorkloadRegistrar() { register_workload(std::make_unique<W>()); }
};

}  // namespace iobench
