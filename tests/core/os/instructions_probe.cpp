// Checks iobench's instruction counter (core/os/instructions.hpp) for real, in
// a program built without sanitizers (valgrind cannot run them):
//   instructions_probe TMPDIR     runs itself again under valgrind
//                                 (rerun_under_valgrind) with TMPDIR (made
//                                 empty) as the temporary directory, then
//                                 checks that the directory it gave callgrind
//                                 there is gone, that a valgrind planted on
//                                 PATH did not run, and that a valgrind that
//                                 fails is reported as such (valgrind_failed);
//   (under valgrind)              counts known loops with the valgrind source.
// And the perf source: counts where the kernel gives a counter, else refuses
// with the same reason perf_instructions_unavailable() gives. Exit 0 when
// every check holds; otherwise each failed check is printed and it exits 1.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "core/os/instructions.hpp"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (!ok) {
        std::fprintf(stderr, "FAILED: %s\n", what.c_str());
        ++failures;
    }
}

/// Writes an executable shell script `text` to `path`.
void write_script(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path) << text;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

volatile unsigned long sink;

/// Each iteration is a load, an add and a store of `sink`, and the loop's
/// compare and branch: at least 3 instructions.
__attribute__((noinline)) void spin(unsigned long n) {
    for (unsigned long i = 0; i < n; ++i) sink = sink + i;
}

/// One benchmark's count: `inside` iterations counted, `outside` not.
double counted(iobench::InstructionCounter& counter, unsigned long inside, unsigned long outside, bool thread) {
    counter.begin();
    spin(outside);
    counter.start();
    spin(inside);
    if (thread) {
        std::thread t([inside] { spin(inside); });
        t.join();
    }
    counter.stop();
    spin(outside);
    const auto n = counter.take("probe");
    check(n.has_value(), "take() gave a count");
    return n.value_or(-1);
}

void check_counts(iobench::InstructionCounter& counter) {
    constexpr unsigned long n = 1000000;
    counted(counter, n, 0, true);  // warm-up: lazy binding, the thread's first start
    const double a = counted(counter, n, 0, false);
    const double b = counted(counter, n, 0, false);
    const double c = counted(counter, n, 5 * n, false);
    const double two = counted(counter, 2 * n, 0, false);
    const double threaded = counted(counter, n, 0, true);
    std::printf("%s: %.0f, %.0f, %.0f (work outside), %.0f (twice the work), %.0f (and a thread)\n",
                std::string(iobench::to_string(counter.source())).c_str(), a, b, c, two, threaded);
    check(a >= 3.0 * n && a <= 20.0 * n, "1M iterations count 3 to 20 instructions each");
    if (counter.source() == iobench::InstructionSource::valgrind) {
        check(a == b, "the same work counts the same");
        check(a == c, "work outside start()..stop() is not counted");
    } else {  // a hardware counter may skid by a few instructions
        check(b > 0.99 * a && b < 1.01 * a, "the same work counts the same within 1%");
        check(c > 0.99 * a && c < 1.01 * a, "work outside start()..stop() is not counted");
    }
    check(two > 1.9 * a && two < 2.1 * a, "twice the work counts twice");
    check(threaded > 1.9 * a, "a thread started during the call is counted");
}

}  // namespace

int main(int argc, char** argv) {
    if (!iobench::running_under_valgrind()) {
        if (argc != 2) {
            std::fprintf(stderr, "usage: instructions_probe TMPDIR\n");
            return 2;
        }
        std::filesystem::remove_all(argv[1]);
        std::filesystem::create_directories(argv[1]);
        setenv("TMPDIR", argv[1], 1);
        // The perf source: counts, or refuses with the reason.
        const std::string perf_reason = iobench::perf_instructions_unavailable();
        iobench::InstructionCounter perf;
        const std::string enabled = perf.enable(iobench::InstructionSource::perf);
        if (perf_reason.empty()) {
            check(enabled.empty(), "perf: enable() succeeds where perf_event_open does");
            check_counts(perf);
        } else {
            std::printf("perf: refused: %s\n", perf_reason.c_str());
            check(enabled == perf_reason, "perf: enable() gives perf_event_open's reason");
            check(perf.source() == iobench::InstructionSource::none, "perf: nothing chosen");
        }
        iobench::InstructionCounter outside;
        check(!outside.enable(iobench::InstructionSource::valgrind).empty(),
              "valgrind: refused outside valgrind");
        check(iobench::valgrind_unsupported().empty(), "this build can run under valgrind");
        // A "valgrind" planted first on PATH is not the one that runs: the
        // path is the one found at build time.
        const std::filesystem::path planted = std::filesystem::path(argv[1]) / "planted";
        std::filesystem::create_directories(planted);
        write_script(planted / "valgrind", "#!/bin/sh\ntouch " + (planted / "ran").string() + "\nexit 0\n");
        const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
        setenv("PATH", (planted.string() + ":" + path).c_str(), 1);
        const int status = iobench::rerun_under_valgrind(argc, argv, {}, IOBENCH_VALGRIND_PATH);
        setenv("PATH", path.c_str(), 1);
        check(status == 0, "the run under valgrind passed (exit status " + std::to_string(status) + ")");
        check(!std::filesystem::exists(planted / "ran"), "the valgrind planted on PATH did not run");
        std::filesystem::remove_all(planted);
        check(std::filesystem::is_empty(argv[1]), "callgrind's directory in TMPDIR is removed afterwards");
        // A valgrind that ends before the run under it (it cannot start the
        // program, it crashes): a failure saying how, not its status passed on
        // as the run's.
        const std::filesystem::path fake = std::filesystem::path(argv[1]).parent_path() / "failing-valgrind";
        write_script(fake, "#!/bin/sh\necho 'valgrind: cannot start' >&2\nexit 3\n");
        try {
            const int passed_on = iobench::rerun_under_valgrind(argc, argv, {}, fake.string());
            check(false, "a failing valgrind's status was passed on as the run's: " + std::to_string(passed_on));
        } catch (const iobench::valgrind_failed& e) {
            check(std::string(e.what()).find("ended with exit status 3 before the run under it finished") !=
                      std::string::npos,
                  std::string("a failing valgrind is named with its status: ") + e.what());
        }
        std::filesystem::remove(fake);
        check(std::filesystem::is_empty(argv[1]), "callgrind's directory in TMPDIR is removed after a failure too");
        return failures == 0 ? 0 : 1;
    }
    iobench::InstructionCounter& counter = iobench::instruction_counter();
    const std::string enabled = counter.enable(iobench::InstructionSource::valgrind);
    check(enabled.empty(), "valgrind: enable() succeeds under valgrind: " + enabled);
    const char* dumps = std::getenv("IOBENCH_CALLGRIND_DIR");
    const char* tmp = std::getenv("TMPDIR");
    check(dumps != nullptr && tmp != nullptr && std::string(dumps).rfind(tmp, 0) == 0 &&
              std::filesystem::is_directory(dumps),
          "callgrind's dumps go to a directory of their own in TMPDIR");
    if (enabled.empty()) check_counts(counter);
    const int status = failures == 0 ? 0 : 1;
    iobench::record_exit_status(status);  // as iobench's main() does
    return status;
}
