#include "core/report/results_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <system_error>

#include <iobench/error.hpp>
#include "core/os/cleanup.hpp"
#include "core/os/workdir.hpp"

#ifdef _WIN32
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#endif

namespace iobench {

namespace fs = std::filesystem;

namespace {

/// `<stem>-n<ext>` next to `target` (n >= 2), or `target` itself for n == 1.
fs::path numbered(const fs::path& target, int n) {
    if (n == 1) return target;
    return target.parent_path() /
           fmt::format("{}-{}{}", target.stem().string(), n, target.extension().string());
}

#ifdef _WIN32
[[noreturn]] void throw_last_error(const std::string& call, const fs::path& path) {
    throw io_error(call, path.string(), std::error_code(static_cast<int>(GetLastError()), std::system_category()));
}

void write_temporary(const fs::path& temp, std::string_view bytes) {
    HANDLE h = CreateFileW(temp.wstring().c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL,
                           nullptr);
    if (h == INVALID_HANDLE_VALUE) throw_last_error("CreateFile", temp);
    remove_on_interrupt(temp);
    std::size_t done = 0;
    while (done < bytes.size()) {
        const DWORD want = static_cast<DWORD>(std::min<std::size_t>(bytes.size() - done, 1u << 30));
        DWORD wrote = 0;
        if (!WriteFile(h, bytes.data() + done, want, &wrote, nullptr) || wrote == 0) {
            const DWORD err = GetLastError();
            CloseHandle(h);
            SetLastError(err);
            throw_last_error("WriteFile", temp);
        }
        done += wrote;
    }
    if (!FlushFileBuffers(h)) {
        const DWORD err = GetLastError();
        CloseHandle(h);
        SetLastError(err);
        throw_last_error("FlushFileBuffers", temp);
    }
    if (!CloseHandle(h)) throw_last_error("CloseHandle", temp);
}

/// Gives `temp` the name `target`; false when `target` exists and may not be replaced.
bool take_name(const fs::path& temp, const fs::path& target, bool replace) {
    const DWORD flags = MOVEFILE_WRITE_THROUGH | (replace ? MOVEFILE_REPLACE_EXISTING : 0);
    if (MoveFileExW(temp.wstring().c_str(), target.wstring().c_str(), flags)) return true;
    const DWORD err = GetLastError();
    if (!replace && (err == ERROR_ALREADY_EXISTS || err == ERROR_FILE_EXISTS)) return false;
    throw_last_error("MoveFileEx", target);
}
#else
/// The temporary file, locked (flock) for as long as it is open: another run
/// that finds it (remove_stale) leaves it alone until this process has closed
/// it or died, whatever process ids say (another PID namespace, another
/// machine on NFS).
class LockedTemporary {
public:
    /// Creates `temp`, locked: under another name first, which gets the
    /// name `temp` only once the lock is held, so `temp` is never seen unlocked.
    explicit LockedTemporary(const fs::path& temp) {
        const fs::path fresh = fs::path(temp).replace_extension(".new");
        fd_ = open(fresh.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd_ < 0) throw_errno("open", fresh.string());
        remove_on_interrupt(fresh);
        // The call that failed is the one named (a failed flock
        // was reported as a failed rename).
        const char* failed = flock(fd_, LOCK_EX | LOCK_NB) != 0             ? "flock"
                             : rename(fresh.c_str(), temp.c_str()) != 0 ? "rename"
                                                                          : nullptr;
        if (failed) {
            const int err = errno;
            close(fd_);
            unlink(fresh.c_str());
            forget_on_interrupt(fresh);
            throw io_error(failed, std::string(failed) == "flock" ? fresh.string() : temp.string(),
                           std::error_code(err, std::generic_category()));
        }
        remove_on_interrupt(temp);
        forget_on_interrupt(fresh);
    }
    ~LockedTemporary() { close(fd_); }
    LockedTemporary(const LockedTemporary&) = delete;
    LockedTemporary& operator=(const LockedTemporary&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

void write_temporary(const LockedTemporary& file, const fs::path& temp, std::string_view bytes) {
    const int fd = file.fd();
    auto fail = [&](const char* call) {
        throw io_error(call, temp.string(), std::error_code(errno, std::generic_category()));
    };
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = EIO;
            fail("write");
        }
        done += static_cast<std::size_t>(n);
    }
    if (fsync(fd) != 0) fail("fsync");
}

/// Gives `temp` the name `target`; false when `target` exists and may not be replaced.
bool take_name(const fs::path& temp, const fs::path& target, bool replace) {
    if (replace) {
        if (rename(temp.c_str(), target.c_str()) != 0) throw_errno("rename", target.string());
        return true;
    }
    // link(2) fails with EEXIST instead of replacing; the temporary name is
    // removed afterwards.
    if (link(temp.c_str(), target.c_str()) == 0) {
        unlink(temp.c_str());
        return true;
    }
    if (errno == EEXIST) return false;
#ifdef RENAME_NOREPLACE
    // File systems without hard links (FAT, some FUSE): rename, never replacing.
    if (errno == EPERM || errno == EOPNOTSUPP || errno == ENOTSUP || errno == ENOSYS || errno == EMLINK) {
        if (renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) return true;
        if (errno == EEXIST) return false;
    }
#endif
    throw_errno("link", target.string());
}

void sync_directory(const fs::path& dir) {
    const int fd = open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    fsync(fd);  // best effort: the file itself is on the device already
    close(fd);
}
#endif

}  // namespace

std::string not_a_regular_file(const fs::path& path) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(path, ec);
    if (ec || !fs::exists(st) || fs::is_regular_file(st)) return "";
    switch (st.type()) {
        case fs::file_type::symlink: return "a symbolic link";
        case fs::file_type::directory: return "a directory";
        case fs::file_type::character: return "a character device";
        case fs::file_type::block: return "a block device";
        case fs::file_type::fifo: return "a FIFO";
        case fs::file_type::socket: return "a socket";
        default: return "not a regular file";
    }
}

fs::path publish_file(const fs::path& target, std::string_view bytes, Existing existing) {
    const fs::path temp = temporary_name_for(target);
    try {
#ifdef _WIN32
        write_temporary(temp, bytes);
#else
        // Locked until the file has its name (and closed after: a close that
        // fails cannot lose what fsync has put on the device).
        const LockedTemporary file(temp);
        write_temporary(file, temp, bytes);
#endif
        for (int n = 1;; ++n) {
            const fs::path name = numbered(target, n);
            // (Existing::number never replaces anything: it takes the next name.)
            if (const std::string what = existing == Existing::replace ? not_a_regular_file(name) : "";
                !what.empty())
                throw std::runtime_error(fmt::format("{} is {}: results go to a regular file only", name.string(), what));
            if (take_name(temp, name, existing == Existing::replace)) {
                forget_on_interrupt(temp);
#ifndef _WIN32
                sync_directory(target.parent_path());
#endif
                return name;
            }
        }
    } catch (...) {
        std::error_code ec;
        fs::remove(temp, ec);
        forget_on_interrupt(temp);
        throw;
    }
}

}  // namespace iobench
