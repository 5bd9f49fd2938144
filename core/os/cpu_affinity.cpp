#include "core/os/cpu_affinity.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <system_error>

#include <iobench/error.hpp>
#include "core/os/usage_error.hpp"

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <sched.h>
#endif

namespace iobench {

std::string cpu_list_text(const std::vector<int>& cpus) {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
        parts.push_back(j == i ? fmt::format("{}", cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]));
        i = j + 1;
    }
    return fmt::format("{}", fmt::join(parts, ","));
}

std::string pin_to_cpus(const std::vector<int>& cpus) {
    const std::string wanted = cpu_list_text(cpus);
#ifdef _WIN32
    DWORD_PTR process = 0, system_mask = 0;
    if (!GetProcessAffinityMask(GetCurrentProcess(), &process, &system_mask))
        throw io_error("GetProcessAffinityMask", "the process",
                       std::error_code(static_cast<int>(GetLastError()), std::system_category()));
    std::vector<int> allowed;
    for (int c = 0; c < 64; ++c)
        if (process & (DWORD_PTR{1} << c)) allowed.push_back(c);
    DWORD_PTR mask = 0;
    for (int c : cpus) {
        if (c >= 64 || !(process & (DWORD_PTR{1} << c)))
            throw usage_error(fmt::format("--cpus {}: this process may run on CPUs {} only", wanted,
                                          cpu_list_text(allowed)));
        mask |= DWORD_PTR{1} << c;
    }
    if (!SetProcessAffinityMask(GetCurrentProcess(), mask))
        throw io_error("SetProcessAffinityMask", wanted,
                       std::error_code(static_cast<int>(GetLastError()), std::system_category()));
    return fmt::format("{} (SetProcessAffinityMask: the whole process; allowed before: {})", wanted,
                       cpu_list_text(allowed));
#else
    cpu_set_t before;
    CPU_ZERO(&before);
    if (sched_getaffinity(0, sizeof before, &before) != 0)
        throw io_error("sched_getaffinity", "the process", std::error_code(errno, std::generic_category()));
    std::vector<int> allowed;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &before)) allowed.push_back(c);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus) {
        if (c >= CPU_SETSIZE || !CPU_ISSET(c, &before))
            throw usage_error(fmt::format("--cpus {}: this process may run on CPUs {} only", wanted,
                                          cpu_list_text(allowed)));
        CPU_SET(c, &set);
    }
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        throw io_error("sched_setaffinity", wanted, std::error_code(errno, std::generic_category()));
    return fmt::format("{} (sched_setaffinity; every thread started afterwards inherits it; allowed before: {})",
                       wanted, cpu_list_text(allowed));
#endif
}

}  // namespace iobench
