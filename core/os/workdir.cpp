#include "core/os/workdir.hpp"

#include <fmt/format.h>

#include <charconv>
#include <ctime>
#include <optional>
#include <random>
#include <set>
#include <string_view>
#include <system_error>

#include "core/os/cleanup.hpp"

#ifdef _WIN32
#include <process.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
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

constexpr std::string_view fresh_suffix = ".new";
constexpr char lock_name[] = "lock";
constexpr char fresh_lock_name[] = "lock.new";

#ifndef _WIN32
/// What a lock file (a working directory's lock, a temporary results file) is
/// found to be by lock_state().
enum class Lock {
    absent,    ///< nothing by that name
    held,      ///< a live process holds it, or it is not a regular file of ours: leave it
    free,      ///< a regular file of this user that no process holds
};

/// The state of the lock file `path`, opened only when it is a regular file
/// of this user (lstat first), with O_NOFOLLOW|O_NONBLOCK so that nothing
/// planted in its place (a FIFO, a device, a link) is followed or blocks, and
/// checked again with fstat once open. `mtime` gets its modification time.
Lock lock_state(const fs::path& path, std::time_t* mtime = nullptr) {
    struct stat before {};
    if (lstat(path.c_str(), &before) != 0) return errno == ENOENT ? Lock::absent : Lock::held;
    if (!S_ISREG(before.st_mode) || before.st_uid != geteuid()) return Lock::held;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return errno == ENOENT ? Lock::absent : Lock::held;
    struct stat st {};
    const bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
                      st.st_dev == before.st_dev && st.st_ino == before.st_ino;
    const bool free_lock = same && flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
    if (mtime) *mtime = st.st_mtime;
    return free_lock ? Lock::free : Lock::held;
}

/// True when a file's modification time `mtime` lies more than
/// stale_fresh_seconds in the past.
bool old_enough(std::time_t mtime) { return std::time(nullptr) - mtime > stale_fresh_seconds; }

/// True when the stale working directory `dir` (a directory of this user) may
/// be removed: its lock is free, or it has no lock but a free `lock.new` older
/// than stale_fresh_seconds (a run killed between creating its lock and
/// locking it; a live run locks it within microseconds).
bool workdir_is_stale(const fs::path& dir) {
    switch (lock_state(dir / lock_name)) {
        case Lock::free: return true;
        case Lock::held: return false;
        case Lock::absent: break;
    }
    std::time_t mtime = 0;
    return lock_state(dir / fresh_lock_name, &mtime) == Lock::free && old_enough(mtime);
}
#else
/// True when the file at `lock` exists and no process has it open.
bool lock_is_free(const fs::path& lock) {
    HANDLE h = CreateFileW(lock.wstring().c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) return false;  // held (sharing violation) or absent
    CloseHandle(h);
    return true;
}
#endif

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

fs::path probe_name_for(const fs::path& dir) {
    return dir / fmt::format(".probe{}{}{}", partial_marker, unique_tag(), fresh_suffix);
}

std::string probe_directory(const fs::path& dir) {
    const fs::path probe = probe_name_for(dir);
#ifdef _WIN32
    HANDLE h = CreateFileW(probe.wstring().c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
    if (h == INVALID_HANDLE_VALUE)
        return std::error_code(static_cast<int>(GetLastError()), std::system_category()).message();
    CloseHandle(h);
#else
    const int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return std::error_code(errno, std::generic_category()).message();
    close(fd);
    unlink(probe.c_str());
#endif
    return "";
}

std::string shared_directory_note(const fs::path& dir, std::string_view option) {
#ifdef _WIN32
    (void)dir;
    (void)option;
    return "";
#else
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "";
    std::string why;
    if (st.st_uid != geteuid() && st.st_uid != 0) why = fmt::format("it belongs to another user (uid {})", st.st_uid);
    if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
        why += fmt::format("{}every user may write to it and it is not sticky (mode {:o})", why.empty() ? "" : "; ",
                           st.st_mode & 07777);
    if (why.empty()) return "";
    return fmt::format("iobench: warning: {} {}: {}: another user can replace or remove the files iobench writes "
                       "there\n",
                       option, dir.string(), why);
#endif
}

WorkDir::WorkDir(const fs::path& base) {
    std::error_code ec;
    for (int attempt = 0;; ++attempt) {
        path_ = base / fmt::format("{}{}", dir_prefix, unique_tag());
#ifdef _WIN32
        if (fs::create_directory(path_, ec)) break;
#else
        // Only this user may create files in it: nothing can be planted
        // there by others, whatever the umask.
        if (mkdir(path_.c_str(), 0700) == 0) break;
        if (errno != EEXIST) ec = std::error_code(errno, std::generic_category());
#endif
        if (ec || attempt == 100)
            throw std::system_error(ec ? ec : std::make_error_code(std::errc::file_exists),
                                    fmt::format("cannot create a directory in {}", base.string()));
    }
    remove_on_interrupt(path_);
    lock_path_ = path_ / lock_name;
    // The lock file appears under its final name only once it is locked, so
    // that a later run never sees it unlocked while this one lives.
    const fs::path fresh = path_ / fresh_lock_name;
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
    fs::remove(path_ / fresh_lock_name, ec);
    forget_on_interrupt(lock_path_);
    if (!keep_) {
        fs::remove_all(path_, ec);
        forget_on_interrupt(path_);
    }
}

std::vector<StaleEntry> remove_stale(const fs::path& dir, std::vector<fs::path>* others) {
    std::vector<StaleEntry> removed;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) return removed;
    for (const fs::directory_entry& entry : it) {
        const std::string name = entry.path().filename().string();
        std::error_code e;
        const bool is_dir = name.starts_with(dir_prefix);
        std::optional<long> pid;
        bool fresh = false;  // a temporary results file not yet locked (.new)
        if (is_dir) {
            pid = parse_tag(std::string_view(name).substr(dir_prefix.size()), "");
        } else if (name.starts_with(".")) {
            const auto at = name.rfind(partial_marker);
            if (at == std::string::npos) continue;
            const std::string_view tag = std::string_view(name).substr(at + partial_marker.size());
            pid = parse_tag(tag, partial_suffix);
            if (!pid) {
                pid = parse_tag(tag, fresh_suffix);
                fresh = pid.has_value();
            }
        }
        if (!pid || *pid == own_pid()) continue;
#ifdef _WIN32
        if (is_dir) {
            if (!entry.is_directory(e) || entry.is_symlink(e) || !lock_is_free(entry.path() / lock_name)) continue;
        } else {
            // The writer holds the file open without sharing until it renames
            // it, and closes it just before: its process must be gone too.
            if (!entry.is_regular_file(e) || process_alive(*pid) || !lock_is_free(entry.path())) continue;
        }
        (void)fresh;
        (void)others;
#else
        // Nothing is followed or opened before lstat says what it is; what
        // another user owns is theirs to remove.
        struct stat st {};
        if (lstat(entry.path().c_str(), &st) != 0) continue;
        if (is_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) continue;
        if (st.st_uid != geteuid()) {
            if (others) others->push_back(entry.path());
            continue;
        }
        // The writer holds a lock on its file while it lives, whatever its
        // process id means here (another PID namespace, NFS).
        if (is_dir) {
            if (!workdir_is_stale(entry.path())) continue;
        } else {
            std::time_t mtime = 0;
            if (lock_state(entry.path(), &mtime) != Lock::free || (fresh && !old_enough(mtime))) continue;
        }
#endif
        if (is_dir)
            fs::remove_all(entry.path(), e);
        else
            fs::remove(entry.path(), e);
        if (!e) removed.push_back({entry.path(), *pid});
    }
    return removed;
}

std::string left_alone_note(const fs::path& dir, const std::vector<fs::path>& others) {
    if (others.empty()) return "";
    static std::set<std::string> said;  // once per directory: --dir and the results directory may be one
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(dir, ec);
    if (!said.insert((ec ? dir : canonical).string()).second) return "";
    return fmt::format("iobench: left {} alone in {}: {} of another user (only their own runs remove them)\n",
                       others.size() == 1 ? others[0].filename().string()
                                          : fmt::format("{} and {} more", others[0].filename().string(),
                                                        others.size() - 1),
                       dir.string(), others.size() == 1 ? "it is" : "they are");
}

}  // namespace iobench
