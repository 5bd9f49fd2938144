// iobench: the command line. Parses iobench's own options (CLI11), hands every
// --benchmark_* flag to Google Benchmark, runs the selected suite and writes the
// results file atomically.
//
// Exit status: 0 all benchmarks verified; 1 a benchmark failed (its row says
// why); 2 bad input (unknown flag, bad value, missing or read-only directory,
// bad suite); 128+N interrupted by signal N (generated files removed).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <regex>
#include <string>
#include <system_error>
#include <vector>

#include "core/cleanup.hpp"
#include "core/environment.hpp"
#include "core/report.hpp"
#include "core/runner.hpp"
#include "core/session.hpp"
#include "core/suite.hpp"
#include "iobench/build_info.hpp"

#ifdef _WIN32
#include <io.h>
#define IOBENCH_ISATTY(fd) _isatty(fd)
#else
#include <unistd.h>
#define IOBENCH_ISATTY(fd) isatty(fd)
#endif

namespace fs = std::filesystem;

namespace {

constexpr int exit_failed = 1;
constexpr int exit_usage = 2;

/// A bad command line or environment: printed as one line, exit status 2.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Throws usage_error unless `dir` is an existing directory we can create files in.
void check_writable_dir(const fs::path& dir, const char* option) {
    std::error_code ec;
    if (!fs::exists(dir, ec)) throw usage_error(fmt::format("{} {}: no such directory", option, dir.string()));
    if (!fs::is_directory(dir, ec)) throw usage_error(fmt::format("{} {}: not a directory", option, dir.string()));
    const fs::path probe = dir / fmt::format(".iobench-probe-{}", std::random_device{}());
    {
        std::ofstream f(probe);
        if (!f) throw usage_error(fmt::format("{} {}: cannot create files there", option, dir.string()));
    }
    fs::remove(probe, ec);
}

/// Creates a fresh directory under the system's temporary directory.
fs::path make_temp_dir() {
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    if (ec) throw usage_error(fmt::format("no temporary directory ({}); give --dir", ec.message()));
    std::random_device rd;
    for (int attempt = 0; attempt < 100; ++attempt) {
        fs::path dir = base / fmt::format("iobench-{:08x}", rd());
        if (fs::create_directory(dir, ec)) return dir;
    }
    throw usage_error(fmt::format("cannot create a directory in {}; give --dir", base.string()));
}

/// `dir/base.json`, or `dir/base-2.json`, ... : never an existing file.
fs::path unused_results_path(const fs::path& dir, const std::string& base) {
    std::error_code ec;
    fs::path p = dir / (base + ".json");
    for (int n = 2; fs::exists(p, ec); ++n) p = dir / fmt::format("{}-{}.json", base, n);
    return p;
}

/// Google Benchmark's filter semantics (a regular expression searched in the
/// name; a leading '-' negates), applied to our names before registration so
/// that names carry no "/manual_time" and the progress count is exact.
template <class Item>
std::vector<Item> filter_cases(const std::vector<Item>& cases, std::string spec) {
    if (spec.empty() || spec == "all" || spec == ".") return cases;
    bool negate = false;
    if (spec[0] == '-') {
        negate = true;
        spec.erase(0, 1);
    }
    std::regex re;
    try {
        re = std::regex(spec, std::regex::extended);
    } catch (const std::regex_error& e) {
        throw usage_error(fmt::format("--benchmark_filter={}: not a valid regular expression ({})", spec, e.what()));
    }
    std::vector<Item> out;
    for (const auto& c : cases)
        if (std::regex_search(c.name, re) != negate) out.push_back(c);
    return out;
}

/// Parses a size in bytes: a number with an optional binary suffix K, M, G or
/// T (also KiB, MiB, ...; 1K = 1024), e.g. "4096", "512M", "12.85G" (rounded
/// to whole bytes). Throws usage_error naming `option`.
std::uint64_t parse_size(const std::string& text, const char* option) {
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    std::string suffix = text.substr(used);
    for (char& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (suffix.size() > 1 && (suffix.ends_with("IB") || suffix.ends_with("B"))) suffix.resize(1);
    double unit = 0;
    if (suffix.empty() || suffix == "B") unit = 1;
    else if (suffix == "K") unit = 0x1p10;
    else if (suffix == "M") unit = 0x1p20;
    else if (suffix == "G") unit = 0x1p30;
    else if (suffix == "T") unit = 0x1p40;
    const double bytes = value * unit;
    if (used == 0 || unit == 0 || !(bytes >= 1) || bytes > 0x1p62)
        throw usage_error(fmt::format("{} {}: must be a size in bytes, optionally with K, M, G or T (e.g. 512M, 12.85G)",
                                      option, text));
    return static_cast<std::uint64_t>(std::llround(bytes));
}

struct Options {
    bool list = false;
    std::string suite;
    std::optional<std::string> dir;
    std::optional<double> scale;
    bool keep_files = false;
    std::optional<std::string> results_dir;
    std::optional<std::string> stdout_target;
    std::optional<std::string> file_size;
};

int run(int argc, char** argv) {
    // Google Benchmark's flags go to it; everything else is ours.
    std::vector<std::string> ours = {argv[0]};
    std::vector<std::string> harness;
    std::string filter;
    std::optional<std::string> out_file;
    std::string out_format = "json";
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--benchmark_", 0) != 0) {
            ours.push_back(a);
        } else if (a.rfind("--benchmark_filter=", 0) == 0) {
            filter = a.substr(19);
        } else if (a.rfind("--benchmark_out=", 0) == 0) {
            out_file = a.substr(16);
        } else {
            if (a.rfind("--benchmark_out_format=", 0) == 0) out_format = a.substr(23);
            harness.push_back(a);
        }
    }

    Options opt;
    CLI::App app{"iobench: measures I/O methods (stdio, iostreams, POSIX, obuf, ...) on verified workloads.\n"};
    app.set_help_flag("-h,--help", "print this help and exit");
    app.add_flag("--list", opt.list, "print the benchmark names of the suite, one per line, and exit");
    app.add_option("--suite", opt.suite,
                   "suite to run: a built-in name (" + fmt::format("{}", fmt::join(iobench::builtin_suites(), ", ")) +
                       ") or a path to a suite .json; default: every workload x method pair");
    app.add_option("--dir", opt.dir, "directory for generated inputs and outputs (must exist); default: a fresh temporary directory, removed afterwards");
    app.add_option("--scale", opt.scale, "multiply every workload's count by F (e.g. 0.01 for a quick run); F > 0")
        ->type_name("F");
    app.add_flag("--keep-files", opt.keep_files, "keep generated inputs (and the temporary --dir)");
    app.add_option("--results-dir", opt.results_dir,
                   "write the JSON results to DIR/<compiler>-<version>-<date>.json (created if missing; never overwrites)")
        ->type_name("DIR");
    app.add_option("--stdout-target", opt.stdout_target,
                   "where standard output goes while a console workload is measured: devnull (default), file "
                   "(a file in --dir, verified) or pipe (drained and verified by a reader thread)")
        ->type_name("devnull|file|pipe");
    app.add_option("--file-size", opt.file_size,
                   "size of the file the file_read workload reads, e.g. 512M, 1G, 12.85G (K/M/G/T = 2^10/2^20/...); "
                   "default: 1 GiB times --scale")
        ->type_name("BYTES");
    app.footer(
        "Google Benchmark flags pass through, e.g. --benchmark_filter=REGEX, --benchmark_out=FILE,\n"
        "--benchmark_out_format=json, --benchmark_repetitions=N, --benchmark_min_time=SECONDS.\n"
        "Exit status: 0 all verified, 1 a benchmark failed, 2 bad input, 128+N interrupted by signal N.");

    std::vector<const char*> our_argv;
    for (const auto& s : ours) our_argv.push_back(s.c_str());
    try {
        app.parse(static_cast<int>(our_argv.size()), our_argv.data());
    } catch (const CLI::CallForHelp&) {
        std::fputs(app.help().c_str(), stdout);
        return 0;
    } catch (const CLI::ParseError& e) {
        throw usage_error(e.what());
    }

    iobench::Suite suite;
    try {
        suite = opt.suite.empty() ? iobench::all_pairs() : iobench::load_suite(opt.suite);
    } catch (const iobench::suite_error& e) {
        throw usage_error(e.what());
    }
    const std::vector<iobench::Case> cases = filter_cases(suite.cases, filter);
    const std::vector<iobench::Skipped> skipped = filter_cases(suite.skipped, filter);
    if (cases.empty()) throw usage_error(fmt::format("no benchmark matches --benchmark_filter={}", filter));

    if (opt.list) {
        for (const auto& c : cases) fmt::print("{}\n", c.name);
        for (const auto& s : skipped) fmt::print("# {}: skipped, {}\n", s.name, s.reason);
        return 0;
    }

    iobench::StdoutTarget stdout_target = suite.stdout_target.value_or(iobench::StdoutTarget::devnull);
    if (opt.stdout_target) {
        const auto t = iobench::parse_stdout_target(*opt.stdout_target);
        if (!t) throw usage_error(fmt::format("--stdout-target {}: must be devnull, file or pipe", *opt.stdout_target));
        stdout_target = *t;
    }

    const double scale = opt.scale.value_or(suite.scale.value_or(1.0));
    if (!(scale > 0)) throw usage_error(fmt::format("--scale {}: must be a positive number", scale));
    const std::uint64_t file_size = opt.file_size ? parse_size(*opt.file_size, "--file-size") : 0;  // 0: default
    if (opt.dir) check_writable_dir(*opt.dir, "--dir");
    if (opt.results_dir && out_file) throw usage_error("give either --results-dir or --benchmark_out, not both");
    if (opt.results_dir) {
        std::error_code ec;
        fs::create_directories(*opt.results_dir, ec);
        check_writable_dir(*opt.results_dir, "--results-dir");
        out_file = unused_results_path(*opt.results_dir, iobench::results_basename()).string();
    }

    // The harness writes the results to a temporary name, renamed when the run ends.
    std::string partial;
    std::vector<std::string> gb_args = {argv[0]};
    if (suite.repetitions) gb_args.push_back(fmt::format("--benchmark_repetitions={}", *suite.repetitions));
    if (suite.min_time) gb_args.push_back(fmt::format("--benchmark_min_time={}", *suite.min_time));
    gb_args.push_back("--benchmark_display_aggregates_only=true");
    gb_args.insert(gb_args.end(), harness.begin(), harness.end());
    if (out_file) {
        partial = *out_file + ".partial";
        gb_args.push_back("--benchmark_out=" + partial);
    }
    std::vector<char*> gb_argv;
    for (auto& s : gb_args) gb_argv.push_back(s.data());
    int gb_argc = static_cast<int>(gb_argv.size());
    benchmark::Initialize(&gb_argc, gb_argv.data());
    if (benchmark::ReportUnrecognizedArguments(gb_argc, gb_argv.data())) return exit_usage;

    const bool own_dir = !opt.dir;
    const fs::path dir = own_dir ? make_temp_dir() : fs::path(*opt.dir);
    iobench::Session session(dir, scale, opt.keep_files, own_dir);
    session.set_stdout_target(stdout_target);
    if (file_size != 0) session.set_file_size(file_size);
    if (!partial.empty()) iobench::remove_on_interrupt(partial);

    std::vector<std::pair<std::string, std::string>> skipped_pairs;
    for (const auto& s : skipped) skipped_pairs.emplace_back(s.name, s.reason);
    for (const auto& [key, value] : iobench::describe_environment(dir)) benchmark::AddCustomContext(key, value);
    benchmark::AddCustomContext("suite", suite.name);
    benchmark::AddCustomContext("scale", fmt::format("{}", scale));
    benchmark::AddCustomContext("stdout_target", std::string(iobench::to_string(stdout_target)));
    benchmark::AddCustomContext("file_size", std::to_string(session.file_size()));
    benchmark::AddCustomContext("skipped", iobench::skipped_context(skipped_pairs));
    iobench::register_benchmarks(cases, session);

    iobench::SummaryConsoleReporter display(
        IOBENCH_ISATTY(1) ? benchmark::ConsoleReporter::OO_ColorTabular : benchmark::ConsoleReporter::OO_Tabular);
    display.set_skipped(skipped_pairs);
    iobench::NamedJSONReporter json_file;
    fmt::print(stderr, "iobench: {} benchmark(s), scale {}, files in {} ({})\n", cases.size(), scale, dir.string(),
               iobench::filesystem_type(dir));
    std::fflush(stderr);
    benchmark::RunSpecifiedBenchmarks(&display, out_file && out_format == "json" ? &json_file : nullptr);
    benchmark::Shutdown();

    const int failed = iobench::failed_benchmarks();
    if (out_file) {
        // A failed run never replaces earlier results: it goes next to them.
        fs::path target = *out_file;
        std::error_code ec;
        if (failed > 0 && fs::exists(target, ec)) target += ".failed";
        fs::rename(partial, target, ec);
        iobench::forget_on_interrupt(partial);
        if (ec) {
            fmt::print(stderr, "iobench: cannot write {}: {}\n", target.string(), ec.message());
            return exit_failed;
        }
        fmt::print(stderr, "iobench: results written to {}\n", target.string());
    }
    if (failed > 0) {
        fmt::print(stderr, "iobench: {} benchmark(s) failed\n", failed);
        return exit_failed;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    iobench::install_interrupt_cleanup();
    try {
        return run(argc, argv);
    } catch (const usage_error& e) {
        fmt::print(stderr, "iobench: error: {}\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        fmt::print(stderr, "iobench: error: {}\n", e.what());
        return exit_failed;
    }
}
