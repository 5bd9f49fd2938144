// Program methods (docs/external-methods.md) run by the small POSIX sh programs
// of tests/programs/, linked only into the tests: one that follows the
// protocol and one for each way a program can misbehave (wrong bytes, a
// status other than 0, no or malformed time, a hang, ...). Family zz_broken,
// so that the tests of every pair leave them out (tests/core/engine/pairs_test.cpp);
// tests/core/programs/program_test.cpp runs them.
#include <string>

#include <iobench/method.hpp>

namespace iobench {
namespace {

/// The command that runs tests/programs/<name>.sh with /bin/sh.
ProgramCommand script(const char* name) {
    return {{"/bin/sh"}, std::string(IOBENCH_TEST_PROGRAMS_DIR) + "/" + name + ".sh"};
}

#ifdef _WIN32
constexpr const char* posix_only = "POSIX only: the tests' programs are sh scripts";
#else
constexpr const char* posix_only = "";
#endif

const MethodRegistrar registrar{{.family = "zz_broken", .unavailable = posix_only}, {
    {.name = "program_well_behaved", .description = "test: a program that follows the protocol",
     .put_ints = by_program, .put_repeat = by_program, .get_ints = by_program, .program = script("well_behaved")},
    {.name = "program_wrong_bytes", .description = "test: a program that writes one byte too many",
     .put_repeat = by_program, .program = script("wrong_bytes")},
    {.name = "program_exits_nonzero", .description = "test: a program that exits with status 3 instead of answering",
     .put_repeat = by_program, .program = script("exits_nonzero")},
    {.name = "program_no_timing", .description = "test: a program that exits without answering a run",
     .put_repeat = by_program, .program = script("no_timing")},
    {.name = "program_malformed_timing", .description = "test: a program that answers a run with \"12 ms\"",
     .put_repeat = by_program, .program = script("malformed_timing")},
    {.name = "program_slow_clock", .description = "test: a program that reports 10 s for a short run",
     .put_repeat = by_program, .program = script("slow_clock")},
    {.name = "program_fast_clock", .description = "test: a program that reports 1 ns for every run",
     .put_repeat = by_program, .program = script("fast_clock")},
    {.name = "program_fast_clock_light",
     .description = "test: a program that reports 1 ns for every run, its lines written by a child, one write each",
     .put_repeat = by_program, .program = script("fast_clock_light")},
    {.name = "program_hangs", .description = "test: a program that never finishes its first run",
     .put_repeat = by_program, .program = script("hangs")},
    {.name = "program_never_ready", .description = "test: a program that never says ready",
     .put_repeat = by_program, .program = script("never_ready")},
    {.name = "program_exits_nonzero_at_end", .description = "test: a program that exits with status 1 at the end",
     .put_repeat = by_program, .program = script("exits_nonzero_at_end")},
    {.name = "program_wrong_values", .description = "test: a program that reports one value fewer than it parsed",
     .get_ints = by_program, .program = script("wrong_values")},
    {.name = "program_long_line", .description = "test: a program that answers a run with a line that never ends",
     .put_repeat = by_program, .program = script("long_line")},
    {.name = "program_garbage_start", .description = "test: a program that begins with \"hello\", then stays",
     .put_repeat = by_program, .program = script("garbage_start")},
    {.name = "program_escapes", .description = "test: a program that leaves a process in a session of its own",
     .put_repeat = by_program, .program = script("escapes")},
    {.name = "program_missing", .description = "test: a program that was not built",
     .put_repeat = by_program, .program = script("no_such_program")},
}};

}  // namespace
}  // namespace iobench
