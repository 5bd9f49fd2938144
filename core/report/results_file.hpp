// Writing a results file so that it is complete or absent: the bytes go to a
// temporary file created exclusively (O_CREAT|O_EXCL, CREATE_NEW), every write
// is checked, the file is flushed to the device (fsync, FlushFileBuffers) and
// closed, and only then does it get its name in one step. Earlier results and
// files of other runs are never touched.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace iobench {

/// What publish_file() does when a file of the target name exists.
enum class Existing {
    number,   ///< never replace it: take `<stem>-2<ext>`, `-3`, ... (the first name free at that moment)
    replace,  ///< replace it in one rename (an explicit --benchmark_out=FILE)
};

/// What `path` is when it exists and is not a regular file ("a symbolic link",
/// "a character device", "a FIFO", "a directory", ...), empty when it is a
/// regular file or does not exist. A results file is written only to such a
/// path: renaming over a device, FIFO or link would replace it (/dev/null
/// would become a regular file), not write to it.
std::string not_a_regular_file(const std::filesystem::path& path);

/// Writes `bytes` to `target` (Existing::replace) or to the first free name
/// of `target`, `<stem>-2<ext>`, ... (Existing::number; chosen and taken in
/// one atomic step: link(2) or renameat2(RENAME_NOREPLACE), MoveFileEx without
/// replacing on Windows, so two runs never take the same name). The temporary
/// file (temporary_name_for(target)) is registered for removal on interrupt and
/// removed on any failure. Returns the path written. Throws `io_error` naming
/// the call and the path that failed, and `std::runtime_error` when the
/// target to replace is not a regular file (not_a_regular_file) (a full disk: "write(<temporary>): No
/// space left on device"); nothing is left behind then.
std::filesystem::path publish_file(const std::filesystem::path& target, std::string_view bytes, Existing existing);

}  // namespace iobench
