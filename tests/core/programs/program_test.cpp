// Program methods (docs/external-methods.md): what a program that follows the
// protocol reports, what each misbehaving one of tests/programs/ turns into (a
// failed row with the reason, every other row kept), and the real programs of
// methods/<language>/ against the registry (tests/core/engine/pairs_test.cpp runs every
// one of their pairs).
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/engine/outcome.hpp"
#include "core/engine/runner.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/programs/program.hpp"
#include "core/programs/program_trial.hpp"
#include "core/report/report.hpp"
#include "runner_support.hpp"
#include "test_dir.hpp"

#ifndef _WIN32
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#endif
#ifdef __linux__
#include <sys/prctl.h>

#include <cerrno>
#include <cstring>
#endif

namespace iobench {
namespace {

Case make_case(const char* workload, const char* method) {
    const Workload* w = find_workload(workload);
    const Method* m = find_method(method);
    EXPECT_NE(w, nullptr) << workload;
    EXPECT_NE(m, nullptr) << method;
    return {w, m, {}, case_name(*w, *m, {})};
}

/// One run of `workload`/`method` (at scale 1e-4: hello 10,000 lines, ints
/// 1,000) through the runner's stages, with a time limit of `time_limit`
/// seconds, in `dir`.
Outcome run_program_once(const char* workload, const char* method, const test::TempDir& dir,
                         double time_limit = Session::default_time_limit) {
    Session session(dir.path(), 1e-4, false);
    session.set_time_limit(time_limit);
    return run_once(make_case(workload, method), session);
}

/// The reason of the failed row of one run of `workload`/`method` (the test
/// fails unless the row failed), with a time limit of `time_limit` seconds.
std::string failure_of(const char* workload, const char* method, double time_limit = Session::default_time_limit) {
    test::TempDir dir;
    const Outcome o = run_program_once(workload, method, dir, time_limit);
    EXPECT_EQ(o.status, Status::failed) << o.reason;
    return o.reason;
}

/// Skips the test where the tests' sh programs cannot run.
#define SKIP_WITHOUT_SH()                                                                    \
    do {                                                                                     \
        if (!find_method("program_well_behaved")->unavailable.empty())                      \
            GTEST_SKIP() << find_method("program_well_behaved")->unavailable;                 \
    } while (0)


const benchmark::BenchmarkReporter::Run* row_of(const test::Ran& ran, const std::string& name) {
    for (const auto& r : ran.runs)
        if (r.run_name.function_name == name) return &r;
    return nullptr;
}

TEST(ProgramChecksum, IsTheWeightedSumOfTheValuesModulo2To64) {
    std::vector<std::uint64_t> values;
    for (std::uint64_t i = 0; i < 1000; ++i) values.push_back(i);
    EXPECT_EQ(program_checksum(values), 333'333'000u);  // the sum of (i+1) x i for i < 1000
    EXPECT_EQ(program_checksum_of_sequence(1000), 333'333'000u);
    EXPECT_EQ(program_checksum({5, 7}), 5u + 2u * 7u);
    // Modulo 2^64: for 10M values the sum, 333,333,333,333,330,000,000, is
    // beyond 2^64 (Go, Rust and Java wrap alike; Python masks): its remainder
    // is that less 18 x 2^64.
    EXPECT_EQ(program_checksum_of_sequence(10'000'000), 1'291'940'006'558'070'912u);
}

TEST(ProgramMethods, AWellBehavedProgramsRunsAreVerifiedAndCountedAsItsOwn) {
    SKIP_WITHOUT_SH();
    test::TempDir times_dir;
    const std::string times = (times_dir.path() / "times").string();
#ifndef _WIN32
    ::setenv("IOBENCH_TEST_TIMES", times.c_str(), 1);
#endif
    const test::Ran ran = test::run_all(
        {make_case("hello", "program_well_behaved"), make_case("ints_in", "program_well_behaved")}, 1e-4, 1, 60);
#ifndef _WIN32
    ::unsetenv("IOBENCH_TEST_TIMES");
#endif
    // What the program said of each run, by operation, in order.
    std::map<std::string, std::vector<double>> said;
    {
        std::ifstream in(times);
        std::string operation;
        double ns = 0;
        while (in >> operation >> ns) said[operation].push_back(ns * 1e-9);
    }
    for (const char* name : {"hello/program_well_behaved", "ints_in/program_well_behaved"}) {
        const auto* r = row_of(ran, name);
        ASSERT_NE(r, nullptr) << name;
        ASSERT_FALSE(r->error_occurred) << r->error_message;
        for (const char* counter : {"verified", "start_time", "warmup_time"})
            ASSERT_EQ(r->counters.count(counter), 1u) << name << " has no " << counter;
        EXPECT_EQ(r->counters.at("verified").value, 1.0);
        // The program's time: what it reported for the repetition's runs (its
        // last), not the runner's clock.
        const std::vector<double>& own = said[std::string(name).rfind("hello", 0) == 0 ? "put_repeat" : "get_ints"];
        ASSERT_GE(own.size(), static_cast<std::size_t>(r->iterations)) << name;
        double sum = 0;
        for (std::size_t k = own.size() - static_cast<std::size_t>(r->iterations); k < own.size(); ++k) sum += own[k];
        EXPECT_NEAR(r->real_accumulated_time, sum, 1e-9 * sum) << name;
        // What the program counted, and what its process cost.
        EXPECT_GT(r->counters.at("start_time").value, 0) << name;
        EXPECT_GT(r->counters.at("warmup_time").value, 0) << name;
        // The process's CPU time (its rusage): both shares are on the row even
        // when one is a measured 0 (their split follows scheduler ticks), and
        // their sum is not 0 (the kernel keeps it equal to the precise runtime).
        for (const char* counter : {"process_user_time", "process_system_time", "process_max_rss"})
            ASSERT_EQ(r->counters.count(counter), 1u) << name << " has no " << counter;
        EXPECT_GT(r->counters.at("process_user_time").value + r->counters.at("process_system_time").value, 0)
            << name;
        EXPECT_EQ(r->counters.count("context_switches"), 0u) << "unknown for a program, not 0";
    }
    // sh's printf builtin writes each line: 10,000 write calls for 10,000
    // lines, the request and the answer subtracted; and 3 of the clock's:
    // the two date(1) it runs write their time (Linux adds a reaped child's
    // I/O to its parent's /proc/PID/io), and the line of IOBENCH_TEST_TIMES.
    ASSERT_EQ(row_of(ran, "hello/program_well_behaved")->counters.count("write_calls"), 1u);
    ASSERT_EQ(row_of(ran, "ints_in/program_well_behaved")->counters.count("read_calls"), 1u);
    EXPECT_EQ(row_of(ran, "hello/program_well_behaved")->counters.at("write_calls").value, 10'000 + 3);
    EXPECT_GT(row_of(ran, "ints_in/program_well_behaved")->counters.at("read_calls").value, 0);
    EXPECT_EQ(ran.outcomes.failed(), 0);
}

TEST(ProgramMethods, WrongBytesFailTheRow) {
    SKIP_WITHOUT_SH();
    const std::string reason = failure_of("hello", "program_wrong_bytes");
    // 10,000 lines of 12 bytes, one byte more.
    EXPECT_NE(reason.find("the warm-up run did not verify: output differs: 120001 bytes"), std::string::npos)
        << reason;
}

TEST(ProgramMethods, ANonZeroExitFailsTheRowWithTheProgramsLastWords) {
    SKIP_WITHOUT_SH();
    const std::string reason = failure_of("hello", "program_exits_nonzero");
    EXPECT_NE(reason.find("program_exits_nonzero's program (exits_nonzero.sh) exited with status 3 instead of "
                         "answering the warm-up run; its last words: \"tests/programs: cannot open "),
              std::string::npos)
        << reason;
}

TEST(ProgramMethods, NoTimeFailsTheRow) {
    SKIP_WITHOUT_SH();
    const std::string reason = failure_of("hello", "program_no_timing");
    EXPECT_NE(reason.find("exited with status 0 instead of answering the warm-up run"), std::string::npos) << reason;
}

TEST(ProgramMethods, AMalformedTimeFailsTheRow) {
    SKIP_WITHOUT_SH();
    const std::string reason = failure_of("hello", "program_malformed_timing");
    EXPECT_NE(reason.find("answered the warm-up run with \"12 ms\": not its time in nanoseconds"), std::string::npos)
        << reason;
}

TEST(ProgramMethods, ATimeLongerThanTheRunFailsTheRow) {
    SKIP_WITHOUT_SH();
    const std::string reason = failure_of("hello", "program_slow_clock");
    EXPECT_NE(reason.find("reported 10 s for the warm-up run, which took "), std::string::npos) << reason;
    EXPECT_NE(reason.find("from request to answer"), std::string::npos) << reason;
}

TEST(ProgramMethods, ATimeFarShorterThanItsWorkFailsTheRow) {
    SKIP_WITHOUT_SH();
    // 10,000 lines written by sh take milliseconds of its CPU time; 1 ns is claimed.
    const std::string reason = failure_of("hello", "program_fast_clock");
    EXPECT_NE(reason.find("reported 0.001 us for the warm-up run, but used "), std::string::npos) << reason;
    EXPECT_NE(reason.find("of CPU time in the "), std::string::npos) << reason;
}

TEST(ProgramMethods, ATimeShorterThanItsOwnSystemCallsFailsTheRow) {
    SKIP_WITHOUT_SH();
#ifndef __linux__
    GTEST_SKIP() << "a program's system calls are counted on Linux only (/proc/PID/io)";
#endif
    // 10,000 lines, one write(2) each, by a child (awk) of little CPU time:
    // 1 ns claimed, which 10,000 system calls cannot fit in.
    const std::string reason = failure_of("hello", "program_fast_clock_light");
    EXPECT_NE(reason.find("reported 0.001 us for the warm-up run, but made "), std::string::npos) << reason;
    EXPECT_NE(reason.find(" read and write system calls in it, which take at least 20 ns each ("), std::string::npos)
        << reason;
}

TEST(ProgramMethods, WrongValuesFailTheRow) {
    SKIP_WITHOUT_SH();
    const std::string reason = failure_of("ints_in", "program_wrong_values");
    EXPECT_NE(reason.find("parsed values differ: the program reports 999 integers with checksum 333333000, "
                         "expected 1000 with checksum 333333000"),
              std::string::npos)
        << reason;
}

TEST(ProgramMethods, AnExitStatusOtherThanZeroAtTheEndFailsTheRow) {
    SKIP_WITHOUT_SH();
    const std::string reason = failure_of("hello", "program_exits_nonzero_at_end");
    EXPECT_NE(reason.find("exited with status 1 at the end of its requests; its last words: \"tests/programs: "
                         "crashed while closing\""),
              std::string::npos)
        << reason;
}

#ifndef _WIN32
/// True when process `pid` is gone (or a zombie no one has reaped yet: a
/// container's init may not reap).
bool gone(pid_t pid) {
    if (::kill(pid, 0) != 0) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}
#endif

TEST(ProgramMethods, AHangIsKilledWithItsProcessGroupAtTheTimeLimit) {
    SKIP_WITHOUT_SH();
#ifndef _WIN32
    test::TempDir dir;
    const auto start = std::chrono::steady_clock::now();
    const Outcome o = run_program_once("hello", "program_hangs", dir, 1.0);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(o.status, Status::failed);
    EXPECT_NE(o.reason.find("program_hangs's program (hangs.sh) gave no answer to the warm-up run within the time "
                            "limit of 1 s (--time-limit): its process group was killed"),
              std::string::npos)
        << o.reason;
    EXPECT_LT(took, 30.0) << "the sleep of 600 s was not cut short";
    // The program's own child (sleep 600, in its process group) is gone too.
    std::ifstream sleeper(dir.path() / "output-hello-program_hangs.sleeper");
    pid_t pid = 0;
    ASSERT_TRUE(sleeper >> pid) << "hangs.sh left no process id";
    // SIGKILL takes effect at once, but the kernel's teardown of the process
    // on a loaded machine is not bounded: up to 10 s (the wait ends when it is gone).
    for (int i = 0; i < 1000 && !gone(pid); ++i) ::usleep(10'000);
    EXPECT_TRUE(gone(pid)) << "process " << pid << " outlived its group's kill";
#endif
}

TEST(ProgramMethods, AProgramThatNeverSaysReadyIsKilledAtTheTimeLimit) {
    SKIP_WITHOUT_SH();
    const std::string reason = failure_of("hello", "program_never_ready", 1.0);
    EXPECT_NE(reason.find("gave no answer to its start within the time limit of 1 s"), std::string::npos) << reason;
}

// A program that has failed is killed (with its process group) at once, not
// waited for up to the time limit (60 s here): one that writes on without a
// line break, one that begins with something else than "ready" and stays.
TEST(ProgramMethods, AProgramThatFailedIsKilledNotWaitedFor) {
    SKIP_WITHOUT_SH();
    for (const auto& [method, expected] :
         {std::pair{"program_long_line", "wrote more than 1 MiB without a line break (docs/external-methods.md): "
                                         "its process group was killed"},
          std::pair{"program_garbage_start", "began with \"hello\" instead of \"ready\""}}) {
        const auto start = std::chrono::steady_clock::now();
        const std::string reason = failure_of("hello", method, 60.0);
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_NE(reason.find(expected), std::string::npos) << method << ": " << reason;
        EXPECT_LT(took, 30.0) << method << " was waited for after it failed";
    }
}

TEST(ProgramMethods, AFailedProgramIsNotStartedAgainForTheNextRepetitions) {
    SKIP_WITHOUT_SH();
#ifndef _WIN32
    test::TempDir dir;
    const std::string starts = (dir.path() / "starts").string();
    ::setenv("IOBENCH_TEST_STARTS", starts.c_str(), 1);
    const test::Ran ran = test::run_all({make_case("hello", "program_garbage_start")}, 1e-4, 3, 60.0);
    ::unsetenv("IOBENCH_TEST_STARTS");
    std::ifstream in(starts);
    int lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    EXPECT_EQ(lines, 1) << "the program was started again after it failed";
    // Its sizing run, before the repetitions, was its one start.
    int repetitions = 0, not_again = 0;
    for (const auto& r : ran.runs) {
        if (r.run_type != benchmark::BenchmarkReporter::Run::RT_Iteration) continue;
        ++repetitions;
        EXPECT_TRUE(r.error_occurred);
        not_again += r.error_message.rfind("not started again after its sizing run failed: ", 0) == 0;
        EXPECT_NE(r.error_message.find("began with \"hello\" instead of \"ready\""), std::string::npos)
            << r.error_message;
    }
    EXPECT_EQ(repetitions, 3);
    EXPECT_EQ(not_again, 3);
    EXPECT_EQ(ran.outcomes.failed(), 1);
#endif
}

TEST(ProgramMethods, AProcessLeftInASessionOfItsOwnIsKilledAndNamed) {
    SKIP_WITHOUT_SH();
#ifdef __linux__
    // The escaped processes are handed to iobench as their subreaper (core/programs/program.cpp).
    if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        GTEST_SKIP() << "prctl(PR_SET_CHILD_SUBREAPER): " << std::strerror(errno)
                     << " (qemu's user-mode emulator refuses it): a process that leaves the program's group is not "
                        "handed to iobench";
    test::TempDir dir;
    const Outcome o = run_program_once("hello", "program_escapes", dir);
    EXPECT_EQ(o.status, Status::failed) << o.reason;
    EXPECT_NE(o.reason.find("program_escapes's program (escapes.sh) left processes running outside its process "
                            "group (setsid or setpgid): "),
              std::string::npos)
        << o.reason;
    // Named by its command: sleep, or setsid in the moment before it became sleep.
    EXPECT_TRUE(o.reason.find(" (sleep); killed") != std::string::npos ||
                o.reason.find(" (setsid); killed") != std::string::npos)
        << o.reason;
    std::ifstream escaped(dir.path() / "output-hello-program_escapes.escaped");
    pid_t pid = 0;
    ASSERT_TRUE(escaped >> pid) << "escapes.sh left no process id";
    for (int i = 0; i < 1000 && !gone(pid); ++i) ::usleep(10'000);
    EXPECT_TRUE(gone(pid)) << "process " << pid << " in a session of its own outlived its program";
#endif
}

TEST(ProgramMethods, AProgramNotBuiltIsSkippedWithTheReason) {
    SKIP_WITHOUT_SH();
    test::TempDir dir;
    const Outcome o = run_program_once("hello", "program_missing", dir);
    EXPECT_EQ(o.status, Status::skipped);
    EXPECT_NE(o.reason.find("the program "), std::string::npos) << o.reason;
    EXPECT_NE(o.reason.find("no_such_program.sh was not built"), std::string::npos) << o.reason;
}

TEST(ProgramMethods, AFailedProgramRowLeavesEveryOtherRow) {
    SKIP_WITHOUT_SH();
    const test::Ran ran = test::run_all({make_case("hello", "program_hangs"), make_case("hello", "program_well_behaved"),
                                         make_case("hello", "obuf"), make_case("hello", "program_exits_nonzero")},
                                        1e-4, 1, 1.0);
    const auto* hang = row_of(ran, "hello/program_hangs");
    ASSERT_NE(hang, nullptr);
    EXPECT_TRUE(hang->error_occurred);
    EXPECT_NE(hang->error_message.find("within the time limit of 1 s"), std::string::npos) << hang->error_message;
    for (const char* ok : {"hello/program_well_behaved", "hello/obuf"}) {
        const auto* r = row_of(ran, ok);
        ASSERT_NE(r, nullptr) << ok;
        EXPECT_FALSE(r->error_occurred) << ok << ": " << r->error_message;
    }
    EXPECT_EQ(ran.outcomes.failed(), 2);  // iobench's exit status is then 1
}

TEST(ProgramMethods, ResultsSayTheCountersAreTheProgramsOwn) {
    const Case c = make_case("hello", "program_well_behaved");
    EXPECT_TRUE(row_structure(c).program);
    EXPECT_FALSE(row_structure(make_case("hello", "obuf")).program);
}

// --- the real programs of methods/<language>/ ----------------------------

/// What `argv --list` prints, as "METHOD OPERATION" pairs, or std::nullopt when it cannot run.
std::optional<std::set<std::string>> listed(const std::vector<std::string>& argv) {
#ifdef _WIN32
    (void)argv;
    return std::nullopt;
#else
    std::string command;
    for (const std::string& word : argv) command += "'" + word + "' ";
    command += "--list";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return std::nullopt;
    std::string text;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) text.append(buf, n);
    if (::pclose(pipe) != 0) return std::nullopt;
    // "METHOD OPERATION..." per line: one "METHOD OPERATION" per operation.
    std::set<std::string> pairs;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string method, op;
        words >> method;
        while (words >> op) pairs.insert(method + " " + op);
    }
    return pairs;
#endif
}

TEST(ProgramMethods, EveryProgramPerformsExactlyTheOperationsItsFamilyRegisters) {
    int checked = 0;
    for (const char* family : {"go", "rust", "java", "python", "node"}) {
        std::set<std::string> registered;
        const Method* any = nullptr;
        for (const Method& m : methods()) {
            if (m.family != family) continue;
            any = &m;
            for (const OperationField& op : operation_fields())
                if (op.present(m)) registered.insert(m.name + " " + std::string(op.name));
        }
        ASSERT_NE(any, nullptr) << "no family " << family;
        if (!any->unavailable.empty()) {
            std::cout << family << ": " << any->unavailable << '\n';
            continue;
        }
        const auto lines = listed(program_command(any->program));
        ASSERT_TRUE(lines) << family << "'s program did not run with --list";
        EXPECT_EQ(*lines, registered) << family;
        ++checked;
    }
#ifndef _WIN32
    // CI's machines have all five toolchains; a build without one says why above.
    EXPECT_GE(checked, 1) << "no program method was built";
#endif
}

/// The unbuffered methods of each language, on hello: one write(2) per line,
/// with the protocol's own request and answer subtracted exactly.
TEST(ProgramMethods, UnbufferedProgramsMakeOneWriteCallPerLine) {
    std::vector<Case> cases;
    for (const char* method : {"go_File.Write", "rust_File.write_all", "java_FileOutputStream.write", "node_fs.writeSync"})
        if (find_method(method)->unavailable.empty()) cases.push_back(make_case("lines", method));
    if (cases.empty()) GTEST_SKIP() << "no program method built here";
    const test::Ran ran = test::run_all(cases, 1e-4, 1, 120);
    for (const Case& c : cases) {
        const auto* r = row_of(ran, c.name);
        ASSERT_NE(r, nullptr) << c.name;
        ASSERT_FALSE(r->error_occurred) << c.name << ": " << r->error_message;
        EXPECT_EQ(r->counters.at("items").value, 10) << c.name;
        // The JVM's own threads may read a file meanwhile; its writes are the method's.
        EXPECT_EQ(r->counters.at("write_calls").value, 10) << c.name;
    }
}

}  // namespace
}  // namespace iobench
