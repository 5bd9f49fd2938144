// What the console workloads' two harnesses share (workloads/console_trial.cpp
// with fork(2) on POSIX, workloads/console_trial_windows.cpp with
// CreateProcessW on Windows): the report a child sends back, the measured
// call as the child makes it, and the checks of what reached the target.
// Private to workloads/.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "core/os/os_counters.hpp"
#include "data/checksum.hpp"
#include "workloads/console_trial.hpp"

namespace iobench {

/// How line ends reached standard output in the call. POSIX: always
/// `as_is`. Windows: the C runtime's translation mode of fd 1 when the call
/// returned (`_setmode` says it); the child starts fd 1 in _O_BINARY, and the
/// methods named after a text mode (printf_O_TEXT, wprintf_O_U8TEXT) set theirs.
/// Any text mode counts as `crlf` (wine's msvcrt.dll reports _O_U8TEXT as
/// _O_WTEXT): a method writing UTF-16 would fail the check, as it should.
enum class LineEnds : int {
    as_is = 0,  ///< _O_BINARY: '\n' written as it is
    crlf = 1,   ///< a text mode: every '\n' written as "\r\n" (_O_TEXT and _O_U8TEXT: the same bytes for ASCII)
};

/// What a child sends back: a fixed-size record, trivially copyable.
struct ChildReport {
    int ok = 0;           ///< the call returned
    int skipped = 0;      ///< the call threw unavailable_error (`error` says why): the row is skipped
    int bytes_known = 0;  ///< `bytes` is known: the system counts the bytes a process writes
    int line_ends = 0;    ///< LineEnds of the call
    double seconds = 0;   ///< wall time of the call, steady_clock
    std::uint64_t bytes = 0;  ///< bytes the call passed to write calls
    OsCounters counters;      ///< what the operating system counted around the call
    char error[480] = {};     ///< why the call failed or was skipped
};

/// Bytes this process has passed to write calls since it started: "wchar" of
/// /proc/self/io (Linux), WriteTransferCount of GetProcessIoCounters
/// (Windows); std::nullopt where the system does not say. No allocation.
std::optional<std::uint64_t> bytes_written_so_far() noexcept;

/// Why output to the null device cannot be verified here, where the bytes a
/// process writes are not counted (no /proc/self/io; wine, whose
/// GetProcessIoCounters counts nothing); "" when they are. Checked once.
const std::string& null_device_unverifiable();

/// In the child: the measured call, `count` messages to standard output as
/// it is, timed with steady_clock (the runner's clock) between snapshots of
/// the operating system's counters and of bytes_written_so_far(). Fills
/// `r`, except `line_ends`. Never throws.
void measure_console_call(const ConsoleMessage& msg, const StdoutSink& out, std::uint64_t count, ChildReport& r);

/// The method's operation for the message, `count` times (the warm-up's call).
void call_console_method(const ConsoleMessage& msg, const StdoutSink& out, std::uint64_t count);

/// Copies `text` into `r.error` (truncated to fit).
void set_report_error(ChildReport& r, std::string_view text) noexcept;

/// The part of a console trial that does not depend on how the child is
/// made: the expected bytes, the report, and the checks of what reached
/// the target.
class ConsoleTrialBase : public Trial {
public:
    std::optional<double> measured_seconds() const override { return report_.seconds; }
    std::optional<OsCounters> measured_counters() const override { return report_.counters; }
    /// Checks the report's byte count and what reached the target (the
    /// file's bytes, or what the pipe reader read) against the messages, with
    /// '\n' or "\r\n" line ends as the report says.
    std::string verify() override;

protected:
    /// Throws unavailable_error (skipped) when the target is the null device
    /// and the bytes written cannot be counted here.
    ConsoleTrialBase(Session& s, const Method& m, const Params& p, std::string_view workload, const ConsoleMessage& msg,
                     std::uint64_t count);

    /// Closes the target and the pipe (its reader joined); the file target
    /// is removed.
    void finish() override;

    /// Closes the target and the pipe, joining the pipe's reader.
    virtual void close_all() = 0;
    /// Waits for the pipe's reader, if one runs: pipe_digest_ and
    /// pipe_error_ are then final.
    virtual void join_reader() = 0;

    /// What the pipe reader read (pipe target), once the child has exited:
    /// "" and its digest in `got`, or why reading failed.
    std::string pipe_digest(Digest& got);

    /// After a complete report: throws unavailable_error when the call was
    /// skipped, std::runtime_error with the child's message when it failed.
    void throw_unless_ok() const;

    ConsoleMessage msg_;
    StdoutSink out_;
    std::uint64_t count_;
    StdoutTarget target_kind_;
    std::filesystem::path path_;  ///< the file target's path
    ChildReport report_;
    Digest pipe_digest_;      ///< what the pipe's reader read (pipe target)
    std::string pipe_error_;  ///< why reading the pipe failed ("" when it did not)

private:
    Session& session_;
    std::string line_;     ///< the message's text, kept for the "\r\n" form
    Generator generate_;   ///< the messages with '\n' line ends
    Digest expected_;
};

}  // namespace iobench
