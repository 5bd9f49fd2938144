// binary_size: fast_io's binary-size table (fast_io's README, https://github.com/cppfastio/fast_io,
// "4. Binary Size": the file_io benchmark's programs). One minimal program per
// method (binsize/<method>.cpp: `hello-<method> PATH N`, writing "Hello
// World\n" N times as the method does), built by CMake, statically linked
// where the toolchain can and stripped; which programs exist, and why one is
// not built here, CMake tells in iobench/binsize_programs.hpp. A run executes the program (process start
// included in the time) and verifies its output like the hello workload's;
// the counter `binary_size` is the program file's size in bytes, measured
// (stat) when the trial is made, and `static_linked` is 1 for static programs.
// A program runs only when no other user could change it (TrustedFile), as
// every file iobench executes.
#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include <iobench/error.hpp>
#include "core/engine/output_trial.hpp"
#include "core/engine/session.hpp"
#include "core/os/emulator.hpp"
#include "core/os/environment.hpp"
#include "core/os/trusted_file.hpp"
#include "data/text.hpp"
#include "generated/binsize_programs.hpp"

#ifdef _WIN32
#include <process.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
#endif

namespace iobench {
namespace {

constexpr std::uint64_t published_count = 100'000'000;
constexpr std::string_view line = "Hello World\n";

/// The program of `method` (binsize/<method>.cpp), or nullptr when it has none.
const binsize::Program* program_of(std::string_view method) {
    for (const binsize::Program& p : binsize::programs)
        if (p.method == method) return &p;
    return nullptr;
}

/// The program of `method`, opened and checked as code from elsewhere
/// (TrustedFile): the first that exists of binsize/ next to the running
/// executable (the build tree's root holds iobench and binsize/),
/// ../libexec/iobench/binsize/ from it (where `cmake --install` puts them
/// beside bin/iobench) and the directory CMake built it in (a path compiled
/// in: used only when it passes the check, as the others). Throws
/// usage_error (one line naming the file and who could change it) when
/// another user than the caller and root could change the file found or a
/// directory above it, `unavailable_error` when it was not built, with
/// CMake's reason.
TrustedFile find_program(std::string_view method) {
#ifdef _WIN32
    const std::string name = fmt::format("hello-{}.exe", method);
#else
    const std::string name = fmt::format("hello-{}", method);
#endif
    std::error_code ec;
    const std::filesystem::path exe_dir = executable_path().parent_path();
    for (const std::filesystem::path& dir :
         {exe_dir.empty() ? exe_dir : exe_dir / "binsize",
          exe_dir.empty() ? exe_dir : exe_dir / ".." / "libexec" / "iobench" / "binsize",
          std::filesystem::path(binsize::dir)}) {
        if (dir.empty()) continue;
        const std::filesystem::path p = dir / name;
        if (std::filesystem::exists(p, ec)) return TrustedFile(p, fmt::format("binary_size program {}", name));
    }
    const binsize::Program* program = program_of(method);
    const std::string why = program && !program->not_built.empty()
                                ? fmt::format(" ({}: {})", method, program->not_built)
                                : std::string(" (cmake --build <build dir> --target iobench_programs)");
    throw unavailable_error(fmt::format("the binary_size program {} was not built{}", name, why));
}

/// Runs `program path count` and waits for it: on Linux the file opened and
/// checked (through its descriptor, /proc/self/fd/N), whatever its path
/// names meanwhile. Under qemu's user-mode emulator (emulator_program()) the
/// program, built for the emulated CPU, is started through the emulator,
/// which opens that same descriptor (a duplicate that survives the exec).
/// Throws `io_error` when it cannot be started or does not exit with status 0.
void run_program(const TrustedFile& program, const std::string& path, std::uint64_t count) {
    const std::string exe = program.path().string();
    const std::string n = std::to_string(count);
#ifdef _WIN32
    // _spawnv joins its arguments with spaces: quote them.
    const std::string q_exe = "\"" + exe + "\"", q_path = "\"" + path + "\"";
    const char* argv[] = {q_exe.c_str(), q_path.c_str(), n.c_str(), nullptr};
    const intptr_t status = _spawnv(_P_WAIT, exe.c_str(), argv);
    if (status == -1) throw_errno("_spawnv", exe);
    if (status != 0) throw io_error(exe, path, std::make_error_code(std::errc::io_error));
#else
    std::string a0 = exe, a1 = path, a2 = n;
    char* argv[] = {a0.data(), a1.data(), a2.data(), nullptr};
    pid_t pid = 0;
    const std::string started = program.open_file_path().string();
    const std::string& emulator = emulator_program();
    int rc = 0;
    if (emulator.empty()) {
        rc = ::posix_spawn(&pid, started.c_str(), nullptr, nullptr, argv, environ);
    } else {
        // emulator -0 <argv[0]> /proc/self/fd/<k> path count: qemu opens the program after the exec.
        const int inherited = ::fcntl(program.fd(), F_DUPFD, 3);  // no FD_CLOEXEC
        if (inherited < 0) throw_errno("fcntl", exe);
        std::string e0 = emulator, flag = "-0", e3 = "/proc/self/fd/" + std::to_string(inherited);
        char* emulated[] = {e0.data(), flag.data(), a0.data(), e3.data(), a1.data(), a2.data(), nullptr};
        rc = ::posix_spawn(&pid, e0.c_str(), nullptr, nullptr, emulated, environ);
        ::close(inherited);
    }
    if (rc != 0) throw io_error("posix_spawn", exe, std::error_code(rc, std::generic_category()));
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw_errno("waitpid", exe);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw io_error(fmt::format("{} (exit status {})", exe, WIFEXITED(status) ? WEXITSTATUS(status) : -1), path,
                       std::make_error_code(std::errc::io_error));
#endif
}

class BinarySizeTrial final : public OutputTrial {
public:
    BinarySizeTrial(Session& s, const Method& m, const Params& p, std::uint64_t count)
        : OutputTrial(s, "binary_size", m, p, {fmt::format("hello:{}", count), repeated_text(line, count), count}),
          program_(find_program(m.name)),
          count_(count) {
        buffer_size = 0;  // the program's own default
        std::error_code ec;
        const auto size = std::filesystem::file_size(program_.path(), ec);
        if (ec) throw io_error("stat", program_.path().string(), ec);
        counters["binary_size"] = static_cast<double>(size);
        // The program's calls and CPU time are a child's: unknown here, not 0.
        work_in_child = true;
        if (binsize::static_linked) counters["static_linked"] = 1;
    }
    void run() override { run_program(program_, sink_.path, count_); }

private:
    TrustedFile program_;
    std::uint64_t count_;
};

class BinarySize final : public Workload {
public:
    BinarySize()
        : Workload({.name = "binary_size",
                    .description = "size of a minimal program per method family writing \"Hello World\\n\" N times "
                                   "(stripped, static where possible; counter binary_size), timed as one process run "
                                   "(N = 100M)",
                    .operation = Operation::put_repeat,
                    .item_unit = "line",
                    .default_count = published_count,
                    .axes = {.buffer_size = false},  // each program keeps its library's default buffer
                    .method_filter = [](const Method& m) { return program_of(m.name) != nullptr; },
                    .method_unavailable = [](const Method& m) -> std::string {
                        const binsize::Program* p = program_of(m.name);
                        if (p == nullptr || p->not_built.empty()) return "";
                        return fmt::format("the binary_size program hello-{} was not built: {}", m.name, p->not_built);
                    }}) {}

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        return std::make_unique<BinarySizeTrial>(s, m, p, count(s));
    }
};

const WorkloadRegistrar<BinarySize> binary_size_registrar;

}  // namespace
}  // namespace iobench
