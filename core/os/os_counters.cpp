#include "core/os/os_counters.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "core/os/environment.hpp"

#ifdef _WIN32
#include <windows.h>
// windows.h first: psapi.h needs its types.
#include <psapi.h>
#else
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>
#endif

namespace iobench {

namespace {

constexpr unsigned bit(OsCounter c) { return 1u << static_cast<unsigned>(c); }

#ifdef _WIN32

double seconds_of(const FILETIME& t) {
    const ULONGLONG ticks = (static_cast<ULONGLONG>(t.dwHighDateTime) << 32) | t.dwLowDateTime;
    return static_cast<double>(ticks) * 1e-7;  // 100 ns units
}

/// The raw reading: every counter Windows gives, unchecked.
OsCounters raw_snapshot(OsScope scope) noexcept {
    OsCounters s;
    IO_COUNTERS io{};
    if (GetProcessIoCounters(GetCurrentProcess(), &io)) {
        s.set(OsCounter::read_calls, static_cast<double>(io.ReadOperationCount));
        s.set(OsCounter::write_calls, static_cast<double>(io.WriteOperationCount));
    }
    FILETIME created{}, exited{}, kernel{}, user{};
    if (scope == OsScope::process ? GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user)
                                  : GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) {
        s.set(OsCounter::user_time, seconds_of(user));
        s.set(OsCounter::system_time, seconds_of(kernel));
    }
    PROCESS_MEMORY_COUNTERS mem{};
    if (GetProcessMemoryInfo(GetCurrentProcess(), &mem, sizeof mem))
        s.set(OsCounter::page_faults, static_cast<double>(mem.PageFaultCount));
    return s;
}

/// Where the call counts come from and what the check calls, for calls_not_counted_here.
constexpr std::string_view call_source(OsScope) { return "GetProcessIoCounters"; }
constexpr std::string_view call_probe = "one WriteFile and one ReadFile";

/// One real write and one real read (to and from the null device), for the
/// check that the call counters move.
void one_write_one_read() noexcept {
    HANDLE h = CreateFileA("NUL", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                           OPEN_EXISTING, 0, nullptr);
    if (h == INVALID_HANDLE_VALUE) return;
    char byte = 0;
    DWORD done = 0;
    WriteFile(h, &byte, 1, &done, nullptr);
    ReadFile(h, &byte, 1, &done, nullptr);
    CloseHandle(h);
}

#else

/// The calling thread's /proc/thread-self/io and the process's
/// /proc/self/io (by OsScope), opened once per thread (and again in a forked
/// child: the descriptor names the task that opened it).
struct ProcIo {
    int fd = -1;
    pid_t pid = 0;
};
thread_local ProcIo proc_io[2];

/// The calling thread's /proc/thread-self/schedstat, opened once per thread
/// (and again in a forked child).
thread_local ProcIo proc_schedstat;

/// The second number of a schedstat text ("<on CPU ns> <run queue ns>
/// <timeslices>"): nanoseconds waited on a run queue; false when absent.
bool run_queue_ns(const char* text, double& out) {
    char* end = nullptr;
    std::strtoull(text, &end, 10);
    if (end == text || *end != ' ') return false;
    const char* second = end + 1;
    const unsigned long long ns = std::strtoull(second, &end, 10);
    if (end == second) return false;
    out = static_cast<double>(ns);
    return true;
}

/// The kernel's count of the free memory it has reported to the hypervisor
/// (virtio-balloon free page reporting), in KiB since boot: published by some
/// guest kernels, not by upstream Linux (whose page_reporting module has only
/// the page_reporting_order parameter); where absent, page_reported_bytes is
/// unknown and left out of the rows.
constexpr const char* page_reporting_counter = "/sys/module/page_reporting/parameters/reported_kib";

/// The machine-wide files, /proc/stat (steal), /proc/pressure/cpu (absent
/// on kernels without pressure stall information) and page_reporting_counter,
/// opened once per thread and again in a forked child (which cannot rely on
/// its parent's descriptors staying open).
struct ProcMachine {
    int stat = -1;
    int pressure = -1;
    int reported = -1;
    pid_t pid = 0;
};
thread_local ProcMachine proc_machine;

/// Seconds per USER_HZ tick of /proc/stat.
double seconds_per_tick() noexcept {
    static const double s = [] {
        const long hz = ::sysconf(_SC_CLK_TCK);
        return hz > 0 ? 1.0 / static_cast<double>(hz) : 0.01;
    }();
    return s;
}

/// Parses "key: value" out of the /proc io text; false when absent.
bool field(const char* text, const char* key, double& out) {
    const char* p = std::strstr(text, key);
    if (p == nullptr) return false;
    p += std::strlen(key);
    std::uint64_t v = 0;
    bool digits = false;
    for (; *p >= '0' && *p <= '9'; ++p) {
        v = v * 10 + static_cast<std::uint64_t>(*p - '0');
        digits = true;
    }
    out = static_cast<double>(v);
    return digits;
}

double seconds_of(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

/// /proc/self/io (`scope` process) or /proc/thread-self/io into `s`: the
/// read and write calls and bytes. The file stays open (reopened in a forked
/// child, whose inherited descriptor is the parent's).
void read_proc_io(OsScope scope, pid_t pid, OsCounters& s) noexcept {
    ProcIo& io = proc_io[scope == OsScope::process ? 1 : 0];
    if (io.fd >= 0 && io.pid != pid) {  // a forked child: the inherited descriptor is the parent's
        ::close(io.fd);
        io.fd = -1;
    }
    if (io.fd < 0) {
        io.fd = ::open(scope == OsScope::process ? "/proc/self/io" : "/proc/thread-self/io", O_RDONLY | O_CLOEXEC);
        io.pid = pid;
    }
    if (io.fd >= 0) {
        char text[512];
        const ssize_t n = ::pread(io.fd, text, sizeof text - 1, 0);
        if (n > 0) {
            text[n] = '\0';
            add_proc_io_counters(text, s);
        }
    }
}

/// The calling thread's time waiting for a CPU (/proc/thread-self/schedstat)
/// into `s`. Not for the whole process: the threads that ended took their
/// waiting with them (while their CPU time stays in RUSAGE_SELF), and
/// reading every thread's file would add read calls to the process's counts
/// that vary with its threads.
void read_run_queue(pid_t pid, OsCounters& s) noexcept {
    if (proc_schedstat.fd >= 0 && proc_schedstat.pid != pid) {
        ::close(proc_schedstat.fd);
        proc_schedstat.fd = -1;
    }
    if (proc_schedstat.fd < 0) {
        proc_schedstat.fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
        proc_schedstat.pid = pid;
    }
    char text[128];
    const ssize_t n = proc_schedstat.fd >= 0 ? ::pread(proc_schedstat.fd, text, sizeof text - 1, 0) : -1;
    double ns = 0;
    if (n > 0) {
        text[n] = '\0';
        if (run_queue_ns(text, ns)) s.set(OsCounter::run_queue_time, ns * 1e-9);
    }
}

/// The machine's stolen time (/proc/stat: "cpu  user nice system idle
/// iowait irq softirq steal ...", the 8th number) and CPU pressure
/// (/proc/pressure/cpu, "some ... total=") into `s`.
void read_machine(pid_t pid, OsCounters& s) noexcept {
    if (proc_machine.pid != pid) {
        proc_machine.stat = ::open("/proc/stat", O_RDONLY | O_CLOEXEC);
        proc_machine.pressure = ::open("/proc/pressure/cpu", O_RDONLY | O_CLOEXEC);
        proc_machine.reported = ::open(page_reporting_counter, O_RDONLY | O_CLOEXEC);
        proc_machine.pid = pid;
    }
    if (proc_machine.stat >= 0) {
        char text[256];
        const ssize_t n = ::pread(proc_machine.stat, text, sizeof text - 1, 0);
        if (n > 4 && std::strncmp(text, "cpu ", 4) == 0) {
            text[n] = '\0';
            const char* p = text + 4;
            std::uint64_t number = 0;
            int index = 0;
            for (; *p != '\0' && *p != '\n' && index < 8; ++p) {
                if (*p >= '0' && *p <= '9') {
                    number = number * 10 + static_cast<std::uint64_t>(*p - '0');
                    if (p[1] < '0' || p[1] > '9') {
                        if (++index == 8)
                            s.set(OsCounter::steal_time, static_cast<double>(number) * seconds_per_tick());
                        number = 0;
                    }
                }
            }
        }
    }
    if (proc_machine.pressure >= 0) {
        char text[256];
        const ssize_t n = ::pread(proc_machine.pressure, text, sizeof text - 1, 0);
        if (n > 0) {
            text[n] = '\0';
            double v = 0;
            if (std::strncmp(text, "some ", 5) == 0 && field(text, " total=", v))
                s.set(OsCounter::cpu_wait, v * 1e-6);
        }
    }
    if (proc_machine.reported >= 0) {
        char text[32] = "\n";  // field() wants the key's text before the digits
        const ssize_t n = ::pread(proc_machine.reported, text + 1, sizeof text - 2, 0);
        double kib = 0;
        if (n > 0) {
            text[n + 1] = '\0';
            if (field(text, "\n", kib)) s.set(OsCounter::page_reported_bytes, kib * 1024);
        }
    }
}

/// getrusage of the process (`scope` process) or the calling thread into
/// `s`: user and system time, page faults, context switches.
void read_rusage(OsScope scope, OsCounters& s) noexcept {
#ifdef RUSAGE_THREAD
    const int who = scope == OsScope::process ? RUSAGE_SELF : RUSAGE_THREAD;
#else
    const int who = scope == OsScope::process ? RUSAGE_SELF : -1;  // no per-thread usage here
#endif
    rusage u{};
    if (who != -1 && ::getrusage(who, &u) == 0) {
        s.set(OsCounter::user_time, seconds_of(u.ru_utime));
        s.set(OsCounter::system_time, seconds_of(u.ru_stime));
        s.set(OsCounter::page_faults, static_cast<double>(u.ru_minflt + u.ru_majflt));
        s.set(OsCounter::context_switches, static_cast<double>(u.ru_nvcsw + u.ru_nivcsw));
    }
}

/// The raw reading: every counter Linux gives, unchecked.
OsCounters raw_snapshot(OsScope scope) noexcept {
    OsCounters s;
    const pid_t pid = ::getpid();
    read_proc_io(scope, pid, s);
    if (scope == OsScope::thread) read_run_queue(pid, s);
    read_machine(pid, s);
    read_rusage(scope, s);
    return s;
}

/// Where the call counts come from and what the check calls, for calls_not_counted_here.
constexpr std::string_view call_source(OsScope scope) {
    return scope == OsScope::process ? "/proc/self/io" : "/proc/thread-self/io";
}
constexpr std::string_view call_probe = "one write(2) and one read(2)";

/// One real write and one real read (to /dev/null and from /dev/zero), for
/// the check that the call counters move.
void one_write_one_read() noexcept {
    char byte = 0;
    const int out = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (out >= 0) {
        [[maybe_unused]] const ssize_t w = ::write(out, &byte, 1);
        ::close(out);
    }
    const int in = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
    if (in >= 0) {
        [[maybe_unused]] const ssize_t r = ::read(in, &byte, 1);
        ::close(in);
    }
}

#endif

OsCounters difference(const OsCounters& before, const OsCounters& after) {
    OsCounters d;
    d.known = before.known & after.known;
    for (std::size_t i = 0; i < os_counter_count; ++i) d.value[i] = after.value[i] - before.value[i];
    return d;
}

/// What the platform provides and what a snapshot costs, found once per
/// process and scope: the cost is the difference of two back-to-back
/// snapshots (the /proc read counts as one read call); a call counter is kept
/// only if one real write and one real read move it by exactly one beyond
/// that cost.
struct Calibration {
    std::uint32_t usable = 0;
    OsCounters cost;
    // What the check of the call counts found, for calls_not_counted_here.
    bool calls_readable = false;  ///< both call counts could be read
    double probe_writes = 0;      ///< how far write_calls moved for one write (1 when usable)
    double probe_reads = 0;       ///< how far read_calls moved for one read
};

Calibration calibrate(OsScope scope) noexcept {
    Calibration cal;
    const OsCounters s0 = raw_snapshot(scope);
    const OsCounters s1 = raw_snapshot(scope);
    one_write_one_read();
    const OsCounters s2 = raw_snapshot(scope);
    const OsCounters idle = difference(s0, s1);
    const OsCounters busy = difference(s1, s2);
    cal.usable = s0.known & s1.known & s2.known;
    for (OsCounter call : {OsCounter::read_calls, OsCounter::write_calls})
        if (!idle.has(call) || busy[call] - idle[call] != 1) cal.usable &= ~bit(call);
    // Only the call counts have a fixed cost; times and faults are what they are.
    for (OsCounter call : {OsCounter::read_calls, OsCounter::write_calls})
        if (cal.usable & bit(call)) cal.cost.set(call, idle[call]);
    cal.calls_readable = idle.has(OsCounter::read_calls) && idle.has(OsCounter::write_calls);
    cal.probe_writes = busy[OsCounter::write_calls] - idle[OsCounter::write_calls];
    cal.probe_reads = busy[OsCounter::read_calls] - idle[OsCounter::read_calls];
    return cal;
}

const Calibration& calibration(OsScope scope) noexcept {
    static const Calibration thread = calibrate(OsScope::thread);
    if (scope == OsScope::thread) return thread;
    static const Calibration process = calibrate(OsScope::process);
    return process;
}

}  // namespace

#ifndef _WIN32
std::optional<double> run_queue_seconds_of_process(long pid) {
#ifndef __linux__
    (void)pid;
    return std::nullopt;
#else
    const std::string tasks = fmt::format("/proc/{}/task", pid);
    DIR* dir = ::opendir(tasks.c_str());
    if (dir == nullptr) return std::nullopt;
    double total = 0;
    bool any = false;
    while (const dirent* e = ::readdir(dir)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        const std::string path = fmt::format("{}/{}/schedstat", tasks, e->d_name);
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;  // a thread that ended meanwhile
        char text[128];
        const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
        ::close(fd);
        double ns = 0;
        if (n <= 0) continue;
        text[n] = '\0';
        if (run_queue_ns(text, ns)) {
            total += ns;
            any = true;
        }
    }
    ::closedir(dir);
    if (!any) return std::nullopt;
    return total * 1e-9;
#endif
}


void add_proc_io_counters(const char* text, OsCounters& s) noexcept {
    double v = 0;
    if (field(text, "\nsyscr: ", v)) s.set(OsCounter::read_calls, v);
    if (field(text, "\nsyscw: ", v)) s.set(OsCounter::write_calls, v);
    if (field(text, "\nread_bytes: ", v)) s.set(OsCounter::read_bytes, v);
    if (field(text, "\nwrite_bytes: ", v)) s.set(OsCounter::write_bytes, v);
}
#endif

OsCounters& OsCounters::operator+=(const OsCounters& other) {
    known &= other.known;
    for (std::size_t i = 0; i < os_counter_count; ++i) value[i] += other.value[i];
    return *this;
}

OsCounters take_os_snapshot(OsScope scope) noexcept {
    const std::uint32_t usable = calibration(scope).usable;
    OsCounters s = raw_snapshot(scope);
    s.known &= usable;
    return s;
}

OsCounters os_counters_between(const OsCounters& before, const OsCounters& after, OsScope scope) noexcept {
    OsCounters d = difference(before, after);
    const OsCounters& cost = calibration(scope).cost;
    for (std::size_t i = 0; i < os_counter_count; ++i)
        if ((cost.known >> i) & 1u) d.value[i] -= cost.value[i];
    return d;
}

std::string available_os_counters() {
    const std::uint32_t usable = calibration(OsScope::thread).usable;
    std::string names;
    for (unsigned i = 0; i < os_counter_count; ++i) {
        if (!((usable >> i) & 1u)) continue;
        if (!names.empty()) names += ',';
        names += os_counter_name(static_cast<OsCounter>(i));
    }
    return names;
}

std::string calls_not_counted_here(OsScope scope) {
    const Calibration& cal = calibration(scope);
    return calls_not_counted_reason(call_source(scope), call_probe, cal.calls_readable, cal.probe_writes,
                                    cal.probe_reads, wine_version());
}

std::string calls_not_counted_reason(std::string_view source, std::string_view probe, bool readable, double writes,
                                     double reads, std::string_view wine) {
    if (readable && writes == 1 && reads == 1) return "";
    const std::string head = wine.empty() ? "not counted" : "not counted under wine";
    if (!readable) return fmt::format("{}: {} cannot be read", head, source);
    const auto calls = [](double n, const char* what) {
        return fmt::format("{:g} {}{}", n, what, n == 1 ? "" : "s");
    };
    return fmt::format("{}: {} counted {} and {} for {}", head, source, calls(writes, "write"), calls(reads, "read"),
                       probe);
}

OsCounters machine_wide(OsCounters counters) noexcept {
    counters.known &= (1u << static_cast<unsigned>(OsCounter::steal_time)) |
                      (1u << static_cast<unsigned>(OsCounter::cpu_wait)) |
                      (1u << static_cast<unsigned>(OsCounter::page_reported_bytes));
    return counters;
}

}  // namespace iobench
