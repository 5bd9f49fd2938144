// A method implemented by a program in another language (Go, Rust, Java,
// Python, Node.js, ...): the process that runs it and the protocol spoken with
// it (docs/external-methods.md). The trials of program methods
// (core/programs/program_trial.hpp) start one process per trial, ask it for each run
// over a pipe and verify every run like any other method's.
//
// The process runs in a process group of its own and is killed, with its
// group, when it does not answer within the time limit; on Linux it also dies
// with iobench (PR_SET_PDEATHSIG). POSIX only: on Windows a ProgramProcess
// cannot be made (unavailable_error), and program methods are listed as
// skipped.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <iobench/method.hpp>
#include "core/os/os_counters.hpp"

namespace iobench {

/// A program method's process misbehaved: it exited or was killed before
/// answering, answered something the protocol does not allow, or did not
/// answer within the time limit. `what()` says which, with the last line it
/// wrote on standard error. The benchmark fails with it.
class program_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The command that starts `program`: its interpreter's words, then the
/// program file. A program file that is not where the build put it is looked
/// for in an installed tree: <executable's directory>/../libexec/iobench/methods/
/// <its directory's name>/<its name> (cmake --install puts it there), which is
/// preferred when it exists. Throws unavailable_error when the file is in
/// neither place (a program that was not built), or on Windows.
std::vector<std::string> program_command(const ProgramCommand& program);

/// Checks the files `program` runs for method `method` (its interpreter and
/// its file, as program_command() finds them) before anything runs: throws
/// usage_error (exit status 2, one line naming the method, the file and
/// who could change it) when another user than the caller and root could
/// change one of them or a directory above it (writable_by_others(), as a
/// plugin is checked). Returns the files with their owners,
/// "/usr/bin/python3.11 (owner root), /b/methods/python/prog.py (owner root)"
/// for the results' context; "" for a program that was not built (its rows
/// are skipped, saying so) and on Windows.
std::string check_program(const std::string& method, const ProgramCommand& program);

/// What the operating system counted for a child process, and its wait status.
struct ChildUsage {
    double user_time = 0;    ///< seconds, whole life (wait4's rusage)
    double system_time = 0;  ///< seconds, whole life
    double max_rss = 0;      ///< bytes: peak resident set size
};

/// One running program: started with pipes on its standard input, output and
/// error, in a process group of its own. Not copyable; the destructor ends
/// it (closes its input, waits up to the time limit, then kills its group).
class ProgramProcess {
public:
    /// Starts `argv` (argv[0] an absolute path) and waits, up to
    /// `time_limit` seconds, for its first line, which must be "ready".
    /// `name` names it in messages ("go_bufio.Writer's program"). Throws
    /// io_error when it cannot be started, program_error when it does not
    /// say "ready", unavailable_error on Windows.
    ProgramProcess(std::string name, const std::vector<std::string>& argv, double time_limit);
    ~ProgramProcess();
    ProgramProcess(const ProgramProcess&) = delete;
    ProgramProcess& operator=(const ProgramProcess&) = delete;

    /// Sends `request` (one line, without its '\n') and returns the answer
    /// line (without its '\n'). `what` names the request in messages ("run
    /// 3"). Throws program_error when the process exits, is killed or
    /// does not answer within the time limit (its group is then killed).
    std::string ask(std::string_view request, std::string_view what);

    /// The process's counters now: read_calls, write_calls, read_bytes,
    /// write_bytes (/proc/PID/io), user_time, system_time (/proc/PID/stat:
    /// whole clock ticks of 1/sysconf(_SC_CLK_TCK) s, 10 ms here; cpu_seconds()
    /// is exact), page_faults (minor + major). Every thread of the process,
    /// those that ended included. Not counted: context_switches (/proc gives
    /// them per thread only). Unknown counters (no /proc, not Linux) are not set.
    OsCounters counters() const;

    /// The process's CPU time so far (user and system, every thread), in
    /// seconds to the nanosecond: its CPU-time clock (clock_getcpuclockid);
    /// std::nullopt when the system has none.
    std::optional<double> cpu_seconds() const;

    /// Closes the program's standard input (end of requests) and waits up to
    /// the time limit for it to exit; kills its group when it does not.
    /// Returns "" when it exited with status 0, otherwise what happened
    /// ("exited with status 3", "was killed by signal 11"), with its last
    /// words on standard error. Idempotent.
    std::string finish();

    /// After the program failed (a wrong answer, a broken rule): kills its
    /// process group now, not waiting for it to end by itself, and reaps it.
    /// Nothing when it has ended already.
    void abandon();

    /// Its rusage, from wait4, once finish() has reaped it.
    const std::optional<ChildUsage>& usage() const { return usage_; }

    /// Seconds from the start to its "ready".
    double start_seconds() const { return start_seconds_; }

private:
    /// Reads what the process writes until a whole line is on its standard
    /// output, or it ends (std::nullopt), or the deadline passes (throws).
    std::optional<std::string> read_line(std::string_view what);
    /// Waits for the process to exit until the deadline, then kills its group;
    /// returns its wait status and records its rusage.
    int reap(double seconds);
    /// How the process ended, from its wait `status` ("exited with status 3").
    std::string ended(int status) const;
    /// `message`, then the last line the process wrote on standard error, if any.
    std::string with_last_words(std::string message) const;
    /// The last line of what it wrote on standard error ("" when nothing).
    std::string last_words() const;
    void kill_group();
    void drain_stderr();
    /// After the program ended: kills and reaps the processes it left that
    /// became iobench's (Linux: iobench is a child subreaper, so a
    /// grandchild whose parent died is reparented here, one that left the
    /// program's process group with setsid() included), and records in
    /// escaped_ those that were still running outside that group.
    void reap_orphans();

    std::string name_;
    double time_limit_;
    int pid_ = -1;
    int to_child_ = -1;     // its standard input
    int from_child_ = -1;   // its standard output
    int errors_ = -1;       // its standard error
    int proc_io_ = -1;      // /proc/PID/io
    int proc_stat_ = -1;    // /proc/PID/stat
    std::optional<int> cpu_clock_;  // its CPU-time clock (a clockid_t)
    std::string pending_;   // read from its standard output, not yet a whole line
    std::string stderr_tail_;  // the last bytes of its standard error
    std::optional<int> status_;
    std::string escaped_;   // processes it left running outside its group: "1234 (sleep), ..."
    unsigned long long started_ticks_ = 0;  // its start, clock ticks since boot (/proc/PID/stat)
    std::optional<ChildUsage> usage_;
    double start_seconds_ = 0;
};

}  // namespace iobench
