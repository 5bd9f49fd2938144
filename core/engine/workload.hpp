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
#include <utility>
#include <vector>

#include <iobench/method.hpp>
#include <iobench/workload.hpp>
#include "core/os/os_counters.hpp"
#include "data/checksum.hpp"

namespace iobench {

class Session;

/// Page-cache state of an input file when a measured read starts
/// (`/cache:<state>` in the name, for workloads with the cache axis: Axes::cache_state).
enum class CacheState {
    warm,  ///< the file was read once before measuring, as the seeds did: a read from memory
    /// dropped before every run (drop_from_page_cache, core/os/page_cache.hpp: fdatasync +
    /// posix_fadvise(DONTNEED) on Linux, a FILE_FLAG_NO_BUFFERING open on Windows)
    cold,
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
    /// 0: the method's whole-run operation (a throughput row). 1 to
    /// max_threads: the per-call shape (Method::calls), each call timed, from
    /// this many threads (`/threads:<n>` in the name).
    unsigned threads = 0;
    /// With threads > 1: one sink that every thread calls (`/sink:shared`)
    /// rather than one per thread (`/sink:per_thread`).
    bool shared_sink = false;
    /// With threads > 0: 0, each thread calls as fast as it can (closed
    /// loop); else each thread's intended rate, calls per second (open loop,
    /// `/rate:<n>` in the name): call i of a thread is due at its start + i /
    /// rate (+ `burst`), and its latency is measured from then, not from when
    /// the call began (coordinated omission corrected, as wrk2 does).
    std::uint64_t rate = 0;
    /// With rate > 0: calls due together, in bursts (`/burst:<k>`): call i is
    /// due at start + (i - i % burst) / rate; 0 or 1: one call at a time.
    /// Unused with batch > 1: a paced batch is due as one burst.
    unsigned burst = 0;
    /// With threads > 0: 0 or 1, each call is one reading of the histogram;
    /// k > 1, the average of each k calls timed together is one reading
    /// (`/batch:<k>`: the method of odygrd/logger_benchmarks, k = 20).
    unsigned batch = 0;
};

/// The most calls per second per thread a paced row may ask for (one per 10 ns).
inline constexpr std::uint64_t max_rate = 100'000'000;
/// The most calls a burst or a batch may hold.
inline constexpr unsigned max_batch = 1'000'000;

/// Most threads a per-call row may have.
inline constexpr unsigned max_threads = 1024;

/// The kind of item a per-call workload writes with one call (Calls).
enum class CallItem {
    none,        ///< no per-call shape
    put_int,     ///< Calls::put_int
    put_line,    ///< Calls::put_line
    put_record,  ///< Calls::put_record
    put_fields,  ///< Calls::put_fields
};

/// The user-space buffer in bytes a run of `method` with `params` uses, as
/// its row reports it (Trial::buffer_size, the runner's `buffer_size`
/// counter): Params::buffer_size (`/buf:<bytes>`) when set, else the
/// method's own default (Method::default_buffer_size). 0 when the run has no
/// buffer of a size iobench knows: an unbuffered method, or a library's
/// default buffer the method does not size (the row then has no
/// `buffer_size`). Never throws.
inline std::size_t buffer_size_used(const Method& method, const Params& params) noexcept {
    return params.buffer_size != 0 ? params.buffer_size : method.default_buffer_size;
}

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
    /// Why the benchmark fails although every run verified, found by
    /// finish(): a program method's process that exited with a status other
    /// than 0 after its last run (docs/external-methods.md); "" when nothing.
    virtual std::string finish_problem() const { return {}; }
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
    /// True when run() has another process do the measured work (the
    /// console workloads' child, binary_size's programs, program methods), so
    /// that what this process's counters see around run() does not describe
    /// it: --instructions leaves the row without a count (no
    /// instructions_per_item: `-` in the summary, runner.hpp's
    /// counts_instructions), and the operating system's counters are the
    /// child's own where the trial measured them (measured_counters), else
    /// only the machine-wide ones (machine_wide: no calls or CPU time of
    /// this process). Every trial whose work runs in another process sets it.
    bool work_in_child = false;
    /// User-space buffer in bytes the run used (0 = unbuffered or unknown):
    /// buffer_size_used of the trial's method and parameters.
    std::size_t buffer_size = 0;
    /// Threads that make the calls of a per-call row (Params::threads); 0
    /// for a whole-run operation. With more than one, the operating system's
    /// counters are the whole process's and no instructions are counted.
    unsigned threads = 0;
    /// Further per-run figures the runner reports as counters of the same
    /// name, as the trial last set them (file_read's "resident_at_start",
    /// binary_size's "binary_size", a program's "start_time"). A figure is set
    /// only when it was measured; a measured 0 is reported as 0.
    std::map<std::string, double> counters;
    /// What the runs did that the benchmark's name does not say, as the
    /// row's `label` (Google Benchmark's; in the JSON and under the summary);
    /// "" for none. file_read's cold runs: how the file's pages were dropped
    /// (drop_from_page_cache).
    std::string label;
};

/// Makes `values` hold room for `count` elements with every page of that
/// room already written once (the elements are value-initialized, then
/// cleared: capacity stays, size is 0), so that the measured runs that fill
/// it pay for parsing, not for the kernel's first-touch page faults (80 MB for
/// 10M integers: 19,531 faults of 4 KiB, 30-40 ms of system time measured
/// here, more than ibuf's whole parse). Throws std::bad_alloc.
template <class T>
void reserve_resident(std::vector<T>& values, std::size_t count) {
    values.resize(count);
    values.clear();
}

/// The parameters a workload's benchmarks vary: which parts of Params and of
/// the session's settings its trials read. The runner names benchmarks,
/// checks suites and builds "all" from them.
struct Axes {
    /// Params::buffer_size (`/buf:<bytes>`): a suite may sweep it for every
    /// method with Method::sizable_buffer. False where no method's buffer is
    /// the workload's to size (binary_size: each program keeps its library's
    /// default), and a `/buf` is refused.
    bool buffer_size = true;
    /// Params::cache (`/cache:warm|cold` in every name): the page-cache state
    /// of the file the workload reads; "all" runs both.
    bool cache_state = false;
    /// Session::stdout_target() (`--stdout-target`, a suite's
    /// "stdout_target"): where standard output goes while the call runs. A
    /// run setting, recorded in the JSON context, never in a name.
    bool stdout_target = false;
};

/// The `limit` row (Method::reference) the runner adds to a workload.
enum class ReferenceKind {
    none,    ///< no reference row
    /// "these expected bytes": Workload::expected_output(), written by the
    /// reference's put_prepared (or copied into memory by its copy_prepared: `memcpy`)
    output,
    input,   ///< "this input file": Workload::input_file(), read and folded by the reference's read_bytes
};

/// A workload's contract with the runner, declared once: what it takes from
/// a method, what it counts, which parameters its benchmarks vary and which
/// reference row it has. Pairing (Workload::takes), names, suites and the
/// `limit` trials are computed from it in core/. A value with no axis of its
/// own is a workload of its own: transcode_utf16le, transcode_utf32le and
/// transcode_gb18030 each fix their target encoding.
struct WorkloadSpec {
    std::string name;         ///< benchmark-name part: "ints_out", "hello", ...
    std::string description;  ///< one line for --list and the docs
    Operation operation{};    ///< the one operation its trials call (IOBENCH_OPERATIONS)
    /// What one item is, singular ("integer", "line", "double", "message",
    /// "code point"): the unit of Trial::items and of items_per_second, and
    /// the row's `item_unit` in the JSON.
    std::string item_unit;
    /// Items at scale 1 (the published count); bytes for a sized input.
    std::uint64_t default_count = 0;
    /// True when runs of different item counts are compared per byte rather
    /// than per item (file_read: its items are the file's lines, but what it
    /// measures is bytes read). The row's `compared_per` in the JSON.
    bool compared_per_byte = false;
    /// True when the count is the size in bytes of the file the workload
    /// reads, which `--file-size` sets (Session::input_size) instead of the
    /// scale: the file is refused up front when it does not fit in --dir.
    bool sized_input = false;
    Axes axes{};                                      ///< the parameters its benchmarks vary
    ReferenceKind reference = ReferenceKind::none;  ///< the `limit` row the runner adds
    /// A further condition on the methods it takes, besides the operation
    /// (binary_size: a program for the method); nullptr: none.
    bool (*method_filter)(const Method&) = nullptr;
    /// True when a program method (Method::program, docs/external-methods.md)
    /// can do its runs: the workload says, in make_program_trial, what its
    /// program is asked for each run. False: program methods are not paired
    /// with it.
    bool program_methods = false;
    /// Why it cannot run a method it takes in this build although the method
    /// itself is built (binary_size: the method's program was not built
    /// here); "" when it can; nullptr: never. `--list` and the run list such
    /// a pair as skipped with the reason.
    std::string (*method_unavailable)(const Method&) = nullptr;
    /// The per-call item its per-call rows write (`/threads:<n>` cases,
    /// made by Workload::make_call_trial); none: no per-call rows.
    CallItem call_item = CallItem::none;
    /// True when it has no whole-run operation (log): every row is a
    /// per-call row, and `operation` is not used.
    bool calls_only = false;
    /// The most items it may have at any scale (a workload of lines from
    /// outside: max_lines_workload_count); 0: no bound of its own (the
    /// scale's check bounds every count by 2^53).
    std::uint64_t max_count = 0;
};

/// The bytes an output workload's run must write: what its methods are
/// verified against and what its `limit` row writes (ReferenceKind::output).
struct ExpectedOutput {
    std::string key;          ///< names the bytes in the session's digest cache ("ints:1000")
    Generator bytes;          ///< generates them (data/checksum.hpp)
    std::uint64_t items = 0;  ///< items per run, as the workload counts them
};

/// The file an input workload's run reads (ReferenceKind::input).
struct InputFile {
    std::filesystem::path path;  ///< generated once per session (Session::input)
    Generator bytes;             ///< what the file was written from: a full read folds to its fold
    std::uint64_t items = 0;     ///< items per run, as the workload counts them
};

/// A kind of measured work, declared by its WorkloadSpec. Registered from a
/// static initializer in workloads/*.cpp.
class Workload {
public:
    explicit Workload(WorkloadSpec spec) : spec_(std::move(spec)) {}
    virtual ~Workload() = default;

    /// The declaration: operation, counts, axes, reference row.
    const WorkloadSpec& spec() const { return spec_; }
    /// Benchmark-name part: "ints_out", "hello", ...
    std::string_view name() const { return spec_.name; }
    /// One line for --list and the docs.
    std::string_view description() const { return spec_.description; }
    /// Items at scale 1 (the published count); bytes for a sized input.
    std::uint64_t default_count() const { return spec_.default_count; }
    /// What one item is, singular (WorkloadSpec::item_unit).
    std::string_view item_unit() const { return spec_.item_unit; }
    /// True when compared per byte rather than per item (WorkloadSpec::compared_per_byte).
    bool compared_per_byte() const { return spec_.compared_per_byte; }

    /// True when the runner pairs `method` with this workload: the method
    /// has the workload's operation (and passes its method_filter; a program
    /// method, where the workload declares program_methods), or it is
    /// a reference (Method::reference) with the operation of the workload's
    /// reference row (put_prepared or copy_prepared for output, read_bytes for input).
    bool takes(const Method& method) const;

    /// True when the workload has per-call rows (WorkloadSpec::call_item)
    /// and `method` has the calls they make (Method::calls: open, close and
    /// the item's call), built here or not.
    bool takes_calls(const Method& method) const;

    /// Why `method`'s per-call rows cannot run in this build: the method's
    /// `unavailable`, else why one of the calls is not built here; "" when
    /// they can.
    std::string calls_unavailable(const Method& method) const;

    /// Why `method` cannot run this workload in this build: the method's
    /// `unavailable`, else why the operation the workload would call (its own,
    /// or the reference row's) is not built here (Op::why_not_built), else
    /// the workload's own reason (WorkloadSpec::method_unavailable); "" when
    /// it can. The runner lists such a pair as skipped with the reason.
    std::string unavailable(const Method& method) const;

    /// Items per run at `session`'s scale: the default count times the
    /// scale, or, for a sized input, Session::input_size() when set.
    std::uint64_t count(const Session& session) const;

    /// The bytes a run writes (ReferenceKind::output). The default throws
    /// std::logic_error: a workload declaring an output reference overrides it.
    virtual ExpectedOutput expected_output(Session& session) const;
    /// The file a run reads (ReferenceKind::input). The default throws
    /// std::logic_error: a workload declaring an input reference overrides it.
    virtual InputFile input_file(Session& session) const;

protected:
    /// The trial that calls `method`'s operation (the workload's own, which
    /// `method` has) with `params`.
    virtual std::unique_ptr<Trial> make_method_trial(const Method& method, const Params& params,
                                                     Session& session) const = 0;
    /// The trial of a program method (Method::program) that has the
    /// workload's operation, for a workload that declares program_methods:
    /// it says what the program is asked for each run
    /// (core/programs/program_trial.hpp). The default throws std::logic_error (a
    /// workload declaring program_methods overrides it).
    virtual std::unique_ptr<Trial> make_program_trial(const Method& method, const Params& params,
                                                      Session& session) const;
    /// The trial of a per-call row (params.threads >= 1) of a method that
    /// takes_calls (core/engine/call_trial.hpp). The default throws
    /// std::logic_error (a workload with a call_item overrides it).
    virtual std::unique_ptr<Trial> make_call_trial(const Method& method, const Params& params,
                                                   Session& session) const;

private:
    /// True when `method` has the workload's own operation and passes its filter.
    bool has_operation(const Method& method) const;
    /// Chooses among the trials above (core/engine/case_trial.hpp).
    friend std::unique_ptr<Trial> trial_for(const Workload& workload, const Method& method, const Params& params,
                                            Session& session);

    WorkloadSpec spec_;
};

/// What a workload with a sized input (WorkloadSpec::sized_input) reads per
/// run at the session's settings, in bytes: the JSON context's `file_size`.
/// 0 when no registered workload has one.
std::uint64_t sized_input_bytes(const Session& session);

/// Adds a workload to the registry (ownership passes to it). Throws
/// `std::logic_error` on a duplicate name.
void register_workload(std::unique_ptr<Workload> workload);

/// Every registered workload, sorted by name.
const std::vector<std::unique_ptr<Workload>>& workloads();

/// The workload called `name`, or nullptr.
const Workload* find_workload(std::string_view name);

/// The Workload of a workload from outside (iobench/workload.hpp): per-call
/// rows only (put_line for lines, put_fields for typed records), a `limit`
/// row, every line checked. Throws std::invalid_argument when `lines` has no
/// valid name, not exactly one of a line function and a record function (with
/// a record_format of "{}" placeholders only), no item_unit or a
/// default_count of 0.
std::unique_ptr<Workload> make_lines_workload(const LinesWorkload& lines);

/// Appends the line of `record` to `out` as iobench checks a method's against:
/// `record.format` with its i-th "{}" replaced by field i (an integer in
/// decimal, a double as {fmt}'s "{}", a text as it is), then '\n'. Throws
/// std::invalid_argument when the format holds another brace than "{}" or a
/// '\n', or its "{}" are not as many as the fields.
void append_fields_line(const FieldsRecord& record, std::string& out);

/// Registers a workload type from a static initializer:
/// `const iobench::WorkloadRegistrar<IntsOut> registrar;`
template <class W>
struct WorkloadRegistrar {
    WorkloadRegistrar() { register_workload(std::make_unique<W>()); }
};

}  // namespace iobench
