// Every run works in a directory of its own, `<base>/iobench-<pid>-<hex>`,
// locked while the run lives. Two runs on the same --dir never share a file,
// and what a run killed by SIGKILL (or a crash) left is recognised by the next
// run: its lock is free. The same goes for the temporary results files
// (`.<name>.iobench-<pid>-<hex>.partial`), locked by their writer.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace iobench {

/// A fresh working directory `<base>/iobench-<pid>-<8 hex digits>` holding a
/// file `lock` that this process keeps locked (flock on POSIX; on Windows the
/// file is held open without sharing). Registered for removal on interrupt.
class WorkDir {
public:
    /// Creates the directory and its lock under `base` (which must exist).
    /// Throws std::system_error naming `base` when it cannot.
    explicit WorkDir(const std::filesystem::path& base);
    /// Releases the lock. Removes the directory with everything in it, unless
    /// keep() was called: then only the lock file goes, so that no later run
    /// takes the kept directory for a stale one.
    ~WorkDir();
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    /// Keep the directory and its files when this object is destroyed (--keep-files).
    void keep() { keep_ = true; }

private:
    void release();

    std::filesystem::path path_;
    std::filesystem::path lock_path_;
    bool keep_ = false;
#ifdef _WIN32
    void* lock_ = nullptr;  // HANDLE
#else
    int lock_ = -1;
#endif
};

/// What remove_stale() removed.
struct StaleEntry {
    std::filesystem::path path;
    long pid = 0;  ///< the process that created it, which no longer runs
};

/// A lock file that is not locked yet may be this young (in seconds) and
/// still belong to a live run: between creating `lock.new` (or a temporary
/// results file's `.new` name) and locking it, a run takes microseconds;
/// remove_stale() removes such a file only once it is older than this.
inline constexpr long stale_fresh_seconds = 60;

/// Removes, in `dir`, the working directories of runs that no longer hold
/// their lock and the temporary results files no writer holds any more (on
/// Windows: also of a process that no longer runs); returns them. A working
/// directory holding only an unlocked `lock.new`, and a temporary results file
/// still named `.new`, are removed once older than stale_fresh_seconds (a run
/// killed before it locked them). Entries of live runs, kept directories (no
/// lock file) and files not named by iobench are never touched. On POSIX
/// nothing is followed or opened before `lstat` says it is a directory or
/// regular file of this user; a lock is opened with O_NOFOLLOW|O_NONBLOCK and
/// checked with fstat, so a planted FIFO, device or link neither blocks nor
/// is followed. Entries named by iobench that another user owns are left
/// alone and added to `others` (when given). Errors are ignored (the entry
/// stays).
std::vector<StaleEntry> remove_stale(const std::filesystem::path& dir,
                                     std::vector<std::filesystem::path>* others = nullptr);

/// One line saying that `others` (entries of other users found by
/// remove_stale() in `dir`) were left alone; empty when there are none.
std::string left_alone_note(const std::filesystem::path& dir, const std::vector<std::filesystem::path>& others);

/// A name for a temporary file next to `target`, unique to this process and
/// call: `.<target name>.iobench-<pid>-<8 hex digits>.partial`.
std::filesystem::path temporary_name_for(const std::filesystem::path& target);

/// The name of the file probe_directory() creates in `dir`:
/// `.probe.iobench-<pid>-<8 hex digits>.new`. Named like a temporary file not
/// yet locked, so that another run's remove_stale() leaves it while it is young
/// (a `.partial` name would be taken for a dead writer's: it is not locked).
std::filesystem::path probe_name_for(const std::filesystem::path& dir);

/// Creates a file in `dir` and removes it again, to learn whether files can be
/// created there: exclusively (O_CREAT|O_EXCL, which follows no link), under
/// probe_name_for(dir). Returns "" when it could, else the system's reason
/// ("Permission denied", "No space left on device").
std::string probe_directory(const std::filesystem::path& dir);

/// A warning line when another user can replace or remove files in `dir`:
/// it belongs to another user (not root), or every user may write to it and it
/// is not sticky (mode 0777 rather than /tmp's 1777). Empty otherwise, and on
/// Windows. `option` names where `dir` came from ("--results-dir").
std::string shared_directory_note(const std::filesystem::path& dir, std::string_view option);

/// True when process `pid` runs (or may run: it exists but belongs to another user).
bool process_alive(long pid);

}  // namespace iobench
