#include "core/os/trusted_file.hpp"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <system_error>
#include <vector>

#include "core/os/usage_error.hpp"

#ifdef _WIN32
// clang-format off
#include <windows.h>  // before bcrypt.h, which needs its types
#include <bcrypt.h>
// clang-format on
#else
#include <fcntl.h>
#include <grp.h>
#include <openssl/evp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/xattr.h>
#endif
#endif

namespace fs = std::filesystem;

namespace iobench {

namespace {

std::string hex(const unsigned char* bytes, std::size_t size) {
    std::string text;
    for (std::size_t i = 0; i < size; ++i) text += fmt::format("{:02x}", bytes[i]);
    return text;
}

#ifndef _WIN32

/// "user NAME (uid N)", or "uid N" when the user has no name here.
std::string user_text(uid_t uid) {
    std::array<char, 4096> buffer{};
    passwd entry{};
    passwd* found = nullptr;
    if (getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found)
        return fmt::format("user {} (uid {})", found->pw_name, uid);
    return fmt::format("uid {}", uid);
}

/// True when group `gid` may hold a user other than the caller: it is not
/// the caller's own group, or its member list names someone else.
bool group_has_others(gid_t gid) {
    if (gid != getegid()) return true;
    std::array<char, 16384> buffer{};
    group entry{};
    group* found = nullptr;
    if (getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found) != 0 || !found) return true;
    std::array<char, 4096> pw_buffer{};
    passwd me{};
    passwd* mine = nullptr;
    if (getpwuid_r(geteuid(), &me, pw_buffer.data(), pw_buffer.size(), &mine) != 0 || !mine) return true;
    for (char** member = found->gr_mem; *member; ++member)
        if (std::strcmp(*member, mine->pw_name) != 0) return true;
    // Users whose primary group it is are not in its member list.
    bool others = false;
    ::setpwent();
    while (const passwd* user = ::getpwent())
        if (user->pw_gid == gid && user->pw_uid != geteuid()) {
            others = true;
            break;
        }
    ::endpwent();
    return others;
}

/// Why the POSIX ACL of `path` (its `system.posix_acl_access` attribute,
/// read without following a link) lets another user than the caller and
/// root write to it, or "": an ACL_USER entry of another user, or an
/// ACL_GROUP entry of a group with a member other than the caller
/// (group_has_others), whose permissions with the ACL's mask include write.
/// (The owning group's entry is the mode's group bits, checked with the
/// mode.) An ACL that cannot be read or parsed counts as one that lets others
/// write. "" where no ACL is there, or the file system has none; "" on
/// systems other than Linux.
std::string why_acl_lets_others_write(const fs::path& path, const char* kind) {
#ifdef __linux__
    std::array<unsigned char, 4096> acl{};
    const ssize_t size = ::lgetxattr(path.c_str(), "system.posix_acl_access", acl.data(), acl.size());
    if (size < 0) {
        if (errno == ENODATA || errno == ENOTSUP) return "";
        return fmt::format("the ACL of the {} {} cannot be read: {}", kind, path.string(), std::strerror(errno));
    }
    // struct posix_acl_xattr_header {le32 version} then entries
    // {le16 tag, le16 permissions, le32 id} (linux/posix_acl_xattr.h).
    constexpr std::uint32_t acl_version = 2;
    constexpr unsigned acl_user = 0x02, acl_group = 0x08, acl_mask = 0x10;
    constexpr unsigned acl_write = 0x02;
    const auto le16 = [&](std::size_t at) { return static_cast<unsigned>(acl[at] | acl[at + 1] << 8); };
    const auto le32 = [&](std::size_t at) {
        return static_cast<std::uint32_t>(acl[at]) | static_cast<std::uint32_t>(acl[at + 1]) << 8 |
               static_cast<std::uint32_t>(acl[at + 2]) << 16 | static_cast<std::uint32_t>(acl[at + 3]) << 24;
    };
    const auto bytes = static_cast<std::size_t>(size);
    if (bytes < 4 || (bytes - 4) % 8 != 0 || le32(0) != acl_version)
        return fmt::format("the ACL of the {} {} is of a form iobench does not know", kind, path.string());
    unsigned mask = 07;
    for (std::size_t at = 4; at < bytes; at += 8)
        if (le16(at) == acl_mask) mask = le16(at + 2);
    for (std::size_t at = 4; at < bytes; at += 8) {
        const unsigned tag = le16(at);
        if ((tag != acl_user && tag != acl_group) || !(le16(at + 2) & mask & acl_write)) continue;
        const std::uint32_t id = le32(at + 4);
        if (tag == acl_user && id != geteuid() && id != 0)
            return fmt::format("the ACL of the {} {} lets {} write to it", kind, path.string(),
                               user_text(static_cast<uid_t>(id)));
        if (tag == acl_group && group_has_others(static_cast<gid_t>(id)))
            return fmt::format("the ACL of the {} {} lets the group (gid {}) write to it", kind, path.string(), id);
    }
#else
    (void)path;
    (void)kind;
#endif
    return "";
}

/// Why another user could change `st` (the file or directory `path`), or "".
std::string why_changeable(const fs::path& path, const struct stat& st, const char* kind) {
    if (st.st_uid != geteuid() && st.st_uid != 0)
        return fmt::format("the {} {} belongs to {}", kind, path.string(), user_text(st.st_uid));
    const bool sticky_directory = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX);
    if ((st.st_mode & S_IWOTH) && !sticky_directory)
        return fmt::format("every user may write to the {} {} (mode {:o})", kind, path.string(), st.st_mode & 07777);
    if ((st.st_mode & S_IWGRP) && !sticky_directory && group_has_others(st.st_gid))
        return fmt::format("the group (gid {}) of the {} {} may write to it (mode {:o})", st.st_gid, kind,
                           path.string(), st.st_mode & 07777);
    if (!sticky_directory) return why_acl_lets_others_write(path, kind);
    return "";
}

/// Why another user could change the file `file` (every link resolved,
/// `st` its status) or a directory above it, or "".
std::string why_changeable_with_parents(const fs::path& file, const struct stat& st) {
    std::string why = why_changeable(file, st, S_ISDIR(st.st_mode) ? "directory" : "file");
    for (fs::path dir = file.parent_path(); why.empty(); dir = dir.parent_path()) {
        struct stat dst {};
        if (::lstat(dir.c_str(), &dst) != 0)
            return fmt::format("the directory {} cannot be examined: {}", dir.string(), std::strerror(errno));
        why = why_changeable(dir, dst, "directory");
        if (dir == dir.root_path() || dir.empty()) break;
    }
    return why;
}

std::string why_final_links_changeable(fs::path given);

/// Why another user could change where `given` leads: the directories
/// holding each symbolic link on the way, a directory's (`/opt/lnk/bin/x`)
/// or the file's own chain (`/usr/bin/python3` -> `python3.11`: /usr/bin),
/// which canonical() passes over. "" when none.
std::string why_links_changeable(const fs::path& given) {
    fs::path prefix;
    for (const fs::path& part : given) {
        prefix /= part;
        struct stat st {};
        if (prefix == given || ::lstat(prefix.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) continue;
        if (std::string why = why_final_links_changeable(prefix); !why.empty()) return why;
    }
    return why_final_links_changeable(given);
}

/// The chain of links of `given`'s last component.
std::string why_final_links_changeable(fs::path given) {
    std::error_code ec;
    for (int links = 0; links < 40; ++links) {  // Linux's own limit (ELOOP) is 40
        struct stat st {};
        if (::lstat(given.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return "";
        const fs::path dir = fs::canonical(given.parent_path(), ec);
        struct stat dst {};
        if (ec || ::stat(dir.c_str(), &dst) != 0) return "";
        if (std::string why = why_changeable_with_parents(dir, dst); !why.empty())
            return fmt::format("{} (it holds the link {})", why, given.string());
        const fs::path target = fs::read_symlink(given, ec);
        if (ec) return "";
        given = target.is_absolute() ? target : dir / target;
    }
    return "";
}

#endif

}  // namespace

std::string writable_by_others(const fs::path& path) {
#ifdef _WIN32
    (void)path;
    return "";
#else
    std::error_code ec;
    const fs::path file = fs::canonical(path, ec);
    if (ec) return fmt::format("{} cannot be resolved: {}", path.string(), ec.message());
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0)
        return fmt::format("{} cannot be examined: {}", file.string(), std::strerror(errno));
    if (std::string why = why_changeable_with_parents(file, st); !why.empty()) return why;
    return why_links_changeable(fs::absolute(path, ec));
#endif
}

std::string owner_of(const fs::path& path) {
#ifdef _WIN32
    (void)path;
    return "";
#else
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return "";
    std::array<char, 4096> buffer{};
    passwd entry{};
    passwd* found = nullptr;
    if (getpwuid_r(st.st_uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found) return found->pw_name;
    return fmt::format("uid {}", st.st_uid);
#endif
}

TrustedFile::TrustedFile(const fs::path& given, std::string_view what) : what_(what) {
    const auto refuse = [&](const std::string& why) {
        throw usage_error(fmt::format("{} {}: {}", what_, given.string(), why));
    };
    if (given.empty()) throw usage_error(fmt::format("{} '': no path given", what_));
    std::error_code ec;
    // Every link followed (`a/lnk/../b` is where the system finds it, not
    // the lexical a/b), then the file opened and checked through its descriptor.
    path_ = fs::canonical(fs::absolute(given, ec), ec);
    if (ec) refuse(ec == std::errc::no_such_file_or_directory ? std::string("no such file") : ec.message());
#ifdef _WIN32
    const HANDLE h = CreateFileW(path_.wstring().c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                                 FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        const DWORD error = GetLastError();
        if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND) refuse("no such file");
        if (fs::is_directory(path_, ec)) refuse("is a directory, not a regular file");
        refuse("cannot be opened: " + std::error_code(static_cast<int>(error), std::system_category()).message());
    }
    handle_ = h;
    if (GetFileType(h) != FILE_TYPE_DISK || fs::is_directory(path_, ec)) {
        CloseHandle(h);
        handle_ = nullptr;
        refuse("is not a regular file");
    }
#else
    fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) refuse("cannot be opened: " + std::generic_category().message(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        const int error = errno;
        ::close(fd_);
        refuse("cannot be examined: " + std::generic_category().message(error));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd_);
        const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                           : S_ISFIFO(st.st_mode) ? "a FIFO"
                           : S_ISCHR(st.st_mode)  ? "a character device"
                           : S_ISBLK(st.st_mode)  ? "a block device"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                                                  : "of another kind";
        refuse(fmt::format("is {}, not a regular file", kind));
    }
    std::string why = why_changeable_with_parents(path_, st);
    if (why.empty()) why = why_links_changeable(fs::absolute(given, ec));
    if (!why.empty()) {
        ::close(fd_);
        refuse(fmt::format("refused: {}, so another user could change the code iobench would run as {}; make it "
                           "and every directory above it belong to you or root and writable by no one else",
                           why, user_text(geteuid())));
    }
    // The directories are safe now: the path still names the open file
    // unless it changed between open and the checks.
    struct stat now {};
    if (::stat(path_.c_str(), &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
        ::close(fd_);
        refuse("changed while it was being checked");
    }
    owner_ = owner_of(path_);
#endif
}

TrustedFile::TrustedFile(TrustedFile&& other) noexcept
    : path_(std::move(other.path_)), owner_(std::move(other.owner_)), what_(std::move(other.what_)),
      fd_(other.fd_), handle_(other.handle_) {
    other.fd_ = -1;
    other.handle_ = nullptr;
}

TrustedFile::~TrustedFile() {
#ifdef _WIN32
    if (handle_) CloseHandle(static_cast<HANDLE>(handle_));
#else
    if (fd_ >= 0) ::close(fd_);
#endif
}

fs::path TrustedFile::open_file_path() const {
#ifdef __linux__
    if (fd_ >= 0) return fs::path(fmt::format("/proc/self/fd/{}", fd_));
#endif
    return path_;
}

std::string TrustedFile::sha256() const {
    const auto fail = [&](const std::string& why) -> std::string {
        throw usage_error(fmt::format("{} {}: {}", what_, path_.string(), why));
    };
    std::vector<unsigned char> buffer(1 << 16);
#ifdef _WIN32
    const HANDLE file = static_cast<HANDLE>(handle_);
    LARGE_INTEGER start{};
    if (!SetFilePointerEx(file, start, nullptr, FILE_BEGIN)) return fail("cannot be read");
    BCRYPT_ALG_HANDLE alg = nullptr;
    if (!BCRYPT_SUCCESS(BCryptOpenAlgorithmProvider(&alg, BCRYPT_SHA256_ALGORITHM, nullptr, 0)))
        return fail("SHA-256 unavailable (BCryptOpenAlgorithmProvider)");
    const std::unique_ptr<void, void (*)(void*)> close_alg(alg, [](void* a) { BCryptCloseAlgorithmProvider(a, 0); });
    BCRYPT_HASH_HANDLE hash = nullptr;
    if (!BCRYPT_SUCCESS(BCryptCreateHash(alg, &hash, nullptr, 0, nullptr, 0, 0)))
        return fail("SHA-256 unavailable (BCryptCreateHash)");
    const std::unique_ptr<void, void (*)(void*)> destroy_hash(hash, [](void* h) { BCryptDestroyHash(h); });
    for (;;) {
        DWORD got = 0;
        if (!ReadFile(file, buffer.data(), static_cast<DWORD>(buffer.size()), &got, nullptr))
            return fail("cannot be read: " +
                        std::error_code(static_cast<int>(GetLastError()), std::system_category()).message());
        if (got == 0) break;
        if (!BCRYPT_SUCCESS(BCryptHashData(hash, buffer.data(), got, 0))) return fail("SHA-256 failed");
    }
    std::array<unsigned char, 32> digest{};
    if (!BCRYPT_SUCCESS(BCryptFinishHash(hash, digest.data(), static_cast<ULONG>(digest.size()), 0)))
        return fail("SHA-256 failed");
    return hex(digest.data(), digest.size());
#else
    const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) return fail("SHA-256 unavailable");
    for (off_t offset = 0;;) {
        const ssize_t got = ::pread(fd_, buffer.data(), buffer.size(), offset);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return fail("cannot be read: " + std::generic_category().message(errno));
        if (got == 0) break;
        offset += got;
        if (EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<std::size_t>(got)) != 1)
            return fail("SHA-256 failed");
    }
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned size = 0;
    if (EVP_DigestFinal_ex(ctx.get(), digest.data(), &size) != 1) return fail("SHA-256 failed");
    return hex(digest.data(), size);
#endif
}

}  // namespace iobench
