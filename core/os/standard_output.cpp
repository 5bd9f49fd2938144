#include "core/os/standard_output.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <iostream>

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace iobench {

std::string flush_stdout() {
    std::cout.flush();
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    const int err = errno;
    if (flushed && std::cout.good() && !std::ferror(stdout)) return "";
    return err != 0 ? std::error_code(err, std::generic_category()).message() : "a write failed";
}

std::error_code write_all_to(int fd, std::string_view text) {
#ifndef _WIN32
    struct sigaction ignore {};
    struct sigaction previous {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &previous);
#endif
    std::error_code error;
    const char* p = text.data();
    const char* const end = p + text.size();
    while (p < end) {
#ifdef _WIN32
        const int n = _write(fd, p, static_cast<unsigned>(std::min<std::size_t>(end - p, 1u << 30)));
#else
        const ssize_t n = write(fd, p, static_cast<std::size_t>(end - p));
        if (n < 0 && errno == EINTR) continue;
#endif
        if (n <= 0) {
            error = std::error_code(n < 0 ? errno : EIO, std::generic_category());
            break;
        }
        p += n;
    }
#ifndef _WIN32
    sigaction(SIGPIPE, &previous, nullptr);
#endif
    return error;
}

std::error_code write_stdout(std::string_view text) {
    if (const std::string failed = flush_stdout(); !failed.empty()) return std::make_error_code(std::errc::io_error);
    return write_all_to(1, text);
}

}  // namespace iobench
