// The trials of program methods (Method::program, docs/external-methods.md):
// one process per trial, asked for every run; each run timed by the program
// itself and verified by iobench like any other method's.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/output_trial.hpp"
#include "core/engine/workload.hpp"
#include "core/programs/program.hpp"

namespace iobench {

class Session;

/// What a workload asks a program method to do in every run: the operation
/// (its name is the protocol's OPERATION), the count, and the operation's
/// own arguments (put_repeat: the line; put_lines: prefix and suffix;
/// put_doubles: the file of the values). docs/external-methods.md.
struct ProgramCall {
    Operation operation{};
    std::uint64_t count = 0;
    std::vector<std::string> arguments{};
};

/// The checksum a program reports of the integers it parsed (get_ints): the
/// sum of (i + 1) x values[i] over i = 0 .. n-1, modulo 2^64.
std::uint64_t program_checksum(const std::vector<std::uint64_t>& values);

/// The same checksum for the values 0 .. count-1 (what ints_in's file holds).
std::uint64_t program_checksum_of_sequence(std::uint64_t count);

/// A program method's process for one trial, and the protocol's requests.
/// Nothing happens at construction but finding the program (unavailable_error
/// when it was not built); the first run starts it.
class ProgramRunner {
public:
    /// The runs of `call` by `method`'s program on `path` with `buffer_size`
    /// (0: the program's default), within the session's time limit
    /// (Session::time_limit).
    ProgramRunner(const Method& method, const ProgramCall& call, const std::string& path, std::size_t buffer_size,
                  const Session& session);

    /// One run of `trial`. The first call starts the program (its "ready"),
    /// measures what one request and answer cost it in system calls (two
    /// "ping"s: the second one's count is subtracted from every run's), and has
    /// it do one warm-up run, verified with `trial.verify()` and untimed,
    /// before `trial.reset()` and the measured run. A get_ints run is followed
    /// by "check": the count and checksum it parsed (checked()). Throws
    /// program_error (the benchmark fails with it), after killing the
    /// program's process group (ProgramProcess::abandon).
    void run(Trial& trial);

    /// Seconds the last run took, as the program measured it (open..close).
    std::optional<double> seconds() const { return seconds_; }
    /// What the operating system counted for the program during the last run
    /// (ProgramProcess::counters, less one request and answer), with the
    /// machine-wide steal_time and cpu_wait of this process's snapshots.
    std::optional<OsCounters> counters() const { return counters_; }
    /// The count and checksum the last get_ints run reported.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> checked() const { return checked_; }

    /// Ends the program (end of its input) and adds to `counters` what the
    /// trial reports of the whole process: start_time (seconds from its start
    /// to "ready"), warmup_time (the warm-up run's own time), process_user_time,
    /// process_system_time (its whole life, from wait4) and process_max_rss
    /// (bytes). A program that exits with a status other than 0, or must be
    /// killed, makes problem() say so.
    void finish(std::map<std::string, double>& counters);
    /// "" or why the program's end makes the benchmark fail.
    const std::string& problem() const { return problem_; }

private:
    /// Asks "run"; returns the program's time in seconds after checking the
    /// answer, and sets counters_.
    double ask_run(const std::string& what);
    void start();
    /// run() without its clean-up on failure.
    void run_once(Trial& trial);

    std::string name_;
    std::vector<std::string> argv_;
    bool input_;
    double time_limit_;
    std::unique_ptr<ProgramProcess> process_;
    OsCounters protocol_cost_;  // calls of one request and answer
    double warmup_seconds_ = 0;
    std::uint64_t runs_ = 0;
    std::optional<double> seconds_;
    std::optional<OsCounters> counters_;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> checked_;
    std::string problem_;
};

/// An output trial (OutputTrial: the file verified by size and checksum)
/// whose runs a program performs.
class ProgramOutputTrial final : public OutputTrial {
public:
    ProgramOutputTrial(Session& session, std::string_view workload, const Method& method, const Params& params,
                       const ExpectedOutput& expected, const ProgramCall& call);
    void run() override { runner_.run(*this); }
    std::optional<double> measured_seconds() const override { return runner_.seconds(); }
    std::optional<OsCounters> measured_counters() const override { return runner_.counters(); }
    void finish() override;
    std::string finish_problem() const override { return runner_.problem(); }

private:
    ProgramRunner runner_;
};

/// A get_ints trial whose runs a program performs: correct when the program
/// reports `count` values with the checksum of 0 .. count-1.
class ProgramIntsInTrial final : public Trial {
public:
    ProgramIntsInTrial(Session& session, const std::filesystem::path& file, std::uint64_t file_bytes, const Method& method,
                       const Params& params, std::uint64_t count);
    void run() override { runner_.run(*this); }
    std::string verify() override;
    std::optional<double> measured_seconds() const override { return runner_.seconds(); }
    std::optional<OsCounters> measured_counters() const override { return runner_.counters(); }
    void finish() override { runner_.finish(counters); }
    std::string finish_problem() const override { return runner_.problem(); }

private:
    std::uint64_t count_;
    std::uint64_t expected_checksum_;
    ProgramRunner runner_;
};

}  // namespace iobench
