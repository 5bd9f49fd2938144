// Errors reported by methods and workloads: part of the method contract
// (iobench/method.hpp), with what a method needs to explain one.
#pragma once

#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include <iobench/api.hpp>

namespace iobench {

/// An operating-system I/O call failed (open, write, read, close, ...).
/// `what()` names the call, the path and the system's message, e.g.
/// "write(/tmp/x/out.txt): No space left on device".
class io_error : public std::system_error {
public:
    /// `call` is the function that failed, `path` the file it worked on,
    /// `code` the error it returned (errno on POSIX, GetLastError() on Windows).
    io_error(const std::string& call, const std::string& path, std::error_code code)
        : std::system_error(code, call + "(" + path + ")") {}
};

/// Input that a reader could not parse (a method reading integers met a
/// character that is not a digit or white space, say).
class parse_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The method cannot run here, for a reason found only at run time: the file
/// system refuses O_DIRECT, the kernel refuses io_uring or huge pages. The
/// runner reports the benchmark as skipped with `what()` ("O_DIRECT not
/// supported by tmpfs"), not as failed.
class unavailable_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Type of the file system holding `dir` ("ext4", "tmpfs", "NTFS", ...), or
/// "unknown": for an `unavailable_error` that names the file system refusing a
/// call (O_DIRECT, huge pages), and for the results' `target_filesystem`.
/// Linux: the longest matching mount point of /proc/self/mountinfo; Windows:
/// GetVolumeInformationW of the path's root.
IOBENCH_API std::string filesystem_type(const std::filesystem::path& dir);

/// Throws `io_error` for `call` on `path` with the calling thread's errno.
[[noreturn]] inline void throw_errno(const std::string& call, const std::string& path) {
    throw io_error(call, path, std::error_code(errno, std::generic_category()));
}

}  // namespace iobench
