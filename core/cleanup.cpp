#include "core/cleanup.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#ifdef _WIN32
#include <direct.h>
#include <io.h>
#define IOBENCH_UNLINK _unlink
#define IOBENCH_RMDIR _rmdir
#else
#include <unistd.h>
#define IOBENCH_UNLINK unlink
#define IOBENCH_RMDIR rmdir
#endif

namespace iobench {

namespace {

constexpr int max_paths = 256;
constexpr std::size_t max_path_bytes = 4096;

// Fixed storage, so the signal handler touches no allocator. A slot is in use
// while its first byte is non-zero.
char slots[max_paths][max_path_bytes];
std::atomic<int> used{0};

extern "C" void on_signal(int sig) {
    for (int i = used.load() - 1; i >= 0; --i) {
        if (slots[i][0] == '\0') continue;
        if (IOBENCH_UNLINK(slots[i]) != 0) IOBENCH_RMDIR(slots[i]);
    }
    std::signal(sig, SIG_DFL);
    std::_Exit(128 + sig);
}

}  // namespace

void install_interrupt_cleanup() {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
}

void remove_on_interrupt(const std::filesystem::path& path) {
    const std::string s = path.string();
    if (s.empty() || s.size() >= max_path_bytes) return;
    int n = used.load();
    for (int i = 0; i < n; ++i)
        if (s == slots[i]) return;  // already registered
    if (n >= max_paths) return;
    std::memcpy(slots[n], s.c_str(), s.size() + 1);
    used.store(n + 1);
}

void forget_on_interrupt(const std::filesystem::path& path) {
    const std::string s = path.string();
    for (int i = used.load() - 1; i >= 0; --i) {
        if (s == slots[i]) {
            slots[i][0] = '\0';
            if (i == used.load() - 1) used.store(i);
            return;
        }
    }
}

}  // namespace iobench
