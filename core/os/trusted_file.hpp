// Code iobench runs but did not build in this process (a plugin, a program
// method's file, valgrind): the file it names, checked before it runs, as
// sudo, ssh (StrictModes) and git (safe.directory) check what they run.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace iobench {

/// Why another user than the caller and root could change the file at
/// `path` or what it names: the file or a directory above it belongs to
/// another user, or another user may write to it (every user: mode o+w; a
/// group with a member other than the caller: g+w; on Linux, a POSIX ACL
/// entry that lets another user, or such a group, write: the
/// `system.posix_acl_access` attribute, its mask applied). An every-user directory
/// with the sticky bit (/tmp's 1777) is allowed: others cannot replace what
/// the caller or root owns in it. `path` is resolved first (its links
/// followed: the check is of the file that runs), and the directory holding
/// each symbolic link on the way is checked too. Returns "" when no one
/// else can change it, else the reason, naming the path and its owner
/// ("the directory /tmp/libexec belongs to user u2 (uid 1001)"). On Windows
/// "" (its DACLs are not read; docs/reliability.md says so); on POSIX
/// systems other than Linux the ACLs are not read.
std::string writable_by_others(const std::filesystem::path& path);

/// The name of the user owning `path` ("root", or "uid 1001" without a
/// name), or "" where it cannot be told (Windows).
std::string owner_of(const std::filesystem::path& path);

/// A file of code from elsewhere, opened once: its path with every link
/// resolved, its owner, and an open descriptor (POSIX) or handle (Windows,
/// opened without write or delete sharing, so the file cannot change while it
/// is held). What is hashed and loaded is read through it, never through the
/// path again. Move-only; closes on destruction.
class TrustedFile {
public:
    /// Opens `given` as code `what` ("--plugin", "program go_bufio.Writer",
    /// "valgrind"): throws usage_error (exit status 2, one line naming `what`,
    /// the path and the reason) when it does not exist, is not a regular file,
    /// or writable_by_others() says another user could change it.
    TrustedFile(const std::filesystem::path& given, std::string_view what);
    TrustedFile(TrustedFile&& other) noexcept;
    TrustedFile& operator=(TrustedFile&&) = delete;
    TrustedFile(const TrustedFile&) = delete;
    ~TrustedFile();

    /// The file, every link resolved (absolute).
    const std::filesystem::path& path() const { return path_; }
    /// owner_of(path()).
    const std::string& owner() const { return owner_; }
    /// The open descriptor (POSIX; -1 on Windows).
    int fd() const { return fd_; }
    /// A path that names the open file itself, not its directory entry:
    /// /proc/self/fd/N on Linux, else path().
    std::filesystem::path open_file_path() const;
    /// SHA-256 of the content, read through the descriptor (handle) from its
    /// start, as lower-case hex. Throws usage_error naming `what` when it
    /// cannot be read.
    std::string sha256() const;

private:
    std::filesystem::path path_;
    std::string owner_;
    std::string what_;
    int fd_ = -1;
    void* handle_ = nullptr;
};

}  // namespace iobench
