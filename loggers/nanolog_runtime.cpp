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
//    CPU (measured: 0.86 CPU seconds in 3 idle seconds), and its CPU time
//    would be counted in every other logger's rows (their process counters).
//    Once loaded, and after each row's close, it is parked (Parking, below:
//    asleep on a mutex of NanoLog's that a thread of ours holds); each row's
//    open lets it go before NanoLog::setLogFile, which starts a new thread
//    for the row's file: during a row it runs as NanoLog runs it.
#include <sys/mman.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

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

/// Holds NanoLog's bufferMutex from a thread of its own while no row runs.
/// NanoLog's compression thread takes that mutex at the start of each pass
/// (RuntimeLogger::compressionThreadMain, "Step 1"), so while it is held
/// the thread waits on it, asleep, instead of waking every microsecond: it
/// uses no CPU that the process's counters of other loggers' rows would
/// count. Only NanoLog's own threads and a thread's first NANO_LOG take
/// that mutex; no row calls NanoLog while it is parked.
class Parking {
public:
    Parking() = default;
    Parking(const Parking&) = delete;
    Parking& operator=(const Parking&) = delete;
    /// Released and its thread joined (before NanoLog's RuntimeLogger, made
    /// before it, is destroyed: its destructor's sync() needs its thread).
    ~Parking() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            want_parked_ = false;
            quit_ = true;
        }
        changed_.notify_all();
        if (holder_.joinable()) holder_.join();
    }
    /// Returns once the holder thread holds bufferMutex.
    void park() { set(true); }
    /// Returns once it has let go of it.
    void unpark() { set(false); }

private:
    void set(bool parked) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!holder_.joinable()) holder_ = std::thread([this] { hold(); });
        want_parked_ = parked;
        changed_.notify_all();
        changed_.wait(lock, [&] { return parked_ == parked; });
    }
    void hold() {
        std::mutex& backend = NanoLogInternal::RuntimeLogger::nanoLogSingleton.bufferMutex;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            changed_.wait(lock, [&] { return quit_ || want_parked_ != parked_; });
            if (want_parked_ && !parked_) backend.lock();
            if (!want_parked_ && parked_) backend.unlock();
            parked_ = want_parked_;
            changed_.notify_all();
            if (quit_ && !parked_) return;
        }
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    bool want_parked_ = false;  // guarded by mutex_
    bool parked_ = false;       // guarded by mutex_: the holder holds bufferMutex
    bool quit_ = false;         // guarded by mutex_
    std::thread holder_;
};

namespace {

/// Made after NanoLog's RuntimeLogger (defined after it in this unit),
/// destroyed before it.
Parking parking;

/// Run once NanoLog's RuntimeLogger is made: its first thread parked, and the
/// memory file let go of by this process (NanoLog holds its own descriptor of
/// it until the first row's file).
struct AfterLoad {
    AfterLoad() {
        parking.park();
        if (startup_file >= 0) close(startup_file);
        startup_file = -1;
    }
} after_load;

}  // namespace

void park_backend() { parking.park(); }

void unpark_backend() { parking.unpark(); }

}  // namespace iobench_nanolog
