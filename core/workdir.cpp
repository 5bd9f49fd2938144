#include "core/workdir.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <random>
#include <string_view>
#include <system_error>

#include "core/cleanup.hpp"

#ifdef _WIN32
#include <process.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>
#endif

namespace iobench {

namespace fs = std::filesystem;

namespace {

long own_pid() {
#ifdef _WIN32
    return static_cast<long>(_getpid());
#else
    return static_cast<long>(getpid());
#endif
}

std::string unique_tag() {
    static std::random_device rd;
    return fmt::format("{}-{:08x}", own_pid(), rd());
}

/// The pid in "<pid>-<8 hex digits>" at the start of `s`, followed by `rest`.
std::optional<long> parse_tag(std::string_view s, std::string_view rest) {
    long pid = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), pid);
    if (ec != std::errc() || pid <= 0) return std::nullopt;
    std::string_view tail(p, static_cast<std::size_t>(s.data() + s.size() - p));
    if (tail.size() != 1 + 8 + rest.size() || tail[0] != '-' || tail.substr(9) != rest) return std::nullopt;
    for (char c : tail.substr(1, 8))
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
    return pid;
}

constexpr std::string_view dir_prefix = "iobench-";
constexpr std::string_view partial_marker = ".iobench-";
constexpr std::string_view partial_suffix = ".partial";

/// True when the file at `lock` (a lock file, a temporary results file) exists
/// and no process holds it: no flock on it (POSIX), not open (Windows).
bool lock_is_free(const fs::path& lock) {
#ifdef _WIN32
    HANDLE h = CreateFileW(lock.wstring().c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) return false;  // held (sharing violation) or absent
    CloseHandle(h);
    return true;
#else
    const int fd = open(lock.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return false;
    const bool free_lock = flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
    return free_lock;
#endif
}

}  // namespace

bool process_alive(long pid) {
#ifdef _WIN32
    HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, static_cast<DWORD>(pid));
    if (!h) return GetLastError() == ERROR_ACCESS_DENIED;
    const bool running = WaitForSingleObject(h, 0) == WAIT_TIMEOUT;
    CloseHandle(h);
    return running;
#else
    return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
#endif
}

fs::path temporary_name_for(const fs::path& target) {
    return target.parent_path() /
           fmt::format(".{}{}{}{}", target.filename().string(), partial_marker, unique_tag(), partial_suffix);
}

WorkDir::WorkDir(const fs::path& base) {
    std::error_code ec;
    for (int attempt = 0;; ++attempt) {
        path_ = base / fmt::format("{}{}", dir_prefix, unique_tag());
        if (fs::create_directory(path_, ec)) break;
        if (ec || attempt == 100)
            throw std::system_error(ec ? ec : std::make_error_code(std::errc::file_exists),
                                    fmt::format("cannot create a directory in {}", base.string()));
    }
    remove_on_interrupt(path_);
    lock_path_ = path_ / "lock";
    // The lock file appears under its final name only once it is locked, so
    // that a later run never sees it unlocked while this one lives.
    const fs::path fresh = path_ / "lock.new";
#ifdef _WIN32
    HANDLE h = CreateFileW(fresh.wstring().c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_DELETE, nullptr,
                           CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        ec = std::error_code(static_cast<int>(GetLastError()), std::system_category());
    } else {
        lock_ = h;
        if (!MoveFileExW(fresh.wstring().c_str(), lock_path_.wstring().c_str(), 0))
            ec = std::error_code(static_cast<int>(GetLastError()), std::system_category());
    }
#else
    const int fd = open(fresh.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        ec = std::error_code(errno, std::generic_category());
    } else {
        lock_ = fd;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0 || rename(fresh.c_str(), lock_path_.c_str()) != 0)
            ec = std::error_code(errno, std::generic_category());
    }
#endif
    remove_on_interrupt(lock_path_);
    if (ec) {
        release();
        throw std::system_error(ec, fmt::format("cannot lock {}", lock_path_.string()));
    }
}

WorkDir::~WorkDir() { release(); }

void WorkDir::release() {
    std::error_code ec;
#ifdef _WIN32
    if (lock_) CloseHandle(static_cast<HANDLE>(lock_));
    lock_ = nullptr;
#else
    if (lock_ >= 0) close(lock_);
    lock_ = -1;
#endif
    fs::remove(lock_path_, ec);
    fs::remove(path_ / "lock.new", ec);
    forget_on_interrupt(lock_path_);
    if (!keep_) {
        fs::remove_all(path_, ec);
        forget_on_interrupt(path_);
    }
}

std::vector<StaleEntry> remove_stale(const fs::path& dir) {
    std::vector<StaleEntry> removed;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) return removed;
    for (const fs::directory_entry& entry : it) {
        const std::string name = entry.path().filename().string();
        std::error_code e;
        if (name.starts_with(dir_prefix) && entry.is_directory(e) && !entry.is_symlink(e)) {
            const auto pid = parse_tag(std::string_view(name).substr(dir_prefix.size()), "");
            if (!pid || *pid == own_pid() || !lock_is_free(entry.path() / "lock")) continue;
            fs::remove_all(entry.path(), e);
            if (!e) removed.push_back({entry.path(), *pid});
        } else if (name.starts_with(".") && name.ends_with(partial_suffix) && entry.is_regular_file(e)) {
            const auto at = name.rfind(partial_marker);
            if (at == std::string::npos) continue;
            const auto pid = parse_tag(std::string_view(name).substr(at + partial_marker.size()), partial_suffix);
            // POSIX: the writer holds a lock on the file while it lives,
            // whatever its process id means here (another PID namespace, NFS).
            // Windows: it holds the file open without sharing until it renames
            // it, and closes it just before: its process must be gone too.
#ifdef _WIN32
            if (!pid || process_alive(*pid) || !lock_is_free(entry.path())) continue;
#else
            if (!pid || !lock_is_free(entry.path())) continue;
#endif
            if (fs::remove(entry.path(), e)) removed.push_back({entry.path(), *pid});
        }
    }
    return removed;
}

}  // namespace iobench
