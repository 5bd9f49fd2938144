// iobench: the command line. Parses iobench's own options (CLI11), checks every
// --benchmark_* flag and hands it to Google Benchmark, runs the selected suite
// in a working directory of its own and writes the results file itself: kept
// in memory during the run, then written to a temporary file, flushed and
// renamed, every step checked (core/report/results_file.hpp).
//
// Exit status: 0 all benchmarks verified; 1 a benchmark failed (its row says
// why), or the results file could not be written where asked (then it is
// written elsewhere if anywhere, and stderr says where) or standard output
// could not be written; 2 bad
// input (unknown flag, bad value, missing or read-only directory, bad suite);
// 128+N interrupted by signal N (generated files removed); 141 (128+SIGPIPE)
// also when standard output closed before the summary was printed, the
// results file then written and kept.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <iobench/error.hpp>
#include <iobench/method.hpp>  // IOBENCH_VERSION_MAJOR (iobench/plugin.hpp)
#include "app/command_line.hpp"
#include "app/options.hpp"
#include "core/engine/latency.hpp"
#include "core/engine/runner.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/os/abrupt_exit.hpp"
#include "core/os/cleanup.hpp"
#include "core/os/cpu_affinity.hpp"
#include "core/os/crash_catcher.hpp"
#include "core/os/emulator.hpp"
#include "core/os/environment.hpp"
#include "core/os/instructions.hpp"
#include "core/os/memory_use.hpp"
#include "core/os/os_counters.hpp"
#include "core/os/page_supply.hpp"
#include "core/os/standard_output.hpp"
#include "core/os/syscall_counts.hpp"
#include "core/os/trusted_file.hpp"
#include "core/os/workdir.hpp"
#include "core/plugins/plugins.hpp"
#include "core/programs/program.hpp"
#include "core/report/method_list.hpp"
#include "core/report/report.hpp"
#include "core/report/results_file.hpp"
#include "generated/build_info.hpp"
#include "workloads/console_trial.hpp"

#ifdef _WIN32
#include <io.h>
#include <process.h>
#define IOBENCH_ISATTY(fd) _isatty(fd)
#define IOBENCH_GETPID() _getpid()
#else
#include <unistd.h>
#define IOBENCH_ISATTY(fd) isatty(fd)
#define IOBENCH_GETPID() getpid()
#endif

namespace fs = std::filesystem;

namespace {

using iobench::CommandLine;
using iobench::Options;
using iobench::usage_error;

constexpr int exit_failed = 1;
constexpr int exit_usage = 2;
/// Google Benchmark's own default --benchmark_min_time, in seconds.
constexpr double default_min_time = 0.5;

/// Prints a diagnostic on stderr, flushed. A stderr that cannot be written
/// (closed, /dev/full, a full disk) loses the text and nothing else: the
/// exit status stays the one the run earned (fmt::print would throw).
template <class... Args>
void note(fmt::format_string<Args...> format, Args&&... args) noexcept {
    try {
        const std::string text = fmt::format(format, std::forward<Args>(args)...);
        std::fwrite(text.data(), 1, text.size(), stderr);
        std::fflush(stderr);
    } catch (...) {
    }
}

/// Throws usage_error unless `dir` is an existing directory we can create files in.
void check_writable_dir(const fs::path& dir, const char* option) {
    if (dir.empty()) throw usage_error(fmt::format("{} '': give a directory", option));
    std::error_code ec;
    if (!fs::exists(dir, ec)) throw usage_error(fmt::format("{} {}: no such directory", option, dir.string()));
    if (!fs::is_directory(dir, ec)) throw usage_error(fmt::format("{} {}: not a directory", option, dir.string()));
    if (const std::string why = iobench::probe_directory(dir); !why.empty())
        throw usage_error(fmt::format("{} {}: cannot create files there: {}", option, dir.string(), why));
    note("{}", iobench::shared_directory_note(dir, option));
}

/// Removes what runs killed earlier left in `dir`, saying so on stderr (and,
/// once, what of another user's it left alone).
void remove_stale(const fs::path& dir) {
    std::vector<fs::path> others;
    for (const auto& e : iobench::remove_stale(dir, &others))
        note("iobench: removed {}, left by process {} that no longer runs\n", e.path.string(), e.pid);
    note("{}", iobench::left_alone_note(dir, others));
}

/// Prints `text` to standard output: exit status 0, or 1 (with the reason on
/// stderr) when it could not be written.
int print_or_fail(const std::string& text) {
    std::fputs(text.c_str(), stdout);
    const std::string failed = iobench::flush_stdout();
    if (failed.empty()) return 0;
    note("iobench: error: writing to standard output failed: {}\n", failed);
    return exit_failed;
}


/// Hands Google Benchmark its flags: the suite's repetitions and minimum time
/// first, then interleaving, then the user's checked --benchmark_* flags (so
/// they win). Returns false when it rejects an argument (it says which).
bool initialize_harness(const char* argv0, const iobench::Suite& suite, const iobench::HarnessFlags& harness,
                        bool interleave) {
    // Static: Google Benchmark keeps pointers into its argv (the executable's
    // name, in the results' context) until the run ends.
    static std::vector<std::string> gb_args;
    gb_args = {argv0};
    if (suite.repetitions) gb_args.push_back(fmt::format("--benchmark_repetitions={}", *suite.repetitions));
    if (suite.min_time) gb_args.push_back(fmt::format("--benchmark_min_time={}", *suite.min_time));
    if (!harness.interleave) gb_args.push_back(fmt::format("--benchmark_enable_random_interleaving={}", interleave));
    gb_args.insert(gb_args.end(), harness.pass.begin(), harness.pass.end());
    static std::vector<char*> gb_argv;
    gb_argv.clear();
    for (auto& s : gb_args) gb_argv.push_back(s.data());
    int gb_argc = static_cast<int>(gb_argv.size());
    benchmark::Initialize(&gb_argc, gb_argv.data());
    return !benchmark::ReportUnrecognizedArguments(gb_argc, gb_argv.data());
}

/// Where the run's working directory goes: --dir, else the system's
/// temporary directory. Throws usage_error when there is none.
fs::path work_base(const Options& opt) {
    if (opt.dir) return *opt.dir;
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec) throw usage_error(fmt::format("no temporary directory ({}); give --dir", ec.message()));
    return base;
}

/// Where results go when the place they were meant for cannot take them: the
/// user's home directory, then the system's temporary directory.
std::vector<fs::path> rescue_dirs() {
    std::vector<fs::path> dirs;
#ifdef _WIN32
    const char* home = std::getenv("USERPROFILE");
#else
    const char* home = std::getenv("HOME");
#endif
    if (home && *home) dirs.emplace_back(home);
    std::error_code ec;
    const fs::path tmp = fs::temp_directory_path(ec);
    if (!ec) dirs.push_back(tmp);
    return dirs;
}

/// A results file written: where, and whether it went elsewhere than asked.
struct Written {
    fs::path path;
    bool rescued = false;  ///< the named place could not take it (exit status 1)
};

/// Writes the JSON results to `target` (core/report/results_file.hpp: a temporary
/// file, checked writes, flushed, renamed without replacing when `numbered`,
/// i.e. --results-dir). A failed run's results given as --benchmark_out=FILE
/// go to FILE.failed (-2, -3, ... when taken), whether FILE exists or not:
/// never over earlier results, and never under the name a script reads as a
/// success. A complete run is never lost: a directory that went away during
/// the run is made again; a place that cannot take the file (a read-only
/// file system, another user's file in the way) gives way to rescue_dirs(),
/// said on stderr. Returns what was written, or nothing, having said why.
std::optional<Written> write_results(const fs::path& results_target, const std::ostringstream& json_text,
                                     bool numbered, bool failed) {
    if (!json_text) {
        note("iobench: error: the results could not be formatted; {} not written\n", results_target.string());
        return std::nullopt;
    }
    iobench::Existing existing = numbered ? iobench::Existing::number : iobench::Existing::replace;
    fs::path target = results_target;
    if (!numbered && failed) {
        target += ".failed";
        existing = iobench::Existing::number;
    }
    const std::string text = json_text.str();
    std::string error;
    try {
        return Written{iobench::publish_file(target, text, existing)};
    } catch (const std::exception& e) {
        error = e.what();
    }
    std::error_code ec;
    const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::exists(parent, ec)) {
        // Removed or renamed during the run: made again, as at its start.
        fs::create_directories(parent, ec);
        if (!ec) {
            try {
                return Written{iobench::publish_file(target, text, existing)};
            } catch (const std::exception& e) {
                error = e.what();
            }
        } else {
            error = fmt::format("{}; making {} again: {}", error, parent.string(), ec.message());
        }
    }
    for (const fs::path& dir : rescue_dirs()) {
        try {
            const fs::path rescued = iobench::publish_file(dir / target.filename(), text, iobench::Existing::number);
            note("iobench: error: results not written to {}: {}; written to {} instead\n", target.string(), error,
                 rescued.string());
            return Written{rescued, true};
        } catch (const std::exception&) {
            // the next place
        }
    }
    note("iobench: error: results not written to {}: {}\n", target.string(), error);
    return std::nullopt;
}

/// Where the results go: DIR/<name>.json for --results-dir (results_basename
/// of `suite`; created if
/// missing), FILE for --benchmark_out, empty for neither. Throws usage_error
/// for both at once or a target that cannot be written.
fs::path results_target_of(const Options& opt, const std::optional<std::string>& out_file, const std::string& suite) {
    if (opt.results_dir && out_file) throw usage_error("give either --results-dir or --benchmark_out, not both");
    fs::path results_target;
    if (opt.results_dir) {
        // Created only when the run starts (create_results_dir): a run
        // refused with exit 2 leaves no directory behind. Here the nearest
        // part of the path that exists must be a directory we can write to.
        if (opt.results_dir->empty()) throw usage_error("--results-dir '': give a directory");
        fs::path existing = *opt.results_dir;
        std::error_code ec;
        while (!existing.empty() && !fs::exists(existing, ec)) existing = existing.parent_path();
        check_writable_dir(existing.empty() ? fs::path(".") : existing, "--results-dir");
        results_target = fs::path(*opt.results_dir) /
                         (iobench::results_basename(suite, !iobench::loaded_plugins().empty()) + ".json");
    } else if (out_file) {
        results_target = *out_file;
        std::error_code ec;
        if (fs::is_directory(results_target, ec))
            throw usage_error(fmt::format("--benchmark_out={}: is a directory", *out_file));
        if (const std::string what = iobench::not_a_regular_file(results_target); !what.empty())
            throw usage_error(fmt::format("--benchmark_out={}: is {}: results are written to a regular file only "
                                          "(replaced in one step) or a new one",
                                          *out_file, what));
        const fs::path parent = results_target.has_parent_path() ? results_target.parent_path() : fs::path(".");
        check_writable_dir(parent, "--benchmark_out: directory");
    }
    return results_target;
}

/// Why each plugin of the --suite's "plugins" is not loaded (not built):
/// the suite then lists its methods' cases as skipped with the reason.
iobench::AbsentPlugins absent_suite_plugins;

/// What a run will do, decided from the command line and the suite before
/// anything is written.
struct Plan {
    iobench::Suite suite;
    std::vector<int> cpus;  ///< --cpus: the CPUs to pin the run to (none: not pinned)
    std::vector<iobench::Case> cases;      ///< the suite's cases the filter selects
    std::vector<iobench::Skipped> skipped;  ///< likewise, the pairs not built here
    bool interleave = true;
    iobench::StdoutTarget stdout_target = iobench::StdoutTarget::devnull;
    double scale = 1;
    std::uint64_t file_size = 0;  ///< --file-size in bytes; 0: the default
    double time_limit = iobench::Session::default_time_limit;  ///< --time-limit, seconds
    fs::path results_target;      ///< empty: no results file
    int repetitions = 1;  ///< the most, with a stopping rule
    /// The suite's stopping rule, where it can end a benchmark before
    /// `repetitions` (StoppingRule, can_stop_early); unset otherwise.
    std::optional<iobench::StoppingRule> stopping_rule;
    double min_time = default_min_time;  ///< seconds
    /// --instructions: the source asked for (none: the best there is); unset without it.
    std::optional<iobench::InstructionSource> instructions;
    /// The program methods' files with their owners, "method: files; ...",
    /// checked (check_program); "" when no program method runs.
    std::string programs;
    /// --baseline-method's methods, in order; each is a method of some case.
    std::vector<std::string> baseline_methods;
    /// --latency-clock: the clock the per-call rows read; unset: the one measured best at start.
    std::optional<iobench::ClockKind> latency_clock;
};

/// --baseline-method's methods, from every value given (comma-separated
/// lists): each a registered method with a benchmark in `cases`, else
/// usage_error naming it.
std::vector<std::string> baseline_methods_of(const std::vector<std::string>& values,
                                             const std::vector<iobench::Case>& cases) {
    std::vector<std::string> methods;
    for (const std::string& value : values)
        for (std::string_view rest = value;;) {
            const std::size_t comma = rest.find(',');
            std::string_view name = rest.substr(0, comma);
            while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
            while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
            if (name.empty())
                throw usage_error(fmt::format("--baseline-method '{}': a method's name is empty", value));
            if (!iobench::find_method(name))
                throw usage_error(
                    fmt::format("--baseline-method {}: no such method (iobench --list names them)", name));
            if (std::none_of(cases.begin(), cases.end(),
                             [&](const iobench::Case& c) { return c.method->name == name; }))
                throw usage_error(fmt::format("--baseline-method {}: no benchmark of this run has that method "
                                              "(the suite and --benchmark_filter choose them)",
                                              name));
            methods.emplace_back(name);
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    return methods;
}

/// Loads suite `suite_name` (every pair where empty) into `plan` and the
/// cases and skipped benchmarks `filter` selects from it. Throws
/// usage_error for a bad suite, or when nothing selected can run (saying
/// why: skipped here, or matched by nothing).
void select_cases(const std::string& suite_name, const std::string& filter, Plan& plan) {
    try {
        plan.suite = suite_name.empty() ? iobench::all_pairs() : iobench::load_suite(suite_name, absent_suite_plugins);
    } catch (const iobench::suite_error& e) {
        throw usage_error(e.what());
    }
    plan.cases = iobench::filter_cases(plan.suite.cases, filter);
    plan.skipped = iobench::filter_cases(plan.suite.skipped, filter);
    if (!plan.cases.empty()) return;
    // Every benchmark selected cannot run here (a Windows-only method on
    // Linux, a shared sink of a method that cannot share one): say why.
    if (!plan.skipped.empty())
        throw usage_error(fmt::format("nothing can run: the {} benchmark(s) selected are skipped here ({}: {}{})",
                                      plan.skipped.size(), plan.skipped.front().name, plan.skipped.front().reason,
                                      plan.skipped.size() > 1 ? "; ..." : ""));
    throw usage_error(fmt::format("no benchmark matches --benchmark_filter={}", filter));
}

/// The program methods of `cases` checked: code from elsewhere runs only
/// when no other user could change it. Returns "method: files" of each
/// program method once, "; " between them (the context's programs).
std::string checked_programs(const std::vector<iobench::Case>& cases) {
    std::vector<std::string> programs;
    for (const iobench::Case& c : cases) {
        if (c.method->program.file.empty()) continue;
        const std::string named = c.method->name + ":";
        if (std::any_of(programs.begin(), programs.end(), [&](const std::string& p) { return p.rfind(named, 0) == 0; }))
            continue;
        if (std::string files = iobench::check_program(c.method->name, c.method->program); !files.empty())
            programs.push_back(fmt::format("{} {}", named, files));
    }
    return fmt::format("{}", fmt::join(programs, "; "));
}

/// The clock --latency-clock `name` names. Throws usage_error, listing the
/// clocks this machine can read, for a name that is none or one it cannot.
iobench::ClockKind latency_clock_named(const std::string& name) {
    const std::optional<iobench::ClockKind> clock = iobench::clock_named(name);
    std::vector<std::string> here;
    for (iobench::ClockKind k : iobench::available_clocks()) here.emplace_back(iobench::to_string(k));
    here.emplace_back("none");
    if (!clock || !iobench::clock_available(*clock))
        throw usage_error(fmt::format("--latency-clock {}: {}; here: {}", name,
                                      clock ? "cannot be read on this machine" : "no such clock",
                                      fmt::join(here, ", ")));
    return *clock;
}

/// The repetitions, runs and order of `plan` (whose suite is chosen) from
/// `cl`, the suite and --instructions; the suite's stopping rule where it
/// can stop a benchmark early (not with a warm-up, which it would count).
void set_repetitions(const CommandLine& cl, Plan& plan) {
    const Options& opt = cl.opt;
    const iobench::HarnessFlags& harness = cl.harness;
    const iobench::Suite& suite = plan.suite;
    // Every benchmark gets the repetitions explicitly, so the progress lines
    // can count them, and its runs per repetition from a sizing run.
    plan.repetitions = harness.repetitions.value_or(suite.repetitions.value_or(1));
    plan.min_time = harness.min_time.value_or(suite.min_time.value_or(default_min_time));
    if (opt.instructions_given) {
        if (opt.instructions.empty()) plan.instructions = iobench::InstructionSource::none;
        else if (opt.instructions == "perf") plan.instructions = iobench::InstructionSource::perf;
        else plan.instructions = iobench::InstructionSource::valgrind;  // checked when parsed
        // The counts hardly vary from run to run: one run of one repetition
        // says it (under valgrind a run takes ~50 times as long).
        plan.repetitions = harness.repetitions.value_or(1);
        plan.min_time = harness.min_time.value_or(0);
        // In the suite's order: the counts then depend on nothing random
        // (interleaved, what ran before changes a few hundred instructions).
        plan.interleave = harness.interleave.value_or(false);
    }
    // The suite's stopping rule, up to the repetitions of the run (its own,
    // or --benchmark_repetitions): with no more than its fewest, nothing to
    // stop. Google Benchmark's warm-up calls the benchmark as a repetition
    // would, which the rule would count as one: with a warm-up, no rule.
    if (suite.stopping_rule && iobench::can_stop_early(*suite.stopping_rule, plan.repetitions)) {
        if (harness.min_warmup_time.value_or(0) > 0)
            note("iobench: the suite's stopping rule is not applied with --benchmark_min_warmup_time (its warm-up "
                 "calls would count as repetitions): every benchmark runs {} repetitions\n",
                 plan.repetitions);
        else
            plan.stopping_rule = suite.stopping_rule;
    }
}

/// Decides the run from `cl` into `plan`: the suite, the cases, every value
/// checked. Returns the exit status when the command is done already
/// (--list printed), std::nullopt to go on. Throws usage_error.
std::optional<int> make_plan(const CommandLine& cl, Plan& plan) {
    const Options& opt = cl.opt;
    const iobench::HarnessFlags& harness = cl.harness;
    plan.interleave = harness.interleave.value_or(!opt.no_interleave);
    const iobench::ListFormat list_format =
        opt.list_format ? iobench::parse_list_format(*opt.list_format) : iobench::ListFormat::names;
    if (opt.list && list_format == iobench::ListFormat::markdown)
        return print_or_fail(iobench::methods_markdown(iobench::methods(), iobench::workloads()));

    select_cases(opt.suite, harness.filter, plan);
    const iobench::Suite& suite = plan.suite;

    if (opt.list) {
        std::string names;
        for (const auto& c : plan.cases) names += c.name + "\n";
        for (const auto& s : plan.skipped) names += fmt::format("# {}: skipped, {}\n", s.name, s.reason);
        return print_or_fail(names);
    }

    plan.stdout_target = suite.stdout_target.value_or(iobench::StdoutTarget::devnull);
    if (opt.stdout_target) {
        const auto t = iobench::parse_stdout_target(*opt.stdout_target);
        if (!t) throw usage_error(fmt::format("--stdout-target {}: must be devnull, file or pipe", *opt.stdout_target));
        plan.stdout_target = *t;
    }

    plan.scale = opt.scale ? iobench::parse_scale(*opt.scale) : suite.scale.value_or(1.0);
    iobench::check_scale(plan.scale, opt.scale ? "--scale" : fmt::format("suite {}: \"scale\"", suite.name),
                         plan.cases, opt.file_size.has_value());
    plan.file_size = opt.file_size ? iobench::parse_size(*opt.file_size, "--file-size") : 0;
    plan.programs = checked_programs(plan.cases);
    if (!opt.baseline_method.empty()) plan.baseline_methods = baseline_methods_of(opt.baseline_method, plan.cases);
    if (opt.latency_clock) plan.latency_clock = latency_clock_named(*opt.latency_clock);
    if (opt.time_limit) plan.time_limit = iobench::parse_time_limit(*opt.time_limit);
    if (opt.cpus) plan.cpus = iobench::parse_cpu_list(*opt.cpus);
    if (opt.dir) check_writable_dir(*opt.dir, "--dir");
    plan.results_target = results_target_of(opt, harness.out_file, plan.suite.name);
    set_repetitions(cl, plan);
    return std::nullopt;
}

/// Writes the results file, then the summary; says what was kept. Returns
/// the exit status (see the file's header).
int finish(const CommandLine& cl, const Plan& plan, const iobench::Outcomes& outcomes,
           const std::ostringstream& json_text, const std::ostringstream& summary, const fs::path& dir) {
    const int failed = outcomes.failed();
    int status = failed > 0 ? exit_failed : 0;
    std::optional<Written> written;
    if (!plan.results_target.empty()) {
        written = write_results(plan.results_target, json_text, cl.opt.results_dir.has_value(), failed > 0);
        if (!written || written->rescued) status = exit_failed;
    }
    const std::error_code stdout_error = iobench::write_stdout(summary.str());
    if (written && !written->rescued) {
        note("iobench: results written to {}\n", written->path.string());
        // How to see them as a report: the tool of iobench's source tree.
        std::error_code ec;
        const bool tool_here = fs::exists(iobench::build::compare_tool, ec);
        note("iobench: its HTML report (tables, charts): {} {} --format html -o {}\n",
             tool_here ? std::string(iobench::build::compare_tool)
                       : std::string("tools/iobench-compare (of iobench's source)"),
             written->path.string(), fs::path(written->path).replace_extension(".html").string());
    }
    else if (plan.results_target.empty())
        note("iobench: no results file written (--results-dir DIR or --benchmark_out=FILE keeps one)\n");
    if (stdout_error == std::errc::broken_pipe) {
        // The reader went away (| head): exit as SIGPIPE would have ended
        // the process, with what was kept said.
        note("iobench: standard output closed before the summary was printed (broken pipe){}\n",
             written ? "; the results are kept" : "");
#ifdef SIGPIPE
        status = 128 + SIGPIPE;
#else
        status = exit_failed;
#endif
    } else if (stdout_error) {
        note("iobench: error: writing the report to standard output failed: {}\n", stdout_error.message());
        status = exit_failed;
    }
    if (failed > 0) note("iobench: {} benchmark(s) failed\n", failed);
    if (cl.opt.keep_files) note("iobench: files kept in {}\n", dir.string());
    return status;
}

/// While it lives: a method's code that calls exit(), quick_exit(), or on
/// Linux _exit() or _Exit(), or crashes (Linux: SIGSEGV, SIGBUS, SIGILL,
/// SIGFPE, SIGABRT; CrashCatcher), in the middle of a run (handlers of this
/// process, not of a forked child), or an
/// in-process measured call that runs past the time limit (a watchdog
/// thread; a program method has its own; none while instructions are
/// counted), ends the run through `end` with
/// one line naming the benchmark: `end` records the row as failed, keeps
/// the rows that finished (results file, summary), removes the work
/// directory and returns the exit status, with which the process ends.
class RunGuard {
public:
    /// end(benchmark, reason) -> exit status.
    using End = std::function<int(const std::string&, const std::string&)>;

    /// `watch`: start the watchdog (not while instructions are counted:
    /// its wake-ups would count in the calls' instructions).
    RunGuard(End end, double time_limit, bool watch) {
        {
            const std::lock_guard<std::mutex> lock(mutex());
            end_function() = std::move(end);
            owner_pid() = static_cast<long>(IOBENCH_GETPID());
        }
        static const bool registered = std::atexit(on_exit) == 0 && iobench::register_quick_exit_handler(on_quick_exit);
        (void)registered;
        previous_exit_ = iobench::set_abrupt_exit_handler(on_abrupt_exit);
        if (watch) watchdog_ = std::thread([this, time_limit] { this->watch(time_limit); });
    }

    ~RunGuard() {
        iobench::set_abrupt_exit_handler(previous_exit_);
        {
            const std::lock_guard<std::mutex> lock(mutex());
            end_function() = nullptr;
            stop_ = true;
        }
        stopped_.notify_all();
        if (watchdog_.joinable()) watchdog_.join();
    }

    RunGuard(const RunGuard&) = delete;
    RunGuard& operator=(const RunGuard&) = delete;

private:
    static std::mutex& mutex() {
        static std::mutex m;
        return m;
    }
    static End& end_function() {
        static End f;
        return f;
    }
    static long& owner_pid() {
        static long pid = 0;
        return pid;
    }

    /// atexit: exit() while a benchmark runs, in this process.
    static void on_exit() { ended_by("exit()"); }

    /// at_quick_exit: quick_exit(), which runs no atexit handler.
    static void on_quick_exit() { ended_by("quick_exit()"); }

    /// _exit() or _Exit() (`how`), which run no handler of the C library's
    /// (core/os/abrupt_exit.hpp); outside a benchmark's run they end the
    /// process as they would have.
    static void on_abrupt_exit(const char* how, int) { ended_by(how); }

    /// `how` (a function's name, "exit()") ends the process: while a
    /// benchmark runs, in this process, the run ends as end_run says.
    static void ended_by(const char* how) {
        if (static_cast<long>(IOBENCH_GETPID()) != owner_pid() || !iobench::run_in_progress()) return;
        iobench::stop_runs();
        end_run(fmt::format("called {} during its run", how));
    }

    /// Ends the run once (a second caller waits for the first to end the
    /// process), after stop_runs(). Under --instructions' valgrind the
    /// status is recorded first, so that the iobench waiting outside
    /// reports the run's end, not valgrind's.
    static void end_run(const std::string& reason) {
        static std::atomic<bool> ending{false};
        if (ending.exchange(true))
            for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        End end;
        {
            const std::lock_guard<std::mutex> lock(mutex());
            end = end_function();
        }
        if (!end) return;
        const auto now = iobench::run_in_progress();
        const std::string name = now ? now->name : std::string("a benchmark");
        note("iobench: error: {}: {}; the run ends here, with the rows that finished before it\n", name, reason);
        int status = exit_failed;
        try {
            status = end(name, reason);
        } catch (const std::exception& e) {
            note("iobench: error: {}\n", e.what());
        }
        iobench::record_exit_status(status);
        iobench::end_process(status);
    }

    /// An in-process call past `time_limit` seconds ends the run: checked
    /// every quarter of the limit, at most every second (each wake-up counts
    /// in a process-wide row's context switches).
    void watch(double time_limit) {
        const auto period = std::chrono::duration<double>(std::min(1.0, std::max(0.05, time_limit / 4)));
        std::unique_lock<std::mutex> lock(mutex());
        while (!stop_) {
            stopped_.wait_for(lock, period);
            if (stop_) return;
            if (!iobench::stop_runs_if_call_overdue(time_limit)) continue;
            lock.unlock();
            end_run(fmt::format("its call did not return within the time limit of {} s (--time-limit)", time_limit));
            return;
        }
    }

    /// A crash of a method's code (SIGSEGV, SIGABRT, ...; Linux) while a
    /// benchmark runs, in this process, ends the run as end_run says; else
    /// the process dies of it as it would have.
    static void on_crash(int sig) {
        if (static_cast<long>(IOBENCH_GETPID()) != owner_pid() || !iobench::run_in_progress()) return;
        iobench::stop_runs();
        end_run(fmt::format("crashed with {} during its run", iobench::crash_signal_text(sig)));
    }

    std::thread watchdog_;
    iobench::CrashCatcher crash_catcher_{on_crash};
    iobench::AbruptExitHandler previous_exit_ = nullptr;
    bool stop_ = false;  // guarded by mutex()
    std::condition_variable stopped_;
};

/// valgrind's file: the environment's IOBENCH_VALGRIND where set (an
/// absolute path), else the one found when iobench was built (never a PATH
/// lookup at run time), opened and checked as code from elsewhere. Throws
/// usage_error when there is none, the path is relative, or another user
/// could change it (TrustedFile).
iobench::TrustedFile valgrind_file() {
    const char* given = std::getenv("IOBENCH_VALGRIND");
    const std::string path = given && *given ? given : iobench::build::valgrind;
    if (path.empty())
        throw usage_error("--instructions: no valgrind was found when iobench was built: install valgrind and build "
                          "iobench again, or name it in the environment's IOBENCH_VALGRIND");
    if (!fs::path(path).is_absolute())
        throw usage_error(fmt::format("IOBENCH_VALGRIND={}: give valgrind's absolute path", path));
    return iobench::TrustedFile(path, given && *given ? "IOBENCH_VALGRIND" : "valgrind");
}

/// Refuses (usage_error naming --file-size `given`) a sized input of
/// `plan.file_size` bytes that does not fit in `base`.
void require_room_for_input(const fs::path& base, const Plan& plan, const std::string& given) {
    const auto sized = std::find_if(plan.cases.begin(), plan.cases.end(),
                                    [](const iobench::Case& c) { return c.workload->spec().sized_input; });
    try {
        if (sized != plan.cases.end())
            iobench::require_room(base, fmt::format("the {} input", sized->workload->name()), plan.file_size);
    } catch (const iobench::space_error& e) {
        throw usage_error(fmt::format("--file-size {}: {}", given, e.what()));
    }
}

/// The results file's context of the run of `plan` in `dir` (after Google
/// Benchmark's own keys): the environment, the run's settings, what did not
/// run, the CPUs it is `pinned` to, and what a new file's pages cost against
/// an overwrite's where an output table has a limit row (measured here, some
/// 0.3 s, into `page_cost`); the per-call clock chosen where a row is per-call.
std::map<std::string, std::string> run_context(const Plan& plan, const iobench::Session& session, const fs::path& dir,
                                               const std::string& pinned,
                                               std::optional<iobench::PageCost>& page_cost) {
    std::map<std::string, std::string> context;
    for (const auto& [key, value] : iobench::describe_environment(dir)) context.emplace(key, value);
    context["suite"] = plan.suite.name;
    context["scale"] = fmt::format("{}", plan.scale);
    context["stdout_target"] = std::string(iobench::to_string(plan.stdout_target));
    context["file_size"] = std::to_string(iobench::sized_input_bytes(session));
    context["skipped"] = iobench::skipped_context(plan.skipped);
    context["interleaved"] = plan.interleave ? "true" : "false";
    context["counters"] = iobench::available_os_counters();  // the OS counters the rows can carry here
    context["syscall_counter"] = iobench::syscall_counter_description();
    if (!pinned.empty()) context["cpus"] = pinned;
    // A new file's pages against overwritten ones (some 0.3 s), where an
    // output table has a limit row whose time they may be most of.
    const bool output_limit = std::any_of(plan.cases.begin(), plan.cases.end(), [](const iobench::Case& c) {
        return c.method->reference && c.workload->spec().reference == iobench::ReferenceKind::output;
    });
    if (output_limit && !plan.instructions) {
        // 1 GiB at full scale (hello writes 1.2 GB), down to 64 MiB for a quick run.
        constexpr double mib = 1 << 20;
        page_cost = iobench::measure_page_cost(
            dir, static_cast<std::uint64_t>(std::clamp(1024 * mib * plan.scale, 64 * mib, 1024 * mib)));
    }
    context["page_cache_pages"] = iobench::describe_page_supply(
        iobench::page_supply_facts(), page_cost,
        plan.instructions ? "an instructions run"
        : !output_limit   ? "no output table with a limit row in this run"
                          : "not measurable here");
    if (!plan.programs.empty()) context["programs"] = plan.programs;
    if (plan.stopping_rule) context["stopping_rule"] = iobench::describe(*plan.stopping_rule, plan.repetitions);
    if (std::any_of(plan.cases.begin(), plan.cases.end(), [](const iobench::Case& c) { return c.params.threads > 0; })) {
        // Every candidate measured (some 15 ms each), the one to use chosen: before any trial is made.
        iobench::select_call_clock(plan.latency_clock);
        context["latency_clock"] = iobench::describe_call_clock();
        context["memory_counters"] = iobench::describe_memory_counters();
    }
    if (plan.instructions) {
        context["instructions_source"] = std::string(iobench::to_string(iobench::instruction_counter().source()));
        if (iobench::instruction_counter().source() == iobench::InstructionSource::valgrind) {
            const iobench::TrustedFile valgrind = valgrind_file();
            context["valgrind"] = fmt::format("{} (owner {})", valgrind.path().string(), valgrind.owner());
        }
    }
    return context;
}

/// Says on standard error what the run of `plan` in `dir` loads and does:
/// each plugin, an emulated CPU, the benchmarks, the scale and the files' place.
void announce_run(const Plan& plan, const fs::path& dir) {
    for (const iobench::LoadedPlugin& p : iobench::loaded_plugins())
        note("iobench: plugin {}{}: {} (sha256 {})\n", p.path, p.owner.empty() ? "" : " (owner " + p.owner + ")",
             iobench::registered_text(p), p.sha256.substr(0, 16));
    if (!iobench::cpu_emulator().empty())
        note("iobench: on an emulated CPU ({}): the times are the emulator's, not a CPU's (docs/architectures.md)\n",
             iobench::cpu_emulator());
    note("iobench: {} benchmark(s), scale {}, files in {} ({})\n", plan.cases.size(), plan.scale, dir.string(),
         iobench::filesystem_type(dir));
}

/// Gives the summary what it says beside the rows of the run of `plan`:
/// skipped benchmarks, plugins, baselines, added families, the stopping
/// rule, the page cost measured (`page_cost`), valgrind and instructions.
void configure_summary(iobench::SummaryConsoleReporter& display, const Plan& plan,
                       const std::optional<iobench::PageCost>& page_cost) {
    display.set_skipped(plan.skipped);
    display.set_plugins(iobench::loaded_plugins());
    display.set_baseline_methods(plan.baseline_methods);
    display.set_added_families(iobench::added_family_builds(), iobench::added_build_flags());
    if (plan.stopping_rule) display.set_stopping_rule(*plan.stopping_rule, plan.repetitions);
    display.set_page_cost(page_cost);
    display.set_under_valgrind(iobench::running_under_valgrind());
    if (plan.instructions)
        display.set_instructions_source(std::string(iobench::to_string(iobench::instruction_counter().source())));
}

/// Benchmark `name`'s row, failed with `reason`, as Google Benchmark reports
/// an error (no time): for a run that code from elsewhere ended (RunGuard).
benchmark::BenchmarkReporter::Run failed_row(const std::string& name, const std::string& reason) {
    benchmark::BenchmarkReporter::Run row;
    row.run_name.function_name = name;
    row.run_type = benchmark::BenchmarkReporter::Run::RT_Iteration;
    row.error_occurred = true;
    row.error_message = reason;
    row.repetitions = 1;
    row.iterations = 0;
    row.time_unit = benchmark::kMillisecond;
    return row;
}

/// Where the run's working directory goes (--dir, else the system's
/// temporary directory), after removing what killed runs left there and
/// beside the results file, with room checked for a sized input. Throws
/// usage_error.
fs::path prepared_work_base(const Options& opt, const Plan& plan) {
    const fs::path base = work_base(opt);
    remove_stale(base);
    const fs::path& results_target = plan.results_target;
    if (!results_target.empty()) remove_stale(results_target.has_parent_path() ? results_target.parent_path() : ".");
    if (plan.file_size != 0) require_room_for_input(base, plan, *opt.file_size);
    return base;
}

/// Creates --results-dir `dir` (and its parents) where missing. Throws
/// usage_error naming it and the system's message.
void make_results_dir(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw usage_error(fmt::format("--results-dir {}: {}", dir, ec.message()));
}

/// Runs `plan`: the working directory (after removing what killed runs left),
/// the harness, every benchmark; then finish(). Returns the exit status.
int execute(const CommandLine& cl, const Plan& plan, const char* argv0) {
    const Options& opt = cl.opt;
    const fs::path& results_target = plan.results_target;
    iobench::ensure_resource_limits();  // ulimit -n, -s: raised, or refused (exit 2)
    const fs::path base = prepared_work_base(opt, plan);
    std::optional<iobench::WorkDir> work;
    try {
        work.emplace(base);
    } catch (const std::system_error& e) {
        // what() names the call, the path and the system's message already.
        throw usage_error(fmt::format("{}{}", e.what(), opt.dir ? "" : "; give --dir"));
    }
    if (opt.keep_files) work->keep();

    if (!initialize_harness(argv0, plan.suite, cl.harness, plan.interleave)) return exit_usage;
    if (opt.results_dir) make_results_dir(*opt.results_dir);

    const fs::path dir = work->path();
    iobench::Session session(dir, plan.scale, opt.keep_files);
    session.set_stdout_target(plan.stdout_target);
    if (plan.file_size != 0) session.set_input_size(plan.file_size);
    session.set_time_limit(plan.time_limit);

    // Pinned before any thread of the run starts (they inherit the mask).
    const std::string pinned = plan.cpus.empty() ? std::string() : iobench::pin_to_cpus(plan.cpus);

    // The results file's context after Google Benchmark's own keys: the
    // environment, the run's settings, what did not run.
    std::optional<iobench::PageCost> page_cost;
    std::map<std::string, std::string> context = run_context(plan, session, dir, pinned, page_cost);
    // --benchmark_context's keys, among iobench's by name (none is one of theirs: check_harness_flags).
    for (const auto& [key, value] : cl.harness.context) context[key] = value;
    announce_run(plan, dir);
    iobench::Outcomes outcomes;  // how each benchmark ended: the summary, the exit status

    const iobench::CaseIndex index(plan.cases);  // what each row is: the summary's tables, the JSON's fields
    iobench::SummaryConsoleReporter display(
        outcomes, index,
        IOBENCH_ISATTY(1) ? benchmark::ConsoleReporter::OO_ColorTabular : benchmark::ConsoleReporter::OO_Tabular);
    configure_summary(display, plan, page_cost);
    // The summary is printed once the results file is safe: a reader of
    // standard output that goes away (| head) cannot cost the results.
    std::ostringstream summary;
    display.SetOutputStream(&summary);
    // The results stay in memory until the run ends: nothing half-written
    // exists on disk meanwhile.
    std::ostringstream json_text;
    iobench::NamedJSONReporter json_file(index, json_text);
    json_file.set_context(std::move(context));
    json_file.set_plugins(iobench::loaded_plugins());
    json_file.set_added_families(iobench::added_family_builds(), iobench::added_build_flags());
    iobench::TeeReporter tee(display, results_target.empty() ? nullptr : &json_file,
                             cl.harness.display_aggregates_only, cl.harness.report_aggregates_only);
    {
        // Code from elsewhere that calls exit() or never returns costs its
        // own row: the rows before it are kept, the work directory removed.
        // From the sizing runs on (register_benchmarks makes one call of each).
        const RunGuard guard(
            [&](const std::string& name, const std::string& reason) {
                outcomes.record(name, iobench::Outcome::failed(reason));
                tee.ReportRuns({failed_row(name, reason)});
                tee.Finalize();
                const int status = finish(cl, plan, outcomes, json_text, summary, dir);
                work.reset();
                return status == 0 ? exit_failed : status;
            },
            plan.time_limit, !plan.instructions.has_value());
        iobench::register_benchmarks(plan.cases, session, outcomes, plan.repetitions, plan.min_time,
                                     plan.stopping_rule);
        benchmark::RunSpecifiedBenchmarks(&tee);
    }
    benchmark::Shutdown();
    return finish(cl, plan, outcomes, json_text, summary, dir);
}

/// Loads the plugin at `path` (load_plugin), refusing one that closes or
/// replaces a standard descriptor while it loads. Throws usage_error.
void load_one_plugin(const std::string& path) {
    // A plugin's constructors run as it loads: one that closes or
    // replaces standard output would have the summary written elsewhere.
    iobench::StandardDescriptorGuard standard;
    try {
        iobench::load_plugin(path);
    } catch (...) {
        standard.restore();
        throw;
    }
    if (const auto touched = standard.restore(); !touched.empty())
        throw usage_error(fmt::format("--plugin {}: closed or replaced {} while it was loaded: refused (put back "
                                      "for this line)",
                                      path, fmt::join(touched, ", ")));
}

/// The value of the last --suite (or --suite=) of `args`, "" when none.
std::string suite_argument(const std::vector<std::string>& args) {
    std::string suite;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--suite" && i + 1 < args.size()) suite = args[++i];
        else if (args[i].rfind("--suite=", 0) == 0) suite = args[i].substr(std::strlen("--suite="));
    }
    return suite;
}

/// Loads the plugins the --suite names ("plugins": the `loggers` suite's),
/// each from beside the executable: <its directory>/plugins/ (a build tree,
/// where the `loggers` target puts them), else <its directory>/../lib/iobench/plugins/
/// (an installed tree). A plugin found nowhere is recorded in
/// absent_suite_plugins, with the build command; one found is loaded as
/// --plugin loads it (the same checks; refused: exit 2); one given with
/// --plugin too is loaded once.
void load_suite_plugins(const std::vector<std::string>& args) {
    const std::string suite = suite_argument(args);
    if (suite.empty()) return;
    std::vector<iobench::SuitePlugin> plugins;
    try {
        plugins = iobench::suite_plugins(suite);
    } catch (const iobench::suite_error& e) {
        throw usage_error(e.what());
    }
#ifdef _WIN32
    for (const iobench::SuitePlugin& p : plugins)
        absent_suite_plugins.emplace_back(p.file, "not built: the loggers build target is not built on Windows in "
                                                  "this release");
#else
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const fs::path dir = ec ? fs::path() : exe.parent_path();
    for (const iobench::SuitePlugin& p : plugins) {
        const std::string name = p.file + ".so";
        fs::path found;
        for (const fs::path& candidate : {dir / "plugins" / name, dir / ".." / "lib" / "iobench" / "plugins" / name})
            if (!dir.empty() && fs::is_regular_file(candidate, ec)) {
                found = candidate.lexically_normal();
                break;
            }
        if (found.empty()) {
            absent_suite_plugins.emplace_back(
                p.file, fmt::format("not built: no {} in {} (cmake --build <build dir> --target loggers)", name,
                                    dir.empty() ? "the executable's directory" : (dir / "plugins").string()));
            continue;
        }
        const fs::path real = fs::canonical(found, ec);
        bool loaded = false;
        for (const iobench::LoadedPlugin& l : iobench::loaded_plugins())
            if (!ec && fs::path(l.path) == real) loaded = true;
        if (!loaded) load_one_plugin(found.string());
    }
#endif
}

/// Loads every --plugin of the command line, in order, then the plugins of
/// its --suite, before anything else is parsed (so a plugin's methods can be
/// named in a suite or a filter), after refusing a registry that start-up
/// left inconsistent. Throws usage_error.
void load_plugins(int argc, char** argv) {
    if (!iobench::registration_errors().empty())
        throw usage_error(fmt::format("method families built into this executable clash: {}",
                                      fmt::join(iobench::registration_errors(), "; ")));
    const std::vector<std::string> args(argv + 1, argv + argc);
    for (const std::string& path : iobench::plugin_arguments(args)) load_one_plugin(path);
    load_suite_plugins(args);
}

/// --instructions: makes the process's instruction counter count with
/// `wanted` (none: the best there is), or, where only valgrind can count,
/// runs the whole command again under valgrind and returns its exit status.
/// std::nullopt: counting here, go on. Throws usage_error when nothing can
/// count (the reasons of both sources).
std::optional<int> start_counting_instructions(iobench::InstructionSource wanted, int argc, char** argv) {
    const std::string why = iobench::instruction_counter().enable(wanted);
    if (why.empty()) return std::nullopt;
    if (wanted == iobench::InstructionSource::perf || iobench::running_under_valgrind())
        throw usage_error(fmt::format("--instructions: {}", why));
    const std::string unsupported = iobench::valgrind_unsupported();
    if (!unsupported.empty()) {
        if (wanted == iobench::InstructionSource::valgrind) throw usage_error("--instructions=valgrind: " + unsupported);
        throw usage_error(fmt::format("--instructions: {}; and {}", iobench::perf_instructions_unavailable(),
                                      unsupported));
    }
    const std::string why_valgrind =
        wanted == iobench::InstructionSource::valgrind
            ? std::string()
            : fmt::format(" (no hardware counter: {})", iobench::perf_instructions_unavailable());
    const iobench::TrustedFile valgrind = valgrind_file();
    try {
        return iobench::rerun_under_valgrind(
            argc, argv,
            [&] {
                note("iobench: counting instructions under valgrind's callgrind ({}){}; the run is ~50x slower\n",
                     valgrind.path().string(), why_valgrind);
            },
            valgrind.path().string());
    } catch (const iobench::valgrind_failed&) {
        throw;  // exit status 1: the run failed, and says how
    } catch (const std::runtime_error& e) {
        throw usage_error(fmt::format("--instructions: {}", e.what()));
    }
}

/// The paths of the command line made absolute against the working
/// directory iobench started in, once they are checked: code iobench did not
/// build (a plugin's method) may change the working directory during the
/// run, and the work directory and the results must not follow it.
void fix_paths(CommandLine& cl, Plan& plan) {
    for (std::optional<std::string>* path : {&cl.opt.dir, &cl.opt.results_dir})
        if (*path && !(*path)->empty()) **path = fs::absolute(**path).string();
    if (!plan.results_target.empty()) plan.results_target = fs::absolute(plan.results_target);
}

/// The whole command: plugins, parse, plan, execute.
int run(int argc, char** argv) {
    std::error_code ec;
    const fs::path started_in = fs::current_path(ec);
    load_plugins(argc, argv);
    if (std::error_code now_ec; !ec && fs::current_path(now_ec) != started_in) {
        // A plugin's constructor changed it: relative paths mean the user's directory.
        note("iobench: warning: a plugin changed the working directory to {}; back to {}\n",
             fs::current_path(now_ec).string(), started_in.string());
        fs::current_path(started_in, now_ec);
        if (now_ec)
            throw usage_error(fmt::format("a plugin changed the working directory, and iobench cannot go back to "
                                          "{}: {}",
                                          started_in.string(), now_ec.message()));
    }
    CommandLine cl;
    if (const auto help = iobench::parse_command_line(argc, argv, cl)) return print_or_fail(*help);
    Plan plan;
    if (const auto done = make_plan(cl, plan)) return *done;
    fix_paths(cl, plan);
    if (plan.instructions) {
        if (const auto status = start_counting_instructions(*plan.instructions, argc, argv)) return *status;
    }
    return execute(cl, plan, argv[0]);
}

}  // namespace

int main(int argc, char** argv) {
    // A console workload's child process, before anything else (Windows:
    // iobench starts itself again for each measured call of a console workload).
    if (const auto status = iobench::console_child_main(argc, argv)) return *status;
    // Before anything is opened: a closed descriptor 0-2 would otherwise be
    // taken by the next file (the results, an input) and mixed with a stream.
    iobench::ensure_standard_descriptors();
    iobench::install_interrupt_cleanup();
    int status = exit_failed;
    try {
        status = run(argc, argv);
    } catch (const usage_error& e) {
        note("iobench: error: {}\n", e.what());
        status = exit_usage;
    } catch (const std::exception& e) {
        note("iobench: error: {}\n", e.what());
        status = exit_failed;
    }
    // Under --instructions' valgrind: the iobench waiting for it learns that
    // the run ended, and how, not valgrind alone.
    iobench::record_exit_status(status);
    return status;
}
