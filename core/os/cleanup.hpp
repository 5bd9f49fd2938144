// Removal of the files a run creates, also when the run is interrupted
// (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2; on
// Windows SIGINT, SIGTERM, SIGBREAK): generated inputs, outputs, the working
// directory and a results file still being written. Nothing half-written is
// left behind. SIGKILL cannot be caught: what a killed run leaves is found and
// removed by the next run (core/os/workdir.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace iobench {

/// Installs the handler that, on any of the signals above, removes every
/// registered path (newest first; directories with rmdir once emptied),
/// prints one line on stderr and exits with 128 + signal number. SIGXFSZ is
/// ignored, so a write beyond the file-size limit fails with EFBIG and is
/// reported like any failed write. In a child process forked by iobench (the
/// console workloads) the handler does nothing of its own: the signal takes
/// its default action. A signal that was ignored when the process started
/// (nohup's SIGHUP, a background job's SIGINT and SIGQUIT) is left ignored.
/// Call once, early in main.
void install_interrupt_cleanup();

/// Makes sure descriptors 0, 1 and 2 are open, opening the null device on any
/// that is closed, so that no file iobench opens later becomes standard
/// input, output or error. Call first thing in main. Returns the numbers of
/// the descriptors it had to open as a bit set (bit n: descriptor n).
int ensure_standard_descriptors();

/// Copies of descriptors 0, 1 and 2 taken when made, to tell whether code
/// run meanwhile (a plugin's constructors) closed one or put another file in
/// its place, and to put it back: otherwise the next file iobench opens (a
/// lock file) would take its number and the summary would be written there.
class StandardDescriptorGuard {
public:
    StandardDescriptorGuard();
    ~StandardDescriptorGuard();
    StandardDescriptorGuard(const StandardDescriptorGuard&) = delete;
    StandardDescriptorGuard& operator=(const StandardDescriptorGuard&) = delete;

    /// Puts back every one of descriptors 0-2 that was closed or names
    /// another file now (on Windows: closed), and names them ("standard
    /// output (descriptor 1)"); empty when none was touched.
    std::vector<std::string> restore();

private:
    int saved_[3] = {-1, -1, -1};
    unsigned long long device_[3] = {}, inode_[3] = {};
};

/// Descriptors a run may hold open at once (measured: 10 for the quick suite),
/// with room to spare for io_uring, threads and the console workloads' pipes.
inline constexpr long needed_open_files = 64;
/// Stack a run needs on its main thread, in bytes (the sizing run crashed at
/// 32 KiB, ran at 48 KiB in a sanitizer build).
inline constexpr long needed_stack_bytes = 256L << 10;

/// Makes sure the process may open needed_open_files descriptors and grow its
/// stack to needed_stack_bytes: a soft limit below that (ulimit -S -n 8,
/// ulimit -S -s 32) is raised to the hard limit (the stack to at most 8 MiB);
/// a hard limit below it throws usage_error naming the limit and the number
/// needed (before, Google Benchmark failed on its own or the run crashed,
/// with nothing saying why). Does nothing on Windows.
void ensure_resource_limits();

/// Registers `path` for removal if the run is interrupted (once: a second
/// registration of the same path is a no-op). At most 256 paths
/// of up to 4095 bytes are held; beyond that registration is ignored (the
/// normal end-of-run removal still happens).
void remove_on_interrupt(const std::filesystem::path& path);

/// Unregisters `path` (after it was removed or renamed normally).
void forget_on_interrupt(const std::filesystem::path& path);

/// What a caught signal does (install_interrupt_cleanup), from a signal
/// handler of another signal: removes every registered path, says
/// "iobench: stopped by signal N; generated files removed" and ends the
/// process with 128 + `sig` (CrashCatcher, when ending a run after a crash
/// crashes too). Async-signal-safe; never returns (not [[noreturn]]: the
/// handler it shares ends the process on every path without saying so).
void remove_generated_and_end(int sig) noexcept;

}  // namespace iobench
