// The CPU emulator's detection (core/os/emulator.hpp): on canned evidence, and
// on this process itself, which ctest runs under qemu-aarch64 in the ARM64
// build (IOBENCH_TESTS_UNDER_QEMU) and on the machine's own CPU elsewhere.
#include "core/os/emulator.hpp"

#include <cstdlib>

#include <gtest/gtest.h>

namespace iobench {
namespace {

EmulatorEvidence native_x86() {
    EmulatorEvidence e;
    e.apparent_exe = "/build/iobench";
    e.real_exe = "/build/iobench";
    e.cpuinfo_arch = "x86";
    e.build_arch = "x86";
    return e;
}

TEST(Emulator, NoneOnTheMachinesOwnCpu) {
    EXPECT_EQ(emulator_from(native_x86()), "");
    EmulatorEvidence arm = native_x86();
    arm.cpuinfo_arch = arm.build_arch = "arm";
    EXPECT_EQ(emulator_from(arm), "");
    EmulatorEvidence unknown = native_x86();  // nothing to tell by: not taken as emulated
    unknown.real_exe = unknown.apparent_exe = unknown.cpuinfo_arch = "";
    EXPECT_EQ(emulator_from(unknown), "");
}

TEST(Emulator, QemuShownByTheKernelsOwnLink) {
    EmulatorEvidence e = native_x86();
    e.build_arch = "arm";
    e.real_exe = "/usr/bin/qemu-aarch64";
    EXPECT_EQ(emulator_from(e),
              "qemu-aarch64: the kernel runs /usr/bin/qemu-aarch64 (/proc/self/exe), which shows /build/iobench as "
              "this program");
    e.cpuinfo_arch = "arm";  // a qemu that also shows an ARM /proc/cpuinfo is still found
    EXPECT_EQ(emulator_from(e).substr(0, 13), "qemu-aarch64:");
    e.real_exe = "/usr/libexec/qemu-binfmt/aarch64-binfmt-P";  // not named qemu-*: left to the other signs
    EXPECT_EQ(emulator_from(e), "");
}

TEST(Emulator, AnotherProgramBetweenIsNotAnEmulator) {
    // valgrind (a run of --instructions) also shows its client as /proc/self/exe: the CPU is the machine's.
    EmulatorEvidence e = native_x86();
    e.real_exe = "/usr/libexec/valgrind/memcheck-amd64-linux";
    EXPECT_EQ(emulator_from(e), "");
}

TEST(Emulator, CpuinfoOfAnotherArchitecture) {
    EmulatorEvidence e = native_x86();
    e.build_arch = "arm";
    EXPECT_EQ(emulator_from(e), "x86 CPU: /proc/cpuinfo describes an x86 CPU, this program is built for arm");
}

TEST(Emulator, NamedByTheEnvironmentFirst) {
    EmulatorEvidence e = native_x86();
    e.variable = "Rosetta 2";
    EXPECT_EQ(emulator_from(e), "Rosetta 2: named by IOBENCH_EMULATOR");
}

TEST(Emulator, ThisProcess) {
    if (std::getenv("IOBENCH_EMULATOR") != nullptr) GTEST_SKIP() << "IOBENCH_EMULATOR is set: it decides";
#ifdef IOBENCH_TESTS_UNDER_QEMU
    EXPECT_EQ(cpu_emulator().substr(0, 5), "qemu-") << cpu_emulator();
#else
    EXPECT_EQ(cpu_emulator(), "");
#endif
}

}  // namespace
}  // namespace iobench
