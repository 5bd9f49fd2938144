#include "core/programs/program_trial.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <thread>

#include "core/engine/session.hpp"

namespace iobench {

namespace {

using clock_type = std::chrono::steady_clock;

/// The whole of `text` as a decimal integer, or std::nullopt.
std::optional<std::uint64_t> parse_number(std::string_view text) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return v;
}

/// "0.25 s", "12.3 ms", "85 us".
std::string duration_text(double seconds) {
    if (seconds >= 1) return fmt::format("{:.3g} s", seconds);
    if (seconds >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
    return fmt::format("{:.3g} us", seconds * 1e6);
}

/// The least wall time a read or write system call takes, in seconds: 20
/// ns, a fifth of a 1-byte write(2) to /dev/null on a 2-core VM (~95 ns) and
/// below the bare entry and exit of a system call on any current CPU.
constexpr double min_call_seconds = 20e-9;

/// `child` with the machine-wide counters of `machine` added.
OsCounters with_machine(OsCounters child, const OsCounters& machine) {
    for (OsCounter c : {OsCounter::steal_time, OsCounter::cpu_wait}) {
        const auto i = static_cast<unsigned>(c);
        if (!machine.has(c)) continue;
        child.value[i] = machine.value[i];
        child.known |= 1u << i;
    }
    return child;
}

/// Sets `run`'s user_time and system_time from `cpu`, the program's exact
/// CPU time during the run, split as its clock ticks of the run split
/// (/proc/PID/stat: `run` holds their differences), or, in a run shorter
/// than a tick, as the ticks of its whole life so far (`total`) do: the
/// kernel's own way of splitting exact time (cputime_adjust). Without the
/// exact time, or any tick to split it by, both are left unknown: ticks
/// alone are 10 ms steps, too coarse for a run's time.
void split_cpu_time(OsCounters& run, const OsCounters& total, std::optional<double> cpu) {
    const auto user = static_cast<unsigned>(OsCounter::user_time), system = static_cast<unsigned>(OsCounter::system_time);
    const bool ticks = run.has(OsCounter::user_time) && run.has(OsCounter::system_time) &&
                       total.has(OsCounter::user_time) && total.has(OsCounter::system_time);
    run.known &= ~((1u << user) | (1u << system));
    if (!cpu || !ticks) return;
    double u = run.value[user], s = run.value[system];
    if (u + s <= 0) {
        u = total.value[user];
        s = total.value[system];
    }
    if (u + s <= 0) return;
    run.value[user] = *cpu * u / (u + s);
    run.value[system] = *cpu * s / (u + s);
    run.known |= (1u << user) | (1u << system);
}

}  // namespace

std::uint64_t program_checksum(const std::vector<std::uint64_t>& values) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) sum += (static_cast<std::uint64_t>(i) + 1) * values[i];
    return sum;
}

std::uint64_t program_checksum_of_sequence(std::uint64_t count) {
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < count; ++i) sum += (i + 1) * i;
    return sum;
}

ProgramRunner::ProgramRunner(const Method& method, const ProgramCall& call, const std::string& path,
                             std::size_t buffer_size, const Session& session)
    : input_(call.operation == Operation::get_ints), time_limit_(session.time_limit()) {
    argv_ = program_command(method.program);
    name_ = fmt::format("{}'s program ({})", method.name, std::filesystem::path(argv_.back()).filename().string());
    argv_.push_back(method.name);
    argv_.emplace_back(operation_field(call.operation).name);
    argv_.push_back(path);
    argv_.push_back(std::to_string(call.count));
    argv_.push_back(std::to_string(buffer_size));
    argv_.insert(argv_.end(), call.arguments.begin(), call.arguments.end());
}

void ProgramRunner::start() {
    process_ = std::make_unique<ProgramProcess>(name_, argv_, time_limit_);
    // The calls one request and its answer cost the program: the second
    // ping's (the first may set up the reading of requests).
    for (int i = 0; i < 2; ++i) {
        const OsCounters before = process_->counters();
        const std::string answer = process_->ask("ping", "\"ping\"");
        const OsCounters after = process_->counters();
        if (answer != "pong")
            throw program_error(fmt::format("{} answered \"ping\" with \"{}\" instead of \"pong\" (docs/external-methods.md)",
                                            name_, answer.substr(0, 100)));
        protocol_cost_ = OsCounters{};
        for (OsCounter c : {OsCounter::read_calls, OsCounter::write_calls}) {
            if (!before.has(c) || !after.has(c)) continue;
            protocol_cost_.value[static_cast<unsigned>(c)] = after[c] - before[c];
            protocol_cost_.known |= 1u << static_cast<unsigned>(c);
        }
    }
}

double ProgramRunner::ask_run(const std::string& what) {
    const OsCounters machine_before = take_os_snapshot();
    const OsCounters before = process_->counters();
    const std::optional<double> cpu_before = process_->cpu_seconds();
    const auto sent = clock_type::now();
    const std::string answer = process_->ask("run", what);
    const double round_trip = std::chrono::duration<double>(clock_type::now() - sent).count();
    const std::optional<double> cpu_after = process_->cpu_seconds();
    const OsCounters after = process_->counters();
    const OsCounters machine_after = take_os_snapshot();
    const std::optional<std::uint64_t> ns = parse_number(answer);
    if (!ns || *ns == 0)
        throw program_error(fmt::format(
            "{} answered {} with \"{}\": not its time in nanoseconds, a whole number > 0 (docs/external-methods.md)",
            name_, what, answer.substr(0, 100)));
    const double seconds = static_cast<double>(*ns) * 1e-9;
    // Both clocks are monotonic and the run lies between request and answer:
    // a longer time was measured around something else (or in other units).
    if (seconds > round_trip + 50e-6)
        throw program_error(fmt::format("{} reported {} for {}, which took {} from request to answer: its time is not "
                                        "of the run (nanoseconds, monotonic clock, open..close)",
                                        name_, duration_text(seconds), what, duration_text(round_trip)));
    // Nor far shorter: a run of `seconds` cannot have used ten times the CPU
    // time this machine's hardware threads give in it, plus 50 ms (a
    // runtime's JIT and GC threads, the request and the answer), in a round
    // trip a hundred times as long (a program that answers "1" to every
    // run). Both bounds at once: a busy machine lengthens the round trip,
    // not the program's CPU time.
    if (cpu_before && cpu_after) {
        const double cpu = *cpu_after - *cpu_before;
        const double threads = std::max(1u, std::thread::hardware_concurrency());
        if (cpu > 10 * seconds * threads + 50e-3 && seconds * 100 < round_trip)
            throw program_error(fmt::format("{} reported {} for {}, but used {} of CPU time in the {} from request to "
                                            "answer: its time is not of the run (nanoseconds, monotonic clock, "
                                            "open..close)",
                                            name_, duration_text(seconds), what, duration_text(cpu),
                                            duration_text(round_trip)));
    }
    // Nor shorter than its own system calls: every read and write call it
    // made between request and answer (the protocol's own taken off;
    // /proc/PID/io, children it waited for included) costs at least
    // min_call_seconds, whatever CPU time it took (at a small scale a whole
    // run fits in the CPU allowance above).
    if (before.has(OsCounter::write_calls) && after.has(OsCounter::write_calls) &&
        before.has(OsCounter::read_calls) && after.has(OsCounter::read_calls)) {
        double calls = 0;
        for (OsCounter c : {OsCounter::read_calls, OsCounter::write_calls})
            calls += after[c] - before[c] - (protocol_cost_.has(c) ? protocol_cost_[c] : 0.0);
        if (const double floor = calls * min_call_seconds; seconds < floor)
            throw program_error(fmt::format(
                "{} reported {} for {}, but made {:.0f} read and write system calls in it, which take at least {:.0f} ns "
                "each ({} in all): its time is not of the run (nanoseconds, monotonic clock, open..close)",
                name_, duration_text(seconds), what, calls, min_call_seconds * 1e9, duration_text(floor)));
    }
    OsCounters counted;
    counted.known = before.known & after.known;
    for (std::size_t i = 0; i < os_counter_count; ++i) {
        counted.value[i] = after.value[i] - before.value[i];
        if ((protocol_cost_.known >> i) & 1u) counted.value[i] -= protocol_cost_.value[i];
    }
    split_cpu_time(counted, after, cpu_before && cpu_after ? std::optional<double>(*cpu_after - *cpu_before)
                                                           : std::nullopt);
    counters_ = with_machine(counted, machine_wide(os_counters_between(machine_before, machine_after)));
    return seconds;
}

void ProgramRunner::run(Trial& trial) {
    try {
        run_once(trial);
    } catch (...) {
        // A program that broke the protocol may write or hang on: killed
        // now, not waited for up to the time limit.
        if (process_) process_->abandon();
        throw;
    }
}

void ProgramRunner::run_once(Trial& trial) {
    seconds_.reset();
    counters_.reset();
    checked_.reset();
    const auto check = [&](const std::string& what) {
        if (!input_) return;
        const std::string answer = process_->ask("check", what);
        const std::size_t space = answer.find(' ');
        const auto count = parse_number(std::string_view(answer).substr(0, space));
        const auto sum = space == std::string::npos ? std::nullopt
                                                    : parse_number(std::string_view(answer).substr(space + 1));
        if (!count || !sum)
            throw program_error(fmt::format("{} answered {} with \"{}\" instead of \"<count> <checksum>\" "
                                            "(docs/external-methods.md)",
                                            name_, what, answer.substr(0, 100)));
        checked_ = {*count, *sum};
    };
    if (!process_) {
        start();
        warmup_seconds_ = ask_run("the warm-up run");
        check("\"check\" of the warm-up run");
        const std::string mismatch = trial.verify();
        if (!mismatch.empty()) throw program_error(fmt::format("{}: the warm-up run did not verify: {}", name_, mismatch));
        trial.reset();
        checked_.reset();
    }
    ++runs_;
    const double seconds = ask_run(fmt::format("run {}", runs_));
    check(fmt::format("\"check\" of run {}", runs_));
    seconds_ = seconds;
}

void ProgramRunner::finish(std::map<std::string, double>& counters) {
    if (!process_) return;
    problem_ = process_->finish();
    counters["start_time"] = process_->start_seconds();
    if (warmup_seconds_ > 0) counters["warmup_time"] = warmup_seconds_;
    if (const auto& usage = process_->usage()) {
        counters["process_user_time"] = usage->user_time;
        counters["process_system_time"] = usage->system_time;
        counters["process_max_rss"] = usage->max_rss;
    }
    process_.reset();
}

ProgramOutputTrial::ProgramOutputTrial(Session& session, std::string_view workload, const Method& method,
                                       const Params& params, const ExpectedOutput& expected, const ProgramCall& call)
    : OutputTrial(session, workload, method, params, expected),
      runner_(method, call, sink_.path, params.buffer_size, session) {
    work_in_child = true;
}

void ProgramOutputTrial::finish() {
    runner_.finish(counters);
    OutputTrial::finish();
}

ProgramIntsInTrial::ProgramIntsInTrial(Session& session, const std::filesystem::path& file, std::uint64_t file_bytes,
                                       const Method& method, const Params& params, std::uint64_t count)
    : count_(count),
      expected_checksum_(program_checksum_of_sequence(count)),
      runner_(method, ProgramCall{Operation::get_ints, count, {}}, file.string(), params.buffer_size, session) {
    input = true;
    items = count;
    bytes = file_bytes;
    buffer_size = buffer_size_used(method, params);
    work_in_child = true;
}

std::string ProgramIntsInTrial::verify() {
    const auto got = runner_.checked();
    if (!got) return "the program reported no count and checksum";
    if (got->first == count_ && got->second == expected_checksum_) return "";
    return fmt::format("parsed values differ: the program reports {} integers with checksum {}, expected {} with "
                       "checksum {} (the sum of (i+1) x value i, modulo 2^64)",
                       got->first, got->second, count_, expected_checksum_);
}

}  // namespace iobench
