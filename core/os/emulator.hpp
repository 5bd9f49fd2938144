// Whether this process's instructions run on an emulated CPU (qemu's
// user-mode emulator running an ARM64 build on an x86-64 machine, say): its
// times are the emulator's, not a CPU's, and its hardware and system-call
// counters would count the emulator's own work. The results say so (the
// context's `emulator`, every row's `emulated`), and iobench-compare does not
// rank such rows against a native file (docs/architectures.md).
//
// How it is known, on Linux: a user-mode emulator is the program the kernel
// runs (qemu-aarch64 started by hand, by binfmt_misc or by ctest's
// CMAKE_CROSSCOMPILING_EMULATOR), and it shows the program it emulates as
// /proc/self/exe by answering the paths /proc/self/... itself; the kernel's
// own link, read relative to a descriptor of /proc/self (which qemu passes
// through), names the emulator. Where that cannot tell (another emulator, one
// that hides itself better: Rosetta 2, box64, FEX), the environment variable
// IOBENCH_EMULATOR names it; and a /proc/cpuinfo describing another
// architecture than the build's (an x86 CPU's vendor_id seen by an ARM64
// program) is taken as an emulator too.
#pragma once

#include <string>
#include <string_view>

namespace iobench {

/// What the emulator detection looked at (emulator_from): filled by the
/// platform on a real run, by hand in the tests.
struct EmulatorEvidence {
    std::string variable;      ///< IOBENCH_EMULATOR's value ("" when unset)
    std::string apparent_exe;  ///< what readlink("/proc/self/exe") says: the program, even under qemu
    std::string real_exe;      ///< the kernel's link exe of /proc/self read through a directory descriptor
    std::string cpuinfo_arch;  ///< the architecture /proc/cpuinfo describes ("x86", "arm", "" when unknown)
    std::string build_arch;    ///< the architecture this program was built for ("x86", "arm", ...)
};

/// The emulator the evidence shows, "<name>: <how it is known>", or "" when
/// the CPU is the machine's own. IOBENCH_EMULATOR first; then a kernel link
/// that differs from the apparent one and names a program called qemu-*
/// (name: that program's file name); then a /proc/cpuinfo of another
/// architecture than the build's (name: "<arch> CPU").
std::string emulator_from(const EmulatorEvidence& e);

/// This process's emulator (emulator_from on what this platform shows; the
/// evidence is gathered once), or "" when it runs on the machine's own CPU.
/// Always "" on Windows (a Windows-on-ARM emulation is not looked for: set
/// IOBENCH_EMULATOR).
const std::string& cpu_emulator();

/// The user-mode emulator that runs this process, as the kernel names it
/// (/usr/bin/qemu-aarch64), where cpu_emulator() found qemu by the kernel's
/// link; "" otherwise. A program built for this build's architecture (the
/// binary_size programs) is started through it: the kernel cannot run it,
/// and qemu does not put itself between a program and the programs it starts.
const std::string& emulator_program();

}  // namespace iobench
