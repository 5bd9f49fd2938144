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
/// told: an empty file, or a platform without mincore (Windows, which has no
/// call that says whether a file's pages are cached).
std::optional<double> resident_fraction(const std::filesystem::path& path);

/// Drops the file's pages from the page cache before a cold read, and says
/// how, for the row's label (Trial::label). Throws `io_error` when a call
/// fails; `unavailable_error` where the file's pages cannot be dropped here.
///
/// Linux: fdatasync(2) first (a dirty page cannot be dropped), then
/// posix_fadvise(POSIX_FADV_DONTNEED) over the whole file; returns
/// "fdatasync + posix_fadvise(POSIX_FADV_DONTNEED)". The kernel may keep pages
/// anyway (tmpfs keeps all of them: they are the file; pages mapped by
/// another process stay): measure with resident_fraction.
///
/// Windows: purge_cached_pages (the file opened with FILE_FLAG_NO_BUFFERING
/// and closed), on NTFS and FAT only (other file systems: unavailable_error),
/// then purge_standby_list where the process may; returns
/// "FILE_FLAG_NO_BUFFERING open + standby list purge", or
/// "FILE_FLAG_NO_BUFFERING open; standby list not purged: <why>". Windows has
/// no mincore: the state is what these calls leave, not measured. Under wine
/// (wine_version, core/os/environment.hpp) `unavailable_error`: both calls
/// succeed there and neither drops a page of Linux's page cache (measured
/// with fincore(1), docs/windows.md).
std::string drop_from_page_cache(const std::filesystem::path& path);

#ifdef _WIN32
/// Opens the file at `path` with FILE_FLAG_NO_BUFFERING and closes it. When
/// no cached handle of the file is open, a non-cached open makes the file
/// system write the file's dirty pages back and purge its pages from the
/// cache, so that cached and uncached I/O cannot disagree (FatCommonCreate in
/// the FAT driver Microsoft publishes, Windows-driver-samples
/// filesys/fastfat/create.c; NTFS, whose source is not public, is reported to
/// do the same: not verifiable without a Windows machine). Pages of a view
/// another process has mapped stay. Returns the volume's file system name
/// (GetVolumeInformationByHandleW: "NTFS", "FAT32", ...; "" when it cannot be
/// told). Throws `unavailable_error` where the volume refuses the flag
/// (ERROR_INVALID_PARAMETER, ERROR_NOT_SUPPORTED), `io_error` when the file
/// cannot be opened.
std::string purge_cached_pages(const std::filesystem::path& path);

/// What purge_standby_list did.
struct StandbyPurge {
    bool purged = false;  ///< the standby list was purged
    std::string why_not;  ///< why not, when it was not ("" when purged)
};

/// Purges the standby list, the pages Windows keeps of files (and of
/// processes) no one uses any more, machine-wide, as RAMMap's "Empty Standby
/// List" does: NtSetSystemInformation(SystemMemoryListInformation (80),
/// MemoryPurgeStandbyList (4)) (the values of phnt's ntexapi.h), after
/// enabling SeProfileSingleProcessPrivilege on the calling thread's token
/// (its impersonation token, else the process's; administrators hold the
/// privilege, other users do not: why_not says so), which is then set back
/// as it was. First checks that NtSetSystemInformation refuses a request of
/// the wrong size: wine's is a stub that accepts everything and does nothing
/// (why_not says so). Never throws.
StandbyPurge purge_standby_list();
#endif

/// Removes the output file at `path` (if it exists) and writes back whatever
/// its file system still holds dirty (syncfs(2) on the directory): the state
/// every output run starts from, so that no run pays for the writeback or the
/// journal commit of an earlier one. The removed file's dirty pages are
/// dropped, never written. Then, last, warms the page supply for the
/// `output_bytes` the run will write (warm_page_cache; where that fails,
/// make_memory_resident). On Windows only the removal (no such call without
/// administrator rights). Throws `io_error` when syncfs fails.
void remove_and_settle(const std::filesystem::path& path, std::uint64_t output_bytes);

/// Writes `bytes` (1 MiB per write(2)) to a new file at `path` (the output's
/// path, which nothing holds yet) and removes it, never flushed: the kernel takes for it the
/// pages a run writing `bytes` to `path` will take next (the same file
/// system, the same folio sizes, the same order of the free lists), so any of
/// them that the host had taken back (free page reporting) are faulted in
/// here, outside the measurement, and freed again right before the run, which
/// then finds them backed. Measured 2026-12-06 (docs/methodology.md, "Where a
/// new file's pages come from"): a new 1.2 GB file on ext4 written after a
/// reporting pass took 452-554 ms, and 232-246 ms with this first. Linux only
/// (true elsewhere, doing nothing), nothing below 16 MiB; false when a call
/// failed (a full disk: the file is removed all the same).
bool warm_page_cache(const std::filesystem::path& path, std::uint64_t bytes);

/// Writes a new file of `bytes` zero bytes at `path` (1 MiB per write) and
/// flushes it to its device (fsync; _commit on Windows): a run that then
/// writes over it without truncating (Method::overwrites_existing) finds every
/// page of the file in the page cache, clean, and takes no new one. Throws
/// `io_error` when a call fails (a full disk: the file is removed first).
void write_zero_file(const std::filesystem::path& path, std::uint64_t bytes);

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
/// platforms other than Linux, or when the memory cannot be mapped. Only where
/// warm_page_cache fails now: huge pages are not the blocks the page cache's
/// small folios take first, and those could still be the host's.
void make_memory_resident(std::uint64_t bytes);

/// Reads the file at `path` to its end in 1 MiB reads, so that its pages are
/// in the page cache (where they fit). Throws `io_error`.
void read_through(const std::filesystem::path& path);

}  // namespace iobench
