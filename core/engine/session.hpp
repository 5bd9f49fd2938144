// State shared by every benchmark of one run: the target directory, the scale,
// and the generated inputs, made once and reused by every method.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "data/checksum.hpp"

namespace iobench {

/// Where standard output goes while a console workload's call is measured
/// (`--stdout-target`). A run setting: recorded in the JSON context
/// ("stdout_target"), never in a benchmark name.
enum class StdoutTarget {
    devnull,  ///< /dev/null: every write succeeds at once; only byte counts can be checked
    file,     ///< a regular file in the session directory, created empty for every run
    pipe,     ///< a pipe drained by a reader thread of iobench (like `| cat >/dev/null`)
};

/// "devnull", "file" or "pipe".
std::string_view to_string(StdoutTarget target);

/// The target called `name` ("devnull", "file", "pipe"), or std::nullopt.
std::optional<StdoutTarget> parse_stdout_target(std::string_view name);

/// Not enough room in the target directory for a file iobench is about to
/// write (a generated input, or the output a workload will write). `what()`
/// names the file, the bytes needed and the bytes available.
class space_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Bytes one new file in `dir` may hold: the space available to this user on
/// its file system (std::filesystem::space), and on POSIX no more than the
/// file-size limit (RLIMIT_FSIZE). std::nullopt when the file system cannot
/// say.
std::optional<std::uint64_t> room_for_file(const std::filesystem::path& dir);

/// Writes what `generate` produces to a new file at `path`, bounded by the
/// room in its directory when it starts (room_for_file): the three-argument
/// write_generated_file of data/checksum.hpp, whose errors it throws.
std::uint64_t write_generated_file(const std::filesystem::path& path, const Generator& generate);

/// Throws `space_error` when a file of `bytes` bytes called `name` does not
/// fit in `dir` (room_for_file), e.g. "input-file-1099511627776.txt needs
/// 1099511627776 bytes, /tmp/x has 83886080000 available". Does nothing when
/// the room is unknown.
void require_room(const std::filesystem::path& dir, const std::string& name, std::uint64_t bytes);

/// One iobench run's shared state. Removes the inputs it generated when
/// destroyed, unless `keep_files`; the directory itself is its owner's
/// (WorkDir, core/os/workdir.hpp, for a run of iobench).
class Session {
public:
    /// `dir` must exist and be writable (the CLI checks). `scale` > 0
    /// multiplies every workload's default count.
    Session(std::filesystem::path dir, double scale, bool keep_files);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Directory where inputs and outputs are written.
    const std::filesystem::path& dir() const { return dir_; }
    /// Multiplier of every workload's default count.
    double scale() const { return scale_; }
    /// `count` times the scale, rounded, at least 1.
    std::uint64_t scaled(std::uint64_t count) const;

    /// Path of the generated input `name` in the directory, written by `make`
    /// the first time it is asked for.
    /// Throws what `make` throws; a partly written input is removed.
    const std::filesystem::path& input(const std::string& name,
                                       const std::function<void(const std::filesystem::path&)>& make);

    /// The same for an input of `bytes` bytes (file_read: Workload::count):
    /// before `make` runs, throws `space_error` with the bytes needed and
    /// available when it does not fit in the directory, so that generating it
    /// can never fill the disk.
    const std::filesystem::path& input(const std::string& name, std::uint64_t bytes,
                                       const std::function<void(const std::filesystem::path&)>& make);

    /// Path for an output file called `name` in the directory, registered for
    /// removal if the run is interrupted. The trial removes it after verifying.
    std::filesystem::path output(const std::string& name);

    /// Expected digest of a generated stream, computed once per key. The
    /// stream is what an output trial's run will write to the directory: on
    /// every call the digest's size is checked against the room there
    /// (room_for_file), and `space_error` thrown (needed vs available bytes)
    /// when it does not fit; the generation stops as soon as the stream
    /// outgrows the room, so an absurd count is refused without generating it.
    const Digest& expected(const std::string& key, const Generator& generate);

    /// Size in bytes of the input a workload with a sized input reads
    /// (WorkloadSpec::sized_input, `--file-size`); 0 when not set: its
    /// default count times the scale (Workload::count).
    std::uint64_t input_size() const { return input_size_; }
    /// Sets the size of a sized input in bytes (`--file-size`; > 0).
    void set_input_size(std::uint64_t bytes) { input_size_ = bytes; }

    /// Where standard output goes for the workloads with the stdout axis
    /// (Axes::stdout_target; default: /dev/null, as in the seed's console benchmark).
    StdoutTarget stdout_target() const { return stdout_target_; }
    void set_stdout_target(StdoutTarget target) { stdout_target_ = target; }

    /// Seconds a program method's process may take to start or to answer
    /// one request (`--time-limit`; docs/external-methods.md): beyond it, its
    /// process group is killed and the benchmark fails.
    double time_limit() const { return time_limit_; }
    /// Sets it (> 0).
    void set_time_limit(double seconds) { time_limit_ = seconds; }

    /// The default time_limit(): 300 s.
    static constexpr double default_time_limit = 300;

    /// The memory figures (counter name -> value: peak_heap_bytes,
    /// peak_resident_bytes) that the probe run of the per-call row `row`
    /// measured and kept for the row's later trials (its sizing run's for
    /// its repetitions: CallTrialBase::reset), or nullptr when none is kept.
    const std::map<std::string, double>* kept_probe(const std::string& row) const;
    /// Keeps `figures` for the later trials of the per-call row `row`.
    void keep_probe(const std::string& row, std::map<std::string, double> figures);

private:
    std::filesystem::path dir_;
    double scale_;
    bool keep_files_;
    std::map<std::string, std::filesystem::path> inputs_;
    std::map<std::string, Digest> expected_;
    std::map<std::string, std::map<std::string, double>> kept_probes_;
    StdoutTarget stdout_target_ = StdoutTarget::devnull;
    std::uint64_t input_size_ = 0;  // 0: the workload's default count times the scale
    double time_limit_ = default_time_limit;
};

}  // namespace iobench
