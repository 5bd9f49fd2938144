#include "app/command_line.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/os/usage_error.hpp"

namespace iobench {

namespace {

/// Declares iobench's own options on `app`, stored into `opt`, and the help
/// text's footer (Google Benchmark's flags, exit statuses).
void add_options(CLI::App& app, Options& opt) {
    app.set_help_flag("-h,--help", "print this help and exit");
    app.add_flag("--list", opt.list, "print the benchmark names of the suite, one per line, and exit");
    app.add_option("--format", opt.list_format,
                   "what --list prints: names (default) or md, a Markdown table of every method (family, call, "
                   "operations, availability here) whatever the suite: docs/methods.md")
        ->type_name("names|md");
    app.add_option("--suite", opt.suite,
                   "suite to run: a built-in name (" + fmt::format("{}", fmt::join(builtin_suites(), ", ")) +
                       ") or a path to a suite .json; default: every workload x method pair");
    app.add_option("--dir", opt.dir,
                   "directory for generated inputs and outputs (must exist); the run works in a subdirectory "
                   "iobench-<pid>-<id> of its own, removed afterwards; default: the system's temporary directory");
    app.add_option("--scale", opt.scale, "multiply every workload's count by F (e.g. 0.01 for a quick run); F > 0")
        ->type_name("F");
    app.add_flag("--keep-files", opt.keep_files, "keep the working directory with the generated inputs");
    app.add_option("--results-dir", opt.results_dir,
                   "write the JSON results to DIR/<compiler>-<version>-<date>.json (created if missing; never "
                   "overwrites: -2, -3, ... are added)")
        ->type_name("DIR");
    app.add_option("--stdout-target", opt.stdout_target,
                   "where standard output goes while a console workload is measured: devnull (default), file "
                   "(a file in --dir, verified) or pipe (drained and verified by a reader thread)")
        ->type_name("devnull|file|pipe");
    app.add_option("--file-size", opt.file_size,
                   "size of the file the file_read workload reads, e.g. 512M, 1G, 12.85G (K/M/G/T = 2^10/2^20/...); "
                   "default: 1 GiB times --scale; refused when it does not fit in --dir")
        ->type_name("BYTES");
    app.add_option("--time-limit", opt.time_limit,
                   "seconds a program method's process (Go, Rust, Java, Python, Node.js) may take to start or to "
                   "answer one run; beyond it its process group is killed and its row fails (default " +
                       fmt::format("{}", Session::default_time_limit) +
                       "): docs/external-methods.md; an in-process method's call past it ends the run, the rows "
                       "before it kept")
        ->type_name("SECONDS");
    app.add_option("--plugin", opt.plugin,
                   "load the method families of a plugin built with iobench_add_plugin(); give --plugin once per "
                   "plugin (loaded before anything else, so --list, suites and filters see them): docs/plugins.md")
        ->type_name("PATH")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.add_option("--instructions", opt.instructions,
                   "count each row's user-space instructions per item of the measured calls (reproducible to about "
                   "5 significant digits): with the CPU's counter (perf_event_open) where the kernel gives one, else "
                   "by running under valgrind's callgrind (~50x slower: times are then not the figure); "
                   "--instructions=perf or =valgrind chooses; one repetition of one run, in the suite's order, "
                   "unless --benchmark_* flags say otherwise")
        ->expected(0, 1)
        ->type_name("[=perf|valgrind]");
    app.add_option("--baseline-method", opt.baseline_method,
                   "compare every row with a method's: a column 'x baseline' in each table, the row's time / the "
                   "time of that method's row with the same parameters, else of its row without any (as "
                   "iobench-compare --baseline-method); with several methods, the first that has such a row")
        ->type_name("METHOD[,METHOD...]")
        ->expected(1)
        ->take_all();  // the option repeated adds fallbacks, as a comma-separated list does
    app.add_option("--latency-clock", opt.latency_clock,
                   "the clock that times each call of the per-call rows (/threads:<n>): rdtsc, rdtscp, lfence_rdtsc, "
                   "monotonic, monotonic_raw (Linux), qpc (Windows), steady_clock, or none (the calls untimed: "
                   "no percentiles, the wall time of an untimed call loop); default: each is measured at start "
                   "and the cheapest to read with a resolution of at most 100 ns is used (the context's "
                   "latency_clock says which, with its figures)")
        ->type_name("NAME");
    app.add_option("--cpus", opt.cpus,
                   "pin the run and every thread it starts to these CPUs (sched_setaffinity, "
                   "SetProcessAffinityMask), as fio's cpus_allowed does: numbers and ranges, e.g. 0,1 or 0-3; the "
                   "context's cpus says which, and which were allowed before")
        ->type_name("LIST");
    app.add_flag("--no-interleave", opt.no_interleave,
                 "run the repetitions of each benchmark back to back (default: interleaved in random order, "
                 "--benchmark_enable_random_interleaving=true)");
    app.footer(harness_flags_help() +
               "Exit status: 0 all verified, 1 a benchmark failed or the results could not be written, 2 bad input,\n"
               "128+N interrupted by signal N.");
}

}  // namespace

std::optional<std::string> parse_command_line(int argc, char** argv, CommandLine& cl) {
    // Google Benchmark's flags are checked here and go to it; everything else is ours.
    std::vector<std::string> ours = {argv[0]};
    std::vector<std::string> harness_args;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        (a.rfind("--benchmark_", 0) == 0 ? harness_args : ours).push_back(std::move(a));
    }
    cl.harness = check_harness_flags(harness_args);

    Options& opt = cl.opt;
    CLI::App app{"iobench: measures I/O methods (stdio, iostreams, POSIX, obuf, ...) on verified workloads.\n"};
    add_options(app, opt);

    std::vector<const char*> our_argv;
    for (const auto& s : ours) our_argv.push_back(s.c_str());
    try {
        app.parse(static_cast<int>(our_argv.size()), our_argv.data());
    } catch (const CLI::CallForHelp&) {
        return app.help();
    } catch (const CLI::ExtrasError&) {
        // CLI11 lists them last first: name them in the order given.
        std::vector<std::string> extras = app.remaining();
        std::vector<std::string> in_order;
        for (std::size_t i = 1; i < ours.size(); ++i) {
            const auto it = std::find(extras.begin(), extras.end(), ours[i]);
            if (it == extras.end()) continue;
            in_order.push_back(ours[i]);
            extras.erase(it);
        }
        in_order.insert(in_order.end(), extras.begin(), extras.end());
        throw usage_error(fmt::format("{} not expected: {}",
                                      in_order.size() == 1 ? "this argument was" : "these arguments were",
                                      fmt::join(in_order, " ")));
    } catch (const CLI::ParseError& e) {
        throw usage_error(e.what());
    }
    // CLI11 leaves an optional value unset when it is given as "": an empty
    // value is a bad one, not a missing option.
    for (auto [name, value] : {std::pair{"--scale", &opt.scale}, std::pair{"--file-size", &opt.file_size},
                               std::pair{"--results-dir", &opt.results_dir}, std::pair{"--dir", &opt.dir}}) {
        if (app.count(name) > 0 && !*value) *value = "";
    }
    // --instructions takes an optional value; "--instructions=" is a value left out by mistake.
    opt.instructions_given = app.count("--instructions") > 0;
    if (std::find(ours.begin(), ours.end(), "--instructions=") != ours.end())
        throw usage_error("--instructions=: give perf or valgrind after '=', or no '=' for the best there is");
    if (!opt.instructions.empty() && opt.instructions != "perf" && opt.instructions != "valgrind")
        throw usage_error(fmt::format("--instructions={}: must be perf or valgrind", opt.instructions));
    if (opt.no_interleave && cl.harness.interleave)
        throw usage_error("give either --no-interleave or --benchmark_enable_random_interleaving, not both");
    if (opt.list_format && !opt.list) throw usage_error("--format goes with --list only");
    return std::nullopt;
}

}  // namespace iobench
