// NanoLog's RuntimeLogger.cc (https://github.com/PlatformLab/NanoLog, the
// commit loggers/CMakeLists.txt pins; unmodified, included from NanoLog's own
// source folder, never copied) compiled in this translation unit behind two
// things of iobench's, in the order C++ guarantees within one translation
// unit (initialised as defined, top to bottom):
//
// 1. Where NanoLog's first log file is. When the library is loaded, its
//    RuntimeLogger opens NanoLogConfig::DEFAULT_LOG_FILE ("./compressedLog",
//    runtime/Config.h, the file NanoLog's README names for its configuration),
//    writes a checkpoint into it and ends the process when it cannot open it:
//    loaded by iobench, it would leave a file in the user's working directory,
//    or end iobench in a directory the user cannot write. Here that name is
//    defined before Config.h is read (the shipped array renamed by a macro, in
//    this translation unit only, the one that opens it) as a memory file of
//    this process (memfd_create, opened again by NanoLog through
//    /proc/self/fd/<n>), released when NanoLog moves to a row's file. Where no
//    memory file can be made, the shipped name is kept.
// 2. Its background thread between rows. NanoLog's compression thread wakes
//    every microsecond when it has no work (POLL_INTERVAL_NO_WORK_US): loaded
//    with the other loggers by the loggers suite, it would take ~30 % of a
//    CPU (measured: 0.86 CPU seconds in 3 idle seconds) from every other
//    logger's rows. Once loaded, and after each row's close, it runs at
//    SCHED_IDLE (only when no other thread wants the CPU); NanoLog starts a
//    new thread for each row's file (NanoLog::setLogFile), which inherits the
//    opening thread's policy: during a row it runs as NanoLog runs it.
#include <sys/mman.h>
#include <unistd.h>

#include <pthread.h>
#include <sched.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

// (NanoLog's switch for its own unit tests, which compile with it against the
// library's objects compiled without it: its classes' private members
// public here, so that park_backend reaches the compression thread.)
#define EXPOSE_PRIVATES
#define DEFAULT_LOG_FILE DEFAULT_LOG_FILE_as_shipped
#include "Config.h"
#undef DEFAULT_LOG_FILE

namespace iobench_nanolog {

/// The memory file NanoLog opens first (-1: none, the shipped name is used).
int startup_file = -1;

/// The name of NanoLog's first log file: /proc/self/fd/<a memory file>, or
/// the shipped one where memfd_create or /proc is not there.
const char* startup_log_file() {
    static std::string name;
    startup_file = memfd_create("iobench-nanolog-startup", MFD_CLOEXEC);
    if (startup_file < 0) return NanoLogConfig::DEFAULT_LOG_FILE_as_shipped;
    name = "/proc/self/fd/" + std::to_string(startup_file);
    if (access(name.c_str(), R_OK | W_OK) != 0) {
        close(startup_file);
        startup_file = -1;
        return NanoLogConfig::DEFAULT_LOG_FILE_as_shipped;
    }
    return name.c_str();
}

}  // namespace iobench_nanolog

namespace NanoLogConfig {
// (Read by RuntimeLogger's constructor below, once: initialised before it.)
static const char* const DEFAULT_LOG_FILE = iobench_nanolog::startup_log_file();
}  // namespace NanoLogConfig

#include "RuntimeLogger.cc"

namespace iobench_nanolog {

/// Prints the records of NanoLog's binary log `log` to `out` with NanoLog's
/// decoder (Log::Decoder::decompressTo, as its decompressor's "decompress":
/// in time order, each thread's in its order), each line as NanoLog prints
/// it; returns how many records it printed, -1 when `log` is no NanoLog log
/// or does not decode.
std::int64_t decode_to(const char* log, std::FILE* out);

/// Puts NanoLog's compression thread at SCHED_IDLE, its work done (after
/// NanoLog::sync()): between rows it polls only when nothing else runs.
void park_backend() {
    std::thread& backend = NanoLogInternal::RuntimeLogger::nanoLogSingleton.compressionThread;
    if (!backend.joinable()) return;
    sched_param none{};
    none.sched_priority = 0;
    pthread_setschedparam(backend.native_handle(), SCHED_IDLE, &none);
}

std::int64_t decode_to(const char* log, std::FILE* out) {
    NanoLogInternal::Log::Decoder decoder;
    std::int64_t printed = decoder.open(log) ? decoder.decompressTo(out) : -1;
    // (What its constructor allocates, its destructor does not free: the
    // buffer for the log's metadata, 1 GiB of address space, and the
    // fragment it reads records into, 1 MiB; a leak per decoder, which
    // NanoLog's decompressor, one decoder per process, never sees.)
    std::free(decoder.rawMetadata);
    decoder.rawMetadata = nullptr;
    delete decoder.bufferFragment;
    decoder.bufferFragment = nullptr;
    return printed;
}

namespace {

/// Run once NanoLog's RuntimeLogger is made (defined after it): its thread
/// parked, and the memory file let go of by this process (NanoLog holds its
/// own descriptor of it until the first row's file).
struct AfterLoad {
    AfterLoad() {
        park_backend();
        if (startup_file >= 0) close(startup_file);
        startup_file = -1;
    }
} after_load;

}  // namespace
}  // namespace iobench_nanolog
