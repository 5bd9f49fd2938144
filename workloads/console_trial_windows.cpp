// The harness of the console workloads on Windows (what both platforms
// share, and the POSIX child made with fork(2): workloads/console_trial.cpp).
//
// Each measured call runs in a child process made with CreateProcessW: the
// running executable (iobench, iobench's tests, an executable made with
// iobench_add_executable) started again with the hidden first argument
// --iobench-console-child, which its main() hands to console_child_main.
//  - The child's standard output is the run's target, given as its
//    STD_OUTPUT_HANDLE (STARTF_USESTDHANDLES): a handle to NUL, to a file
//    created for the run, or the write end of an anonymous pipe (CreatePipe)
//    whose read end a thread of iobench drains and checksums. Its standard
//    input is NUL and its standard error iobench's; it inherits these and the
//    report pipe's write end and no other handle
//    (PROC_THREAD_ATTRIBUTE_HANDLE_LIST), and has no console (CREATE_NO_WINDOW).
//    iobench's own standard output is never given to it.
//  - The child is a new process: nothing of an earlier run (a buffer mode, a
//    translation mode, std::ios::sync_with_stdio(false)) can reach it. It puts
//    fd 1 in _O_BINARY, as iobench opens every file in binary mode, so that
//    every platform writes and checks the same bytes; the C runtime's text
//    modes are methods of their own (printf_O_TEXT, wprintf_O_U8TEXT), whose
//    "\r\n" line ends the check expects. Standard output keeps the runtime's
//    buffering: a file or a pipe gets full buffering with a buffer of 4,096
//    bytes (the runtime's own size, given with setvbuf before the warm-up so
//    that it is allocated then), NUL the runtime's buffering per call, which
//    it gives a character device.
//  - As on POSIX, a warm-up of console_warmup_messages() messages goes to NUL
//    first, untimed (fd 1 and STD_OUTPUT_HANDLE pointed there with _dup2 and
//    SetStdHandle, then back at the target); what a method left in stdout's
//    buffer is flushed there (Windows has no __fpurge).
//  - The child times the call itself (steady_clock, QueryPerformanceCounter,
//    the runner's clock): CreateProcessW, the child's start and its exit stay
//    outside the measurement, as fork and exit do on POSIX. It reports the
//    time, the bytes passed to write calls (WriteTransferCount of
//    GetProcessIoCounters), the counters of core/os/os_counters.hpp and the
//    translation mode of fd 1 through a pipe, then ends with TerminateProcess,
//    so that nothing left in a buffer is written on the way out: a method
//    that does not flush fails verification, as on POSIX.
#ifdef _WIN32

#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "core/engine/session.hpp"
#include "core/os/cleanup.hpp"
#include "core/plugins/plugins.hpp"
#include "data/checksum.hpp"
#include "workloads/console_child.hpp"
#include "workloads/console_trial.hpp"

namespace iobench {
namespace {

/// The hidden first argument of the child mode.
constexpr std::string_view child_flag = "--iobench-console-child";

/// True in a build with Microsoft's static C runtime (/MT, /MTd): every
/// module, a plugin too, then has a C runtime of its own, with its own stdout
/// (its own descriptor 1, translation mode and buffer).
#if defined(_MSC_VER) && !defined(_DLL)
constexpr bool static_runtime = true;
#else
constexpr bool static_runtime = false;
#endif

/// The C runtime's own stdout buffer size (_INTERNAL_BUFSIZ of the UCRT and of msvcrt.dll).
constexpr std::size_t runtime_buffer_size = 4096;

/// A HANDLE that closes itself.
class Handle {
public:
    Handle() = default;
    explicit Handle(HANDLE h) : h_(h == INVALID_HANDLE_VALUE ? nullptr : h) {}
    ~Handle() { reset(); }
    Handle(Handle&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
    Handle& operator=(Handle&& other) noexcept {
        if (this != &other) {
            reset();
            h_ = std::exchange(other.h_, nullptr);
        }
        return *this;
    }
    HANDLE get() const { return h_; }
    explicit operator bool() const { return h_ != nullptr; }
    void reset() {
        if (h_) CloseHandle(h_);
        h_ = nullptr;
    }

private:
    HANDLE h_ = nullptr;
};

/// Throws `io_error` for `call` on `what` with GetLastError().
[[noreturn]] void throw_last_error(const std::string& call, const std::string& what) {
    throw io_error(call, what, std::error_code(static_cast<int>(GetLastError()), std::system_category()));
}

/// Security attributes that make a new handle inheritable.
SECURITY_ATTRIBUTES inheritable() { return {sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE}; }

/// NUL opened with `access`, inheritable. Throws `io_error`.
Handle open_null(DWORD access) {
    SECURITY_ATTRIBUTES sa = inheritable();
    Handle h(CreateFileW(L"NUL", access, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, nullptr));
    if (!h) throw_last_error("CreateFileW", "NUL");
    return h;
}

/// An anonymous pipe whose write end is inheritable and whose read end is not.
struct Pipe {
    Handle read, write;
};

Pipe make_pipe(const char* what) {
    SECURITY_ATTRIBUTES sa = inheritable();
    HANDLE r = nullptr, w = nullptr;
    if (!CreatePipe(&r, &w, &sa, 0)) throw_last_error("CreatePipe", what);
    Pipe p{Handle(r), Handle(w)};
    if (!SetHandleInformation(p.read.get(), HANDLE_FLAG_INHERIT, 0)) throw_last_error("SetHandleInformation", what);
    return p;
}

/// iobench's standard error as an inheritable handle for the child (its
/// messages, should it crash, go where iobench's go), or NUL without one.
Handle child_stderr() {
    const HANDLE own = GetStdHandle(STD_ERROR_HANDLE);
    HANDLE copy = nullptr;
    if (own && own != INVALID_HANDLE_VALUE &&
        DuplicateHandle(GetCurrentProcess(), own, GetCurrentProcess(), &copy, 0, TRUE, DUPLICATE_SAME_ACCESS))
        return Handle(copy);
    return open_null(GENERIC_WRITE);
}

/// The path of the running executable, which the child runs. Throws `io_error`.
std::wstring own_executable() {
    std::wstring path(MAX_PATH, L'\0');
    for (;;) {
        const DWORD n = GetModuleFileNameW(nullptr, path.data(), static_cast<DWORD>(path.size()));
        if (n == 0) throw_last_error("GetModuleFileNameW", "the running executable");
        if (n < path.size()) {
            path.resize(n);
            return path;
        }
        path.resize(path.size() * 2);
    }
}

/// `bytes` as hexadecimal digits: how text (a message, a plugin's path)
/// crosses the command line unchanged, whatever it holds.
std::string to_hex(std::string_view bytes) {
    std::string out;
    for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
    return out;
}

/// The bytes of `text` (to_hex's), or std::nullopt when it is not that.
std::optional<std::string> from_hex(std::string_view text) {
    if (text.size() % 2 != 0) return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < text.size(); i += 2) {
        unsigned value = 0;
        const auto [end, ec] = std::from_chars(text.data() + i, text.data() + i + 2, value, 16);
        if (ec != std::errc{} || end != text.data() + i + 2) return std::nullopt;
        out += static_cast<char>(value);
    }
    return out;
}

/// `text` (ASCII) as UTF-16.
std::wstring widen(std::string_view text) { return std::wstring(text.begin(), text.end()); }

/// `arg` quoted for a command line as CommandLineToArgvW and the C runtimes
/// split it: in quotes when it holds a blank or a quote or is empty,
/// backslashes doubled before a quote.
std::wstring command_line_argument(std::wstring_view arg) {
    if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring_view::npos) return std::wstring(arg);
    std::wstring out = L"\"";
    for (std::size_t i = 0;; ++i) {
        std::size_t backslashes = 0;
        for (; i < arg.size() && arg[i] == L'\\'; ++i) ++backslashes;
        if (i == arg.size()) {
            out.append(backslashes * 2, L'\\');
            break;
        }
        out.append(arg[i] == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
        out += arg[i];
    }
    return out + L'"';
}

/// What the child runs, as its command line says after the flag:
/// REPORT METHOD put|print TEXT COUNT WARMUP BUFFER [PLUGIN...]: REPORT a
/// handle value, TEXT the line in hexadecimal (to_hex) for put, the
/// ConsoleFormat's number for print, each PLUGIN a path in hexadecimal.
struct ChildRequest {
    HANDLE report = nullptr;       ///< the report pipe's write end
    std::string method;            ///< the method's name
    bool put = true;               ///< put_console (a text) or print_console (a format)
    std::string text;              ///< the line (put), or the ConsoleFormat's number (print)
    std::uint64_t count = 0;       ///< messages of the measured call
    std::uint64_t warmup = 0;      ///< messages of the warm-up
    std::size_t buffer_size = 0;   ///< StdoutSink::buffer_size
    std::vector<std::string> plugins;  ///< paths of the plugins to load first, as iobench loaded them
};

/// The number in `text`, or std::nullopt.
template <class T>
std::optional<T> number(std::string_view text) {
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
}

/// Parses the child's arguments (after the flag). Returns "" and fills
/// `req`, or what is wrong.
std::string parse_request(int argc, char** argv, ChildRequest& req) {
    if (argc < 9) return "expected REPORT METHOD put|print TEXT COUNT WARMUP BUFFER [PLUGIN...]";
    const auto report = number<std::uintptr_t>(argv[2]);
    if (!report) return fmt::format("REPORT {}: not a handle value", argv[2]);
    req.report = reinterpret_cast<HANDLE>(*report);
    if (GetFileType(req.report) != FILE_TYPE_PIPE)
        return fmt::format("REPORT {}: not a pipe this process inherited", argv[2]);
    req.method = argv[3];
    const std::string_view kind = argv[4];
    if (kind != "put" && kind != "print") return fmt::format("{}: neither put nor print", kind);
    req.put = kind == "put";
    if (req.put) {
        const auto text = from_hex(argv[5]);
        if (!text) return "TEXT: not hexadecimal";
        req.text = *text;
    } else {
        req.text = argv[5];
    }
    const auto count = number<std::uint64_t>(argv[6]);
    const auto warmup = number<std::uint64_t>(argv[7]);
    const auto buffer = number<std::size_t>(argv[8]);
    if (!count || !warmup || !buffer) return "COUNT, WARMUP and BUFFER must be whole numbers";
    req.count = *count;
    req.warmup = *warmup;
    req.buffer_size = *buffer;
    for (int i = 9; i < argc; ++i) {
        const auto path = from_hex(argv[i]);
        if (!path) return fmt::format("PLUGIN {}: not hexadecimal", argv[i]);
        req.plugins.push_back(*path);
    }
    return {};
}

/// The message `req` names, with the method's function: "" and `msg`, or what is wrong.
std::string find_message(const ChildRequest& req, ConsoleMessage& msg) {
    for (const std::string& path : req.plugins) load_plugin(path);
    const Method* m = find_method(req.method);
    if (!m) return fmt::format("no method called {} in this executable", req.method);
    if (req.put) {
        msg.put = m->put_console;
        msg.line = req.text;
        if (!msg.put) return fmt::format("{} has no put_console operation here", req.method);
        return {};
    }
    const auto format = number<int>(req.text);
    if (!format || *format < 0 || *format > static_cast<int>(ConsoleFormat::datetime))
        return fmt::format("{}: not a message format", req.text);
    msg.print = m->print_console;
    msg.format = static_cast<ConsoleFormat>(*format);
    if (!msg.print) return fmt::format("{} has no print_console operation here", req.method);
    return {};
}

/// Points fd 1 (C's stdout, std::cout) and STD_OUTPUT_HANDLE (what WriteFile
/// and obuf write to) at the descriptor `fd`. False when _dup2 fails.
bool point_stdout_at(int fd) {
    if (_dup2(fd, 1) != 0) return false;
    SetStdHandle(STD_OUTPUT_HANDLE, reinterpret_cast<HANDLE>(_get_osfhandle(1)));
    return true;
}

/// The child's work, from the state the C runtime started with to the
/// measured call: fills `r`.
void child_run(const ChildRequest& req, const ConsoleMessage& msg, ChildReport& r) {
    const StdoutSink out{req.buffer_size};
    // os_counters and bytes_written_so_far check their counters once per
    // process with calls of their own: done here, before any byte is counted.
    (void)take_os_snapshot();
    (void)bytes_written_so_far();
    const int target = _dup(1);
    if (target < 0) {
        set_report_error(r, "_dup(1): standard output is not open in the child");
        return;
    }
    _setmode(target, _O_BINARY);
    _setmode(1, _O_BINARY);
    if (GetFileType(GetStdHandle(STD_OUTPUT_HANDLE)) != FILE_TYPE_CHAR) {
        static char buffer[runtime_buffer_size];  // the child's for its whole life
        std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    }
    const int null_fd = _open("NUL", _O_WRONLY | _O_BINARY);
    if (null_fd >= 0 && point_stdout_at(null_fd)) {
        try {
            call_console_method(msg, out, req.warmup);
        } catch (...) {
            // reported by the measured call, which fails the same way
        }
        // What a method that does not flush left of the warm-up goes to NUL,
        // not to the target with the measured output.
        std::fflush(stdout);
        std::cout.flush();
        std::wcout.flush();
        point_stdout_at(target);
    }
    if (null_fd >= 0) _close(null_fd);
    _close(target);
    _setmode(1, _O_BINARY);  // _dup2 gave fd 1 the mode of the target's descriptor: binary
    std::clearerr(stdout);
    std::cout.clear();
    measure_console_call(msg, out, req.count, r);
    // The translation mode the call left (and wrote in): _setmode returns it.
    const int mode = _setmode(1, _O_BINARY);
    r.line_ends = static_cast<int>(mode == _O_BINARY || mode == -1 ? LineEnds::as_is : LineEnds::crlf);
}

/// Writes all of `r` to `report`, ignoring errors (the child's last act).
void send_report(HANDLE report, const ChildReport& r) {
    const char* p = reinterpret_cast<const char*>(&r);
    std::size_t left = sizeof r;
    while (left > 0) {
        DWORD written = 0;
        if (!WriteFile(report, p, static_cast<DWORD>(left), &written, nullptr) || written == 0) return;
        p += written;
        left -= written;
    }
}

/// A process's end without a report, in words: its exit code, or the
/// exception that ended it (NTSTATUS codes from 0xC0000000 on).
std::string ended_without_report(DWORD code) {
    if (code < 0xC0000000u)
        return fmt::format("the child process running the method exited with status {} without a report", code);
    const char* what = code == 0xC0000005u   ? " (access violation)"
                       : code == 0xC00000FDu ? " (stack overflow)"
                       : code == 0xC0000409u ? " (fail fast: abort(), or an invalid parameter to the C runtime)"
                                             : "";
    return fmt::format("the child process running the method ended with exception 0x{:08X}{} without a report", code,
                       what);
}

/// Waits until no process has the file `path` open any more (an open that
/// shares nothing succeeds), for at most 10 s. Wine signals a process's end
/// before the Linux process behind it has exited, and that process holds
/// the file as its descriptor 1 (wine gives a child its standard output so)
/// until then: some milliseconds in which the file can be neither removed
/// nor created again for the next run (a sharing violation). On Windows the
/// first try succeeds. Throws std::runtime_error when the file stays open.
void wait_until_closed(const std::filesystem::path& path) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        const HANDLE h = CreateFileW(path.wstring().c_str(), GENERIC_READ, 0, nullptr, OPEN_EXISTING, 0, nullptr);
        if (h != INVALID_HANDLE_VALUE) {
            CloseHandle(h);
            return;
        }
        if (GetLastError() != ERROR_SHARING_VIOLATION) return;
        Sleep(1);
    }
    throw std::runtime_error(fmt::format("{} is still open 10 s after the child process running the method ended",
                                         path.string()));
}

/// The attribute list of CreateProcessW naming the only handles the child inherits.
class InheritedHandles {
public:
    explicit InheritedHandles(std::vector<HANDLE> handles) : handles_(std::move(handles)) {
        SIZE_T size = 0;
        InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
        storage_ = std::make_unique<char[]>(size);
        list_ = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(storage_.get());
        if (!InitializeProcThreadAttributeList(list_, 1, 0, &size))
            throw_last_error("InitializeProcThreadAttributeList", "console child");
        if (!UpdateProcThreadAttribute(list_, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, handles_.data(),
                                       handles_.size() * sizeof(HANDLE), nullptr, nullptr)) {
            DeleteProcThreadAttributeList(list_);
            throw_last_error("UpdateProcThreadAttribute", "console child");
        }
    }
    ~InheritedHandles() { DeleteProcThreadAttributeList(list_); }
    InheritedHandles(const InheritedHandles&) = delete;
    InheritedHandles& operator=(const InheritedHandles&) = delete;
    LPPROC_THREAD_ATTRIBUTE_LIST get() const { return list_; }

private:
    std::vector<HANDLE> handles_;  ///< must outlive the list
    std::unique_ptr<char[]> storage_;
    LPPROC_THREAD_ATTRIBUTE_LIST list_ = nullptr;
};

class ConsoleTrial final : public ConsoleTrialBase {
public:
    ConsoleTrial(Session& s, const Method& m, const Params& p, std::string_view workload, const ConsoleMessage& msg,
                 std::uint64_t count)
        : ConsoleTrialBase(s, m, p, workload, msg, count), method_(m.name), exe_(own_executable()) {}
    ~ConsoleTrial() override { close_all(); }

    void reset() override {
        close_all();
        report_ = {};
        if (target_kind_ == StdoutTarget::devnull) {
            target_ = open_null(GENERIC_WRITE);
        } else if (target_kind_ == StdoutTarget::file) {
            SECURITY_ATTRIBUTES sa = inheritable();
            target_ = Handle(CreateFileW(path_.wstring().c_str(), GENERIC_WRITE, FILE_SHARE_READ, &sa, CREATE_ALWAYS,
                                         FILE_ATTRIBUTE_NORMAL, nullptr));
            if (!target_) throw_last_error("CreateFileW", path_.string());
        } else {
            Pipe pipe = make_pipe("stdout pipe");
            pipe_read_ = std::move(pipe.read);
            target_ = std::move(pipe.write);
            pipe_digest_ = {};
            pipe_error_.clear();
            reader_ = std::thread([this] { drain_pipe(); });
        }
    }

    void run() override {
        Pipe report = make_pipe("child report");
        Handle null_input = open_null(GENERIC_READ);
        Handle error = child_stderr();
        std::wstring command = command_line_argument(exe_) + L' ' + widen(child_flag) + L' ' +
                               std::to_wstring(reinterpret_cast<std::uintptr_t>(report.write.get())) + L' ' +
                               widen(method_) + L' ' + (msg_.put ? L"put " : L"print ") +
                               widen(msg_.put ? to_hex(msg_.line) : std::to_string(static_cast<int>(msg_.format))) +
                               L' ' + std::to_wstring(count_) + L' ' +
                               std::to_wstring(console_warmup_messages(count_, bytes, buffer_size)) + L' ' +
                               std::to_wstring(out_.buffer_size);
        for (const LoadedPlugin& p : loaded_plugins()) command += L' ' + widen(to_hex(p.path));
        InheritedHandles handles({target_.get(), report.write.get(), null_input.get(), error.get()});
        STARTUPINFOEXW si{};
        si.StartupInfo.cb = sizeof si;
        si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
        si.StartupInfo.hStdInput = null_input.get();
        si.StartupInfo.hStdOutput = target_.get();
        si.StartupInfo.hStdError = error.get();
        si.lpAttributeList = handles.get();
        PROCESS_INFORMATION pi{};
        // Wine 8.0 now and then fails a CreateProcessW with ERROR_INTERNAL_ERROR
        // ("Internal error": twice in CI's test runs under wine, two shards at
        // once, never alone); the call is outside the measurement, so it is
        // tried again, at most 3 times in all, after 10 ms. Any other error,
        // or the third, fails the run as before.
        BOOL created = FALSE;
        for (int attempt = 0; attempt < 3; ++attempt) {
            if (attempt > 0) Sleep(10);
            created = CreateProcessW(exe_.c_str(), command.data(), nullptr, nullptr, TRUE,
                                     EXTENDED_STARTUPINFO_PRESENT | CREATE_NO_WINDOW, nullptr, nullptr,
                                     &si.StartupInfo, &pi);
            if (created || GetLastError() != ERROR_INTERNAL_ERROR) break;
        }
        if (!created) throw_last_error("CreateProcessW", std::filesystem::path(exe_).string());
        const Handle process(pi.hProcess);
        CloseHandle(pi.hThread);
        // The child holds them now: the pipe reader sees the end of the
        // output when the child exits, and the report ends with it too.
        target_.reset();
        report.write.reset();
        std::size_t got = 0;
        auto* dst = reinterpret_cast<char*>(&report_);
        while (got < sizeof report_) {
            DWORD n = 0;
            if (!ReadFile(report.read.get(), dst + got, static_cast<DWORD>(sizeof report_ - got), &n, nullptr) ||
                n == 0)
                break;
            got += n;
        }
        WaitForSingleObject(process.get(), INFINITE);
        DWORD code = 0;
        if (!GetExitCodeProcess(process.get(), &code)) code = 0;
        if (target_kind_ == StdoutTarget::file) wait_until_closed(path_);
        if (got != sizeof report_) {
            report_ = {};
            throw std::runtime_error(ended_without_report(code));
        }
        throw_unless_ok();
    }

private:

    /// The reader thread: drains the pipe until the child has closed it
    /// (ERROR_BROKEN_PIPE), checksumming what it reads.
    void drain_pipe() {
        std::vector<char> buf(1 << 16);
        Checksum sum;
        for (;;) {
            DWORD n = 0;
            if (!ReadFile(pipe_read_.get(), buf.data(), static_cast<DWORD>(buf.size()), &n, nullptr)) {
                const DWORD err = GetLastError();
                if (err != ERROR_BROKEN_PIPE)
                    pipe_error_ = fmt::format("reading the stdout pipe failed: {}",
                                              std::system_category().message(static_cast<int>(err)));
                break;
            }
            sum.update({buf.data(), n});
        }
        pipe_digest_ = {sum.size(), sum.digest()};
    }

    void join_reader() override {
        if (reader_.joinable()) reader_.join();
    }

    void close_all() override {
        target_.reset();
        join_reader();  // returns: no writer is left once target_ is closed and the child has exited
        pipe_read_.reset();
    }

    std::string method_;
    std::wstring exe_;
    Handle target_;
    Handle pipe_read_;
    std::thread reader_;
};

/// Whether GetProcessIoCounters counts the bytes this process writes: a
/// 1-byte write to NUL must move WriteTransferCount by 1 (it does not under
/// wine, which counts nothing). Checked once per process.
bool write_bytes_counted() noexcept {
    static const bool counted = [] {
        const HANDLE nul = CreateFileW(L"NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                                       OPEN_EXISTING, 0, nullptr);
        if (nul == INVALID_HANDLE_VALUE) return false;
        IO_COUNTERS before{}, after{};
        DWORD written = 0;
        const bool ok = GetProcessIoCounters(GetCurrentProcess(), &before) &&
                        WriteFile(nul, "\n", 1, &written, nullptr) && written == 1 &&
                        GetProcessIoCounters(GetCurrentProcess(), &after) &&
                        after.WriteTransferCount - before.WriteTransferCount == 1;
        CloseHandle(nul);
        return ok;
    }();
    return counted;
}

}  // namespace

std::optional<std::uint64_t> bytes_written_so_far() noexcept {
    IO_COUNTERS io{};
    if (!write_bytes_counted() || !GetProcessIoCounters(GetCurrentProcess(), &io)) return std::nullopt;
    return io.WriteTransferCount;
}

const std::string& null_device_unverifiable() {
    static const std::string why =
        write_bytes_counted() ? ""
                              : "cannot verify output to NUL here: GetProcessIoCounters did not count a 1-byte "
                                "write (wine counts nothing); use --stdout-target file or pipe";
    return why;
}

std::unique_ptr<Trial> make_console_trial(Session& s, const Method& m, const Params& p, std::string_view workload,
                                          const ConsoleMessage& msg, std::uint64_t count) {
    if (static_runtime)
        for (const LoadedPlugin& plugin : loaded_plugins())
            for (const std::string& name : plugin.methods)
                if (name == m.name)
                    throw unavailable_error(
                        "a plugin's console method, and this iobench is built with the static C runtime (/MT): "
                        "the plugin has a C runtime and a stdout of its own, which the console child can neither "
                        "point at NUL for the warm-up nor put in binary mode; build iobench and the plugin with "
                        "the DLL runtime (/MD)");
    return std::make_unique<ConsoleTrial>(s, m, p, workload, msg, count);
}

std::optional<int> console_child_main(int argc, char** argv) {
    if (argc < 2 || argv[1] != child_flag) return std::nullopt;
    ChildRequest req;
    if (const std::string wrong = parse_request(argc, argv, req); !wrong.empty()) {
        std::fprintf(stderr,
                     "iobench: error: %s: %s (iobench runs itself this way for each call of a console workload)\n",
                     std::string(child_flag).c_str(), wrong.c_str());
        return 2;
    }
    ChildReport r;
    ConsoleMessage msg;
    std::string wrong;
    try {
        wrong = find_message(req, msg);
    } catch (const std::exception& e) {
        wrong = e.what();
    }
    if (wrong.empty()) child_run(req, msg, r);
    else set_report_error(r, wrong);
    send_report(req.report, r);
    // Whatever the method left in a buffer is discarded: nothing runs on the way out.
    TerminateProcess(GetCurrentProcess(), 0);
    return 0;
}

}  // namespace iobench

#endif  // _WIN32
