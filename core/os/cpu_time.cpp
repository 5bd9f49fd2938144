#include "core/os/cpu_time.hpp"

#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

namespace iobench {

namespace {

#ifdef _WIN32
std::uint64_t ns_of(const FILETIME& t) {
    return ((static_cast<std::uint64_t>(t.dwHighDateTime) << 32) | t.dwLowDateTime) * 100;  // 100 ns units
}
#else
std::optional<std::uint64_t> clock_ns(clockid_t id) noexcept {
    timespec ts{};
    if (clock_gettime(id, &ts) != 0) return std::nullopt;
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}
#endif

}  // namespace

std::optional<std::uint64_t> thread_cpu_ns() noexcept {
#ifdef _WIN32
    FILETIME created{}, exited{}, kernel{}, user{};
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) return std::nullopt;
    return ns_of(kernel) + ns_of(user);
#else
    return clock_ns(CLOCK_THREAD_CPUTIME_ID);
#endif
}

std::optional<std::uint64_t> process_cpu_ns() noexcept {
#ifdef _WIN32
    FILETIME created{}, exited{}, kernel{}, user{};
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user)) return std::nullopt;
    return ns_of(kernel) + ns_of(user);
#else
    return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
#endif
}

}  // namespace iobench
