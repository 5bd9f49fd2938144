// Removal of the files a run creates, also when the run is interrupted
// (SIGINT, SIGTERM): generated inputs, outputs, the temporary directory and a
// results file still being written. Nothing half-written is left behind.
#pragma once

#include <filesystem>

namespace iobench {

/// Installs the SIGINT/SIGTERM handler that removes every registered path
/// (newest first; directories with rmdir once emptied) and then exits with
/// 128 + signal number. Call once, early in main.
void install_interrupt_cleanup();

/// Registers `path` for removal if the run is interrupted (once: a second
/// registration of the same path is a no-op). At most 256 paths
/// of up to 4095 bytes are held; beyond that registration is ignored (the
/// normal end-of-run removal still happens).
void remove_on_interrupt(const std::filesystem::path& path);

/// Unregisters `path` (after it was removed or renamed normally).
void forget_on_interrupt(const std::filesystem::path& path);

}  // namespace iobench
