// core/standard_output: every byte reaches the descriptor, and a failure is
// its reason (a full device, a pipe whose reader went away), never the end
// of the process.
#include "core/os/standard_output.hpp"

#include <gtest/gtest.h>
#include <fcntl.h>

#include <csignal>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "test_dir.hpp"

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace iobench {
namespace {

/// 3 MiB of numbered lines: more than a pipe holds, so the writer must loop.
std::string large_text() {
    std::string text;
    for (int i = 0; text.size() < (3u << 20); ++i) text += "line " + std::to_string(i) + "\n";
    return text;
}

TEST(StandardOutput, WritesEveryByteToAFile) {
    test::TempDir dir;
    const std::string path = (dir.path() / "out.txt").string();
    const std::string text = large_text();
#ifdef _WIN32
    const int fd = _open(path.c_str(), _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY, 0600);
#else
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
#endif
    ASSERT_GE(fd, 0);
    const std::error_code error = write_all_to(fd, text);
#ifdef _WIN32
    _close(fd);
#else
    ::close(fd);
#endif
    EXPECT_FALSE(error) << error.message();
    std::ifstream in(path, std::ios::binary);
    const std::string back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(back.size(), text.size());
    EXPECT_TRUE(back == text);
}

#ifndef _WIN32
TEST(StandardOutput, WritesEveryByteThroughAPipeInShortWrites) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const std::string text = large_text();
    std::string got;
    std::thread reader([&] {
        char buf[4096];
        ssize_t n;
        while ((n = ::read(fds[0], buf, sizeof buf)) > 0) got.append(buf, static_cast<std::size_t>(n));
    });
    const std::error_code error = write_all_to(fds[1], text);
    ::close(fds[1]);
    reader.join();
    ::close(fds[0]);
    EXPECT_FALSE(error) << error.message();
    EXPECT_EQ(got.size(), text.size());
    EXPECT_TRUE(got == text);
}

TEST(StandardOutput, AReaderThatWentAwayIsEpipeAndSigpipeIsRestored) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    ::close(fds[0]);  // no reader: a write raises SIGPIPE unless it is ignored
    struct sigaction before {};
    sigaction(SIGPIPE, nullptr, &before);
    const std::error_code error = write_all_to(fds[1], "the summary\n");
    struct sigaction after {};
    sigaction(SIGPIPE, nullptr, &after);
    ::close(fds[1]);
    EXPECT_EQ(error, std::errc::broken_pipe) << error.message();
    EXPECT_EQ(after.sa_handler, before.sa_handler);  // the process's own disposition again
}

#ifdef __linux__
TEST(StandardOutput, AFullDeviceIsEnospc) {
    const int fd = ::open("/dev/full", O_WRONLY);
    if (fd < 0) GTEST_SKIP() << "no /dev/full here";
    const std::error_code error = write_all_to(fd, "the summary\n");
    ::close(fd);
    EXPECT_EQ(error, std::errc::no_space_on_device) << error.message();
}
#endif
#endif

}  // namespace
}  // namespace iobench
