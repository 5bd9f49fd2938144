// Code from elsewhere (core/os/trusted_file.hpp): the file opened is the
// file hashed and loaded, whatever its path names afterwards; what another
// user could change is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/os/trusted_file.hpp"
#include "core/os/usage_error.hpp"

#ifndef _WIN32
#include <sys/stat.h>
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

std::string read(const fs::path& path) {
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

}  // namespace
}  // namespace iobench
