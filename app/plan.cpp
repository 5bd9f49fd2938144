#include "app/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <system_error>

#include <iobench/method.hpp>
#include "app/diagnostics.hpp"
#include "app/options.hpp"
#include "core/os/cpu_affinity.hpp"
#include "core/os/environment.hpp"
#include "core/os/workdir.hpp"
#include "core/plugins/plugins.hpp"
#include "core/programs/program.hpp"
#include "core/report/method_list.hpp"
#include "core/report/results_file.hpp"

namespace iobench::app {

namespace fs = std::filesystem;

namespace {

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

/// Loads suite `suite_name` (every pair where empty; `absent`: why each of
/// its plugins is not loaded) into `plan` and the cases and skipped
/// benchmarks `filter` selects from it. Throws
/// usage_error for a bad suite, or when nothing selected can run (saying
/// why: skipped here, or matched by nothing).
void select_cases(const std::string& suite_name, const std::string& filter, const AbsentPlugins& absent, Plan& plan) {
    try {
        plan.suite = suite_name.empty() ? iobench::all_pairs() : iobench::load_suite(suite_name, absent);
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
        // Instruction counts do not depend on the clock, nor may how many
        // repetitions run: under valgrind (~50x slower) any budget is spent.
        if (plan.stopping_rule && plan.instructions) plan.stopping_rule->budget_seconds = 0;
    }
}

}  // namespace

std::optional<int> make_plan(const CommandLine& cl, const AbsentPlugins& absent, Plan& plan) {
    const Options& opt = cl.opt;
    const iobench::HarnessFlags& harness = cl.harness;
    plan.interleave = harness.interleave.value_or(!opt.no_interleave);
    const iobench::ListFormat list_format =
        opt.list_format ? iobench::parse_list_format(*opt.list_format) : iobench::ListFormat::names;
    if (opt.list && list_format == iobench::ListFormat::markdown)
        return print_or_fail(iobench::methods_markdown(iobench::methods(), iobench::workloads()));

    select_cases(opt.suite, harness.filter, absent, plan);
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


}  // namespace iobench::app
