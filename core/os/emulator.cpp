#include "core/os/emulator.hpp"

#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

#ifdef __linux__
#include <fcntl.h>
#include <unistd.h>
#endif

namespace iobench {

namespace {

/// The architecture family this program was built for, as emulator_from compares it with /proc/cpuinfo's.
constexpr const char* build_architecture() {
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
    return "x86";
#elif defined(__aarch64__) || defined(__arm__) || defined(_M_ARM64)
    return "arm";
#else
    return "";
#endif
}

#ifdef __linux__
/// The link `name` in `dir` ("" when it cannot be read).
std::string read_link_at(int dir, const char* name) {
    char buf[4096];
    const ssize_t n = ::readlinkat(dir, name, buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

/// The architecture family /proc/cpuinfo describes, by the fields only it has:
/// "x86" (vendor_id), "arm" (CPU implementer), else "".
std::string cpuinfo_architecture() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("vendor_id", 0) == 0) return "x86";
        if (line.rfind("CPU implementer", 0) == 0) return "arm";
    }
    return "";
}

EmulatorEvidence gather() {
    EmulatorEvidence e;
    if (const char* v = std::getenv("IOBENCH_EMULATOR")) e.variable = v;
    e.apparent_exe = read_link_at(AT_FDCWD, "/proc/self/exe");
    if (const int dir = ::open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        e.real_exe = read_link_at(dir, "exe");
        ::close(dir);
    }
    e.cpuinfo_arch = cpuinfo_architecture();
    e.build_arch = build_architecture();
    return e;
}
#else
EmulatorEvidence gather() {
    EmulatorEvidence e;
    if (const char* v = std::getenv("IOBENCH_EMULATOR")) e.variable = v;
    e.build_arch = build_architecture();
    return e;
}
#endif

}  // namespace

std::string emulator_from(const EmulatorEvidence& e) {
    if (!e.variable.empty()) return fmt::format("{}: named by IOBENCH_EMULATOR", e.variable);
    if (!e.real_exe.empty() && !e.apparent_exe.empty() && e.real_exe != e.apparent_exe) {
        const std::string name = e.real_exe.substr(e.real_exe.find_last_of('/') + 1);
        if (name.rfind("qemu-", 0) == 0)
            return fmt::format("{}: the kernel runs {} (/proc/self/exe), which shows {} as this program", name,
                               e.real_exe, e.apparent_exe);
    }
    if (!e.cpuinfo_arch.empty() && !e.build_arch.empty() && e.cpuinfo_arch != e.build_arch)
        return fmt::format("{} CPU: /proc/cpuinfo describes an {} CPU, this program is built for {}", e.cpuinfo_arch,
                           e.cpuinfo_arch, e.build_arch);
    return "";
}

namespace {
struct Detected {
    std::string emulator;  // cpu_emulator()
    std::string program;   // emulator_program()
};

const Detected& detected() {
    static const Detected d = [] {
        const EmulatorEvidence e = gather();
        Detected found{emulator_from(e), ""};
        const std::string name = e.real_exe.substr(e.real_exe.find_last_of('/') + 1);
        if (!found.emulator.empty() && e.real_exe != e.apparent_exe && name.rfind("qemu-", 0) == 0)
            found.program = e.real_exe;
        return found;
    }();
    return d;
}
}  // namespace

const std::string& cpu_emulator() { return detected().emulator; }

const std::string& emulator_program() { return detected().program; }

}  // namespace iobench
