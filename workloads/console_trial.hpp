// The harness of the console workloads (workloads/console.cpp): each measured
// call runs in a child process whose stdout points at the run's target; the
// child times the call and reports back through a pipe
// (workloads/console_trial.cpp says how, and why; on Windows
// workloads/console_trial_windows.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include <iobench/method.hpp>
#include "core/engine/workload.hpp"

namespace iobench {

/// What a console trial asks the method to print: a line of text
/// (`put` set) or a formatted message (`print` set).
struct ConsoleMessage {
    PutConsole put = nullptr;      ///< set for text messages
    PrintConsole print = nullptr;  ///< set for formatted messages
    std::string_view line;         ///< the text, or the text the format produces
    ConsoleFormat format = ConsoleFormat::int_value;
};

/// The trial of console workload `workload` for method `m`: `count` messages
/// per run to the session's stdout target. Throws `unavailable_error` when
/// the target is the null device and the bytes written cannot be counted
/// here (no /proc/self/io; wine), so that nothing would be verified.
std::unique_ptr<Trial> make_console_trial(Session& s, const Method& m, const Params& p, std::string_view workload,
                                          const ConsoleMessage& msg, std::uint64_t count);

/// Messages of the untimed warm-up the child writes to /dev/null before a
/// measured run of `count` messages of `bytes` in all through a buffer of
/// `buffer_size` bytes (0: unknown): count / 10 (the seed's 1,000 before its
/// 10,000), and at least enough to fill twice the buffer (64 KiB when smaller
/// or unknown), so no page of the method's buffers is touched for the first
/// time inside the measurement.
std::uint64_t console_warmup_messages(std::uint64_t count, std::uint64_t bytes, std::size_t buffer_size);

/// The console trials' child mode, which every executable with the console
/// workloads gives its command line first (iobench's main(), the tests'):
/// on Windows a console trial runs each measured call by starting the
/// running executable again with the hidden first argument
/// --iobench-console-child. Returns the exit status when `argv` is such a
/// child's (a malformed one: 2, with one line on stderr); std::nullopt
/// otherwise, and always on POSIX, whose children are forked.
std::optional<int> console_child_main(int argc, char** argv);

}  // namespace iobench
