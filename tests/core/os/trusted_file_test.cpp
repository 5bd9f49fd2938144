// Code from elsewhere (core/os/trusted_file.hpp): the file opened is the
// file hashed and loaded, whatever its path names afterwards; what another
// user could change is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <cerrno>
#include <cstdint>

#include "core/os/trusted_file.hpp"
#include "core/os/usage_error.hpp"

#ifndef _WIN32
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif
#ifdef __linux__
#include <fcntl.h>
#include <grp.h>
#include <sys/xattr.h>
#endif

namespace iobench {
namespace {

namespace fs = std::filesystem;

/// A directory of this test's own under the system's temporary directory, removed at the end.
struct TempDir {
    fs::path path = fs::temp_directory_path() / ("iobench-trusted-" + std::to_string(
#ifdef _WIN32
                                                                           ::testing::UnitTest::GetInstance()->random_seed()
#else
                                                                           ::getpid()
#endif
                                                                               ));
    TempDir() {
        fs::remove_all(path);
        fs::create_directory(path);
        fs::permissions(path, fs::perms::owner_all);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

void write(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

[[maybe_unused]] std::string read(const fs::path& path) {  // (used by the POSIX tests only)
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// SHA-256 of "first\n" and of "second\n" (sha256sum).
constexpr const char* sha_first = "b640e840b19d378660b32fb51ae18d67dccb4a8596a29e7bd72c1b2ae5928f41";
constexpr const char* sha_second = "480c2336b410f1ad5f8bf1b28944490255804b65350c527787e74ebdd511e3a4";

TEST(TrustedFile, HashesTheFileOpenedAndItsPathIsResolved) {
    TempDir dir;
    write(dir.path / "plugin.so", "first\n");
    fs::create_directory(dir.path / "sub");
    const TrustedFile file(dir.path / "sub" / ".." / "plugin.so", "--plugin");
    EXPECT_EQ(file.path(), fs::canonical(dir.path / "plugin.so"));
    EXPECT_EQ(file.sha256(), sha_first);
    EXPECT_EQ(file.sha256(), sha_first) << "hashed again from the start";
}

#ifndef _WIN32
TEST(TrustedFile, WhatIsReadThroughItIsTheFileOpenedAfterThePathIsReplaced) {
    TempDir dir;
    write(dir.path / "plugin.so", "first\n");
    const TrustedFile file(dir.path / "plugin.so", "--plugin");
    write(dir.path / "new.so", "second\n");
    fs::rename(dir.path / "new.so", dir.path / "plugin.so");  // what `mv` does while iobench hashes
    ASSERT_EQ(read(dir.path / "plugin.so"), "second\n");
    EXPECT_EQ(file.sha256(), sha_first);
    EXPECT_EQ(read(file.open_file_path()), "first\n") << "the path a plugin is loaded through: " << file.open_file_path();
    EXPECT_NE(file.open_file_path(), file.path());
}

TEST(TrustedFile, RefusesWhatAnotherUserCouldChange) {
    TempDir dir;
    const fs::path plugin = dir.path / "plugin.so";
    write(plugin, "first\n");
    ASSERT_EQ(::chmod(plugin.c_str(), 0644), 0);
    EXPECT_EQ(writable_by_others(plugin), "");
    EXPECT_NO_THROW(TrustedFile(plugin, "--plugin"));

    ASSERT_EQ(::chmod(plugin.c_str(), 0646), 0);
    EXPECT_EQ(writable_by_others(plugin), "every user may write to the file " + plugin.string() + " (mode 646)");
    try {
        TrustedFile refused(plugin, "--plugin");
        ADD_FAILURE() << "a file every user may write to was opened";
    } catch (const usage_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("--plugin " + plugin.string() + ": refused: every user may write to the "
                                              "file ",
                                              0),
                  0u)
            << e.what();
    }
    ASSERT_EQ(::chmod(plugin.c_str(), 0644), 0);
    ASSERT_EQ(::chmod(dir.path.c_str(), 0777), 0);
    EXPECT_EQ(writable_by_others(plugin),
              "every user may write to the directory " + dir.path.string() + " (mode 777)");
    ASSERT_EQ(::chmod(dir.path.c_str(), 01777), 0);  // /tmp's mode: others cannot replace the file
    EXPECT_EQ(writable_by_others(plugin), "");
    ASSERT_EQ(::chmod(dir.path.c_str(), 0700), 0);

    // A link to it in a directory every user may write to: the link can be
    // pointed elsewhere, though the file it names now is safe.
    const fs::path shared = dir.path / "shared";
    fs::create_directory(shared);
    ASSERT_EQ(::chmod(shared.c_str(), 0777), 0);
    fs::create_symlink(plugin, shared / "link.so");
    EXPECT_EQ(writable_by_others(shared / "link.so"), "every user may write to the directory " + shared.string() +
                                                          " (mode 777) (it holds the link " +
                                                          (shared / "link.so").string() + ")");
    EXPECT_THROW(TrustedFile(shared / "link.so", "--plugin"), usage_error);
    // A link to its directory there: the path goes through it.
    fs::create_directory_symlink(dir.path, shared / "dir");
    EXPECT_EQ(writable_by_others(shared / "dir" / "plugin.so"),
              "every user may write to the directory " + shared.string() + " (mode 777) (it holds the link " +
                  (shared / "dir").string() + ")");
}

TEST(TrustedFile, RefusesWhatIsNoRegularFile) {
    TempDir dir;
    EXPECT_THROW(TrustedFile(dir.path / "missing.so", "--plugin"), usage_error);
    EXPECT_THROW(TrustedFile(dir.path, "--plugin"), usage_error);
    ASSERT_EQ(::mkfifo((dir.path / "fifo").c_str(), 0600), 0);
    try {
        TrustedFile refused(dir.path / "fifo", "valgrind");  // opened without blocking
        ADD_FAILURE() << "a FIFO was opened";
    } catch (const usage_error& e) {
        EXPECT_NE(std::string(e.what()).find("is a FIFO, not a regular file"), std::string::npos) << e.what();
    }
}
#else
TEST(TrustedFile, TheFileCannotBeReplacedWhileItIsHeld) {
    TempDir dir;
    write(dir.path / "plugin.dll", "first\n");
    {
        const TrustedFile file(dir.path / "plugin.dll", "--plugin");
        write(dir.path / "new.dll", "second\n");
        std::error_code ec;
        fs::rename(dir.path / "new.dll", dir.path / "plugin.dll", ec);
        EXPECT_TRUE(ec) << "replaced while held without delete sharing";
        EXPECT_EQ(file.sha256(), sha_first);
    }
}
#endif

#ifdef __linux__
/// One entry of a POSIX ACL: its tag (ACL_USER 0x02, ACL_GROUP 0x08, ...),
/// permissions (r 4, w 2, x 1) and id.
struct AclEntry {
    unsigned tag, permissions;
    std::uint32_t id;
};

/// Sets `path`'s access ACL to the owner's, the owning group's and others'
/// entries of `mode` plus `extra` and a mask of `mask` (setfacl's work, as
/// the `system.posix_acl_access` attribute). False when the file system
/// keeps no ACLs.
bool set_acl(const fs::path& path, unsigned mode, std::vector<AclEntry> extra, unsigned mask) {
    constexpr std::uint32_t undefined = 0xffffffff;
    std::vector<AclEntry> entries = {{0x01, mode >> 6 & 7, undefined}};
    for (const AclEntry& e : extra)
        if (e.tag == 0x02) entries.push_back(e);
    entries.push_back({0x04, mode >> 3 & 7, undefined});
    for (const AclEntry& e : extra)
        if (e.tag == 0x08) entries.push_back(e);
    entries.push_back({0x10, mask, undefined});
    entries.push_back({0x20, mode & 7, undefined});
    std::string value;
    const auto put = [&](std::uint32_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) value += static_cast<char>(v >> (8 * i) & 0xff);
    };
    put(2, 4);
    for (const AclEntry& e : entries) {
        put(e.tag, 2);
        put(e.permissions, 2);
        put(e.id, 4);
    }
    if (::setxattr(path.c_str(), "system.posix_acl_access", value.data(), value.size(), 0) == 0) return true;
    EXPECT_EQ(errno, ENOTSUP) << path;
    return false;
}

/// True when user `uid` (group `uid`, no other groups) can open `path` for
/// writing: tried in a child process that takes that user (root only).
bool user_can_write(const fs::path& path, uid_t uid) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::setgroups(0, nullptr) != 0 || ::setresgid(uid, uid, uid) != 0 || ::setresuid(uid, uid, uid) != 0)
            ::_exit(2);
        ::_exit(::open(path.c_str(), O_WRONLY | O_APPEND) >= 0 ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// setfacl -m u:OTHER:rw on a file of mode 644 in the caller's directory:
// owner and mode bits clean, yet another user may write it (round five of
// the attacks, docs/reliability.md).
TEST(TrustedFile, RefusesWhatAnAclLetsAnotherUserWrite) {
    TempDir dir;
    ASSERT_EQ(::chmod(dir.path.c_str(), 0755), 0);
    const fs::path plugin = dir.path / "plugin.so";
    write(plugin, "first\n");
    ASSERT_EQ(::chmod(plugin.c_str(), 0644), 0);
    constexpr std::uint32_t other = 12345;
    if (!set_acl(plugin, 0644, {{0x02, 6, other}}, 6)) GTEST_SKIP() << "no POSIX ACLs on " << dir.path;
    if (::geteuid() == 0) {
        ASSERT_TRUE(user_can_write(plugin, other)) << "the ACL does not let uid 12345 write";
    }
    const std::string why = "the ACL of the file " + plugin.string() + " lets uid 12345 write to it";
    EXPECT_EQ(writable_by_others(plugin), why);
    try {
        TrustedFile refused(plugin, "--plugin");
        ADD_FAILURE() << "a file an ACL lets another user write to was opened";
    } catch (const usage_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("--plugin " + plugin.string() + ": refused: " + why, 0), 0u) << e.what();
    }
    // The mask takes write away: no one else may write.
    ASSERT_TRUE(set_acl(plugin, 0644, {{0x02, 6, other}}, 4));
    if (::geteuid() == 0) {
        EXPECT_FALSE(user_can_write(plugin, other));
    }
    EXPECT_EQ(writable_by_others(plugin), "");
    // The caller's own entry, and root's, are no one else's.
    ASSERT_TRUE(set_acl(plugin, 0644, {{0x02, 6, static_cast<std::uint32_t>(::geteuid())}, {0x02, 6, 0}}, 6));
    EXPECT_EQ(writable_by_others(plugin), "");
    // A group's entry: a group that is not the caller's.
    ASSERT_TRUE(set_acl(plugin, 0644, {{0x08, 6, 54321}}, 6));
    EXPECT_EQ(writable_by_others(plugin), "the ACL of the file " + plugin.string() +
                                              " lets the group (gid 54321) write to it");
    ASSERT_TRUE(set_acl(plugin, 0644, {}, 4));

    // setfacl -m u:OTHER:rwx on its directory: the file can be replaced.
    ASSERT_TRUE(set_acl(dir.path, 0755, {{0x02, 7, other}}, 7));
    if (::geteuid() == 0) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            if (::setgroups(0, nullptr) != 0 || ::setresgid(other, other, other) != 0 ||
                ::setresuid(other, other, other) != 0)
                ::_exit(2);
            ::_exit(::rename(plugin.c_str(), (dir.path / "moved.so").c_str()) == 0 &&
                            ::rename((dir.path / "moved.so").c_str(), plugin.c_str()) == 0
                        ? 0
                        : 1);
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "uid 12345 could not replace the file";
    }
    EXPECT_EQ(writable_by_others(plugin),
              "the ACL of the directory " + dir.path.string() + " lets uid 12345 write to it");
    EXPECT_THROW(TrustedFile(plugin, "--plugin"), usage_error);
    // A sticky directory (/tmp's): others may write in it, not replace what is ours.
    ASSERT_EQ(::chmod(dir.path.c_str(), 01755), 0);
    ASSERT_TRUE(set_acl(dir.path, 0755, {{0x02, 7, other}}, 7));
    struct stat st {};
    ASSERT_EQ(::stat(dir.path.c_str(), &st), 0);
    ASSERT_TRUE(st.st_mode & S_ISVTX);
    EXPECT_EQ(writable_by_others(plugin), "");
}
#endif

}  // namespace
}  // namespace iobench
