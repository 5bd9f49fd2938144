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
#include <csignal>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <iobench/error.hpp>
#include <iobench/method.hpp>  // IOBENCH_VERSION_MAJOR (iobench/plugin.hpp)
#include "app/command_line.hpp"
#include "app/diagnostics.hpp"
#include "app/options.hpp"
#include "app/plan.hpp"
#include "core/engine/run_guard.hpp"
#include "core/engine/runner.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/measure/latency.hpp"
#include "core/os/cleanup.hpp"
#include "core/os/cpu_affinity.hpp"
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
#include "core/report/run_context.hpp"
#include "core/report/results_file.hpp"
#include "generated/build_info.hpp"
#include "workloads/console_trial.hpp"

#ifdef _WIN32
#include <io.h>
#define IOBENCH_ISATTY(fd) _isatty(fd)
#else
#include <unistd.h>
#define IOBENCH_ISATTY(fd) isatty(fd)
#endif

namespace fs = std::filesystem;

namespace {

using iobench::CommandLine;
using iobench::Options;
using iobench::usage_error;
using iobench::app::exit_failed;
using iobench::app::exit_usage;
using iobench::app::note;
using iobench::app::Plan;
using iobench::app::print_or_fail;

/// Why each plugin of the --suite's "plugins" is not loaded (not built):
/// the suite then lists its methods' cases as skipped with the reason.
iobench::AbsentPlugins absent_suite_plugins;

/// Removes what runs killed earlier left in `dir`, saying so on stderr (and,
/// once, what of another user's it left alone).
void remove_stale(const fs::path& dir) {
    std::vector<fs::path> others;
    for (const auto& e : iobench::remove_stale(dir, &others))
        note("iobench: removed {}, left by process {} that no longer runs\n", e.path.string(), e.pid);
    note("{}", iobench::left_alone_note(dir, others));
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

/// What the results file's context says of the run of `plan` (core/report/run_context.hpp),
/// pinned to `pinned`. Chooses the per-call clock first where a row is per-call (every
/// candidate measured, some 15 ms each), before any trial is made.
iobench::RunFacts run_facts(const Plan& plan, const std::string& pinned) {
    if (std::any_of(plan.cases.begin(), plan.cases.end(), [](const iobench::Case& c) { return c.params.threads > 0; }))
        iobench::select_call_clock(plan.latency_clock);
    std::string valgrind;
    if (plan.instructions && iobench::instruction_counter().source() == iobench::InstructionSource::valgrind) {
        const iobench::TrustedFile file = valgrind_file();
        valgrind = fmt::format("{} (owner {})", file.path().string(), file.owner());
    }
    return {plan.suite.name, plan.scale, plan.cases, plan.skipped, plan.interleave, pinned, plan.programs,
            plan.stopping_rule, plan.repetitions, plan.instructions.has_value(), valgrind};
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
    std::map<std::string, std::string> context = iobench::run_context(run_facts(plan, pinned), session, dir, page_cost);
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
        const iobench::RunGuard guard(
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

/// `text` as one line of a message: at most `limit` bytes ("..." after a cut),
/// each control character shown as '?' (a '\r' at its end dropped).
std::string printable_line(std::string text, std::size_t limit) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.size() > limit) text = text.substr(0, limit) + "...";
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return text;
}

/// Loads the plugins the --suite names ("plugins": the `loggers` suite's),
/// each from beside the executable: <its directory>/plugins/ (a build tree,
/// where the `loggers` target puts them), else <its directory>/../lib/iobench/plugins/
/// (an installed tree); the file is <name>.so, or <name>.dll on Windows. A
/// plugin found nowhere is recorded in absent_suite_plugins with the reason
/// the build wrote beside where it would be (<name>.not-built, one line:
/// the configuration could not build it), else with the build command; one found is loaded as
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
    std::error_code ec;
    const fs::path dir = iobench::executable_path().parent_path();
#ifdef _WIN32
    constexpr const char* suffix = ".dll";
#else
    constexpr const char* suffix = ".so";
#endif
    for (const iobench::SuitePlugin& p : plugins) {
        const std::string name = p.file + suffix;
        fs::path found;
        for (const fs::path& candidate : {dir / "plugins" / name, dir / ".." / "lib" / "iobench" / "plugins" / name})
            if (!dir.empty() && fs::is_regular_file(candidate, ec)) {
                found = candidate.lexically_normal();
                break;
            }
        if (found.empty()) {
            // The build's reason, where it wrote one (loggers/CMakeLists.txt:
            // <plugin>.not-built, one line), else the build command.
            std::string reason;
            if (!dir.empty())
                if (std::ifstream why(dir / "plugins" / (p.file + ".not-built")); std::getline(why, reason))
                    reason = printable_line(reason, 400);
            absent_suite_plugins.emplace_back(
                p.file, !reason.empty() ? reason
                                        : fmt::format("not built: no {} in {} (cmake --build <build dir> --target "
                                                      "loggers)",
                                                      name,
                                                      dir.empty() ? "the executable's directory"
                                                                  : (dir / "plugins").string()));
            continue;
        }
        const fs::path real = fs::canonical(found, ec);
        bool loaded = false;
        for (const iobench::LoadedPlugin& l : iobench::loaded_plugins())
            if (!ec && fs::path(l.path) == real) loaded = true;
        if (!loaded) load_one_plugin(found.string());
    }
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
    if (const auto done = iobench::app::make_plan(cl, absent_suite_plugins, plan)) return *done;
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
