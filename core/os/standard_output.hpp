// Writing iobench's own report to standard output so that every failure is
// seen: a full disk, /dev/full, a reader that went away (| head). The C and
// C++ streams only say that something failed; these say what, and never let
// SIGPIPE end the process while the results are being reported.
#pragma once

#include <string>
#include <string_view>
#include <system_error>

namespace iobench {

/// Flushes std::cout and C's stdout. Returns "" when everything written to
/// them arrived, otherwise the reason the flush failed ("No space left on
/// device", "Broken pipe"; "a write failed" when the library does not say).
std::string flush_stdout();

/// Writes every byte of `text` to the open descriptor `fd` with write(2)
/// (`_write` on Windows, at most 1 GiB per call), again after a short write
/// or EINTR. SIGPIPE is ignored during the call and its disposition restored
/// afterwards, so that a pipe whose reader went away is the error EPIPE, not
/// the end of the process. Returns the first failure (errno of the call, EIO
/// for a write that wrote nothing), or an empty error_code.
std::error_code write_all_to(int fd, std::string_view text);

/// Writes `text` to standard output (descriptor 1) after whatever the C and
/// C++ streams hold: flush_stdout(), then write_all_to(1, text). Returns
/// std::errc::io_error when the flush failed, else what write_all_to returns.
std::error_code write_stdout(std::string_view text);

}  // namespace iobench
