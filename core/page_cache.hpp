// The page-cache state of an input file: made warm (read through once) or
// cold (written back and dropped) before a measured read, and measured
// (mincore) so the results say what the kernel actually did.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

namespace iobench {

/// Fraction (0 to 1) of the pages of the file at `path` that are in the page
/// cache: mincore(2) on a read-only mapping of the whole file, which is
/// unmapped again (mapping touches no page). std::nullopt where it cannot be
/// told: an empty file, or a platform without mincore (Windows).
std::optional<double> resident_fraction(const std::filesystem::path& path);

/// Asks the kernel to drop the file's pages from the page cache: fdatasync(2)
/// first (a dirty page cannot be dropped), then
/// posix_fadvise(POSIX_FADV_DONTNEED) over the whole file. The kernel may keep
/// pages anyway (tmpfs keeps all of them: they are the file; pages mapped by
/// another process stay): measure with resident_fraction. Throws `io_error`;
/// `unavailable_error` where the platform has no such call (Windows).
void drop_from_page_cache(const std::filesystem::path& path);

/// Removes the output file at `path` (if it exists) and writes back whatever
/// its file system still holds dirty (syncfs(2) on the directory): the state
/// every output run starts from, so that no run pays for the writeback or the
/// journal commit of an earlier one. The removed file's dirty pages are
/// dropped, never written. Then makes `output_bytes` (the size the run will
/// write) of free memory resident (make_memory_resident). On Windows only the
/// removal (no such call without administrator rights). Throws `io_error`
/// when syncfs fails.
void remove_and_settle(const std::filesystem::path& path, std::uint64_t output_bytes);

/// Touches and frees `bytes` (rounded up to 2 MiB, at most half the memory
/// the kernel reports available, at most 4 GiB) of anonymous memory, asking for transparent
/// huge pages (MADV_HUGEPAGE), so that the free memory the next output run's
/// page cache takes is backed by the machine again. Under a hypervisor with
/// free page reporting (virtio-balloon) the guest hands free 2 MiB blocks
/// back to the host after a few seconds, and the page cache's large folios
/// (ext4) taken from such blocks cost the host's faults inside the measured
/// run: measured here, 1.2 GB written to ext4 after a 4 s pause took
/// 1.2-1.5 s instead of 0.24 s, and 0.24-0.33 s with this step first
/// (docs/methodology.md). Best effort: does nothing below 16 MiB, on
/// platforms other than Linux, or when the memory cannot be mapped.
void make_memory_resident(std::uint64_t bytes);

/// Reads the file at `path` to its end in 1 MiB reads, so that its pages are
/// in the page cache (where they fit). Throws `io_error`.
void read_through(const std::filesystem::path& path);

}  // namespace iobench
