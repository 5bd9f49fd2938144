#include "core/os/environment.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>
#include <utility>
#include <vector>

#include <iobench/error.hpp>
#include "core/os/emulator.hpp"
#include "generated/build_info.hpp"
#include "generated/language_programs.hpp"

#ifdef _WIN32
#include <windows.h>
#else
#include <sys/utsname.h>
#include <unistd.h>
#endif
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

namespace iobench {

namespace {

std::string standard_library() {
#if defined(_LIBCPP_VERSION)
    return fmt::format("libc++ {}", _LIBCPP_VERSION);
#elif defined(__GLIBCXX__)
    return fmt::format("libstdc++ {} ({})", _GLIBCXX_RELEASE, __GLIBCXX__);
#elif defined(_MSVC_STL_VERSION)
    return fmt::format("MSVC STL {}", _MSVC_STL_VERSION);
#else
    return "unknown";
#endif
}

std::string c_library() {
#if defined(__GLIBC__)
    return fmt::format("glibc {}", gnu_get_libc_version());
#elif defined(__MINGW64_VERSION_STR)
#if defined(_UCRT)
    return fmt::format("mingw-w64 {} (UCRT)", __MINGW64_VERSION_STR);
#else
    return fmt::format("mingw-w64 {} (MSVCRT)", __MINGW64_VERSION_STR);
#endif
#elif defined(_MSC_VER)
    return "UCRT";
#else
    return "unknown";
#endif
}

std::string page_size() {
#ifdef _WIN32
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return std::to_string(info.dwPageSize);
#else
    return std::to_string(sysconf(_SC_PAGESIZE));
#endif
}

#ifdef _WIN32
/// The function `name` exported by ntdll.dll as a pointer of type F, or null.
/// (Through void*: a direct cast from FARPROC draws -Wcast-function-type.)
template <class F>
F ntdll_function(const char* name) {
    const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    return ntdll ? reinterpret_cast<F>(reinterpret_cast<void*>(GetProcAddress(ntdll, name))) : nullptr;
}

/// A REG_SZ value under HKEY_LOCAL_MACHINE, or "" when it is missing.
std::string registry_string(const char* key, const char* value) {
    char buf[256] = {};
    DWORD size = sizeof buf;
    if (RegGetValueA(HKEY_LOCAL_MACHINE, key, value, RRF_RT_REG_SZ, nullptr, buf, &size) != ERROR_SUCCESS) return "";
    return buf;
}
#endif

}  // namespace

std::string wine_version() {
#ifdef _WIN32
    // wine's ntdll exports wine_get_version and wine_get_host_version; Windows' does not.
    using wine_version_fn = const char*(__cdecl*)();
    static const std::string version = [] {
        const auto get = ntdll_function<wine_version_fn>("wine_get_version");
        const char* v = get ? get() : nullptr;
        return get == nullptr ? std::string() : v != nullptr && *v != '\0' ? std::string(v) : std::string("unknown");
    }();
    return version;
#else
    return "";
#endif
}

namespace {

/// Operating system, kernel release and machine; under wine, says so.
std::pair<std::string, std::string> os_and_kernel() {
#ifdef _WIN32
    // The version the kernel reports: RtlGetVersion, which unlike
    // GetVersionEx does not pretend to be Windows 8 to unmanifested programs.
    std::string kernel = "unknown";
    using rtl_get_version_fn = LONG(WINAPI*)(OSVERSIONINFOW*);
    if (auto get_version = ntdll_function<rtl_get_version_fn>("RtlGetVersion")) {
        OSVERSIONINFOW v{};
        v.dwOSVersionInfoSize = sizeof v;
        if (get_version(&v) == 0)
            kernel = fmt::format("Windows NT {}.{}.{}", v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber);
    }
    SYSTEM_INFO info;
    GetNativeSystemInfo(&info);
    const char* machine = info.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_AMD64   ? "x86_64"
                          : info.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_ARM64 ? "arm64"
                          : info.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_INTEL ? "x86"
                                                                                        : "unknown";
    std::string os = fmt::format("Windows {}", machine);
    using wine_host_fn = void(__cdecl*)(const char**, const char**);
    if (const std::string wine = wine_version(); !wine.empty()) {
        os += fmt::format(" (wine {})", wine);
        if (auto host = ntdll_function<wine_host_fn>("wine_get_host_version")) {
            const char* sysname = nullptr;
            const char* release = nullptr;
            host(&sysname, &release);
            if (sysname && release) kernel += fmt::format(" (wine on {} {})", sysname, release);
        }
    }
    return {os, kernel};
#else
    utsname u{};
    if (uname(&u) != 0) return {"unknown", "unknown"};
    return {fmt::format("{} {}", u.sysname, u.machine), fmt::format("{} {}", u.release, u.version)};
#endif
}

std::string cpu_model() {
#ifdef _WIN32
    const std::string name =
        registry_string("HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", "ProcessorNameString");
    if (!name.empty()) return name;
#elif defined(__linux__)
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    }
#endif
    return "unknown";
}

std::string os_release() {
#ifdef _WIN32
    // "Windows 10 Pro 22H2" (DisplayVersion exists from Windows 10 20H2 on).
    const char* key = "SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
    std::string name = registry_string(key, "ProductName");
    std::string display = registry_string(key, "DisplayVersion");
    if (display.empty()) display = registry_string(key, "ReleaseId");
    if (!display.empty()) name += (name.empty() ? "" : " ") + display;
    if (!name.empty()) return name;
#elif defined(__linux__)
    std::ifstream in("/etc/os-release");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            std::string v = line.substr(12);
            if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
            return v;
        }
    }
#endif
    return "";
}

}  // namespace

namespace {
/// The toolchains of the program methods this build made (docs/external-methods.md),
/// "go: go version go1.26.8 linux/amd64; ...", or "none".
std::string program_toolchains() {
    std::string text;
    for (const auto& [language, program] : {std::pair{"go", languages::go}, std::pair{"rust", languages::rust},
                                            std::pair{"java", languages::java}, std::pair{"python", languages::python},
                                            std::pair{"node", languages::node}}) {
        if (program.file.empty()) continue;
        text += fmt::format("{}{}: {}", text.empty() ? "" : "; ", language, program.toolchain);
    }
    return text.empty() ? "none" : text;
}

/// "GNU 12.2.0", "MSVC 19.38.33135.0", "GNU 12-posix (MinGW-w64)": the compiler
/// id and version CMake found, and MinGW-w64 where it is the toolchain.
std::string compiler_description() {
    std::string text = fmt::format("{} {}", build::compiler_id, build::compiler_version);
#if defined(__MINGW64__)
    text += " (MinGW-w64)";
#elif defined(__MINGW32__)
    text += " (MinGW)";
#endif
    return text;
}
}  // namespace

std::filesystem::path executable_path() {
#ifdef _WIN32
    std::wstring buf(MAX_PATH, L'\0');
    for (;;) {  // (a longer path than the buffer is cut and n == its size: grow it)
        const DWORD n = GetModuleFileNameW(nullptr, buf.data(), static_cast<DWORD>(buf.size()));
        if (n == 0) return {};
        if (n < buf.size()) return std::filesystem::path(buf.substr(0, n));
        if (buf.size() >= 32768) return {};
        buf.resize(buf.size() * 2);
    }
#elif defined(__linux__)
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : self;
#else
    return {};
#endif
}

std::string compiler_short_name() {
    const std::string id = build::compiler_id;
    std::string name = id == "GNU" ? "gcc" : id == "Clang" ? "clang" : id == "AppleClang" ? "appleclang"
                       : id == "MSVC" ? "msvc" : id;
#if defined(__MINGW32__)
    name = "mingw-" + name;
#endif
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name;
}

std::string results_basename(std::string_view suite, bool with_plugin) {
    std::string what(suite.empty() ? std::string_view("all") : suite);
    for (char& c : what)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
    if (with_plugin) what += "-plugin";
    const std::time_t now = std::time(nullptr);
#if defined(__aarch64__) || defined(_M_ARM64)
    constexpr const char* machine = "-aarch64";  // beside an x86-64 build's file of the same compiler and day
#else
    constexpr const char* machine = "";
#endif
    return fmt::format("{}-{}{}-{}-{:%Y-%m-%d}", compiler_short_name(), build::compiler_version, machine, what,
                       fmt::localtime(now));
}

std::vector<std::pair<std::string, std::string>> describe_environment(const std::filesystem::path& dir) {
    auto [os, kernel] = os_and_kernel();
    std::error_code ec;
    std::vector<std::pair<std::string, std::string>> ctx = {
        {"iobench_version", build::version},
        {"iobench_git_commit", build::git_commit},
        {"compiler", compiler_description()},
        {"compiler_target", build::compiler_target},
        {"standard_library", standard_library()},
        {"c_library", c_library()},
        {"build_type", build::build_type},
        {"build_flags", build::cxx_flags},
        {"google_benchmark_version", build::google_benchmark_version},
        {"os", os},
        {"os_release", os_release()},
        {"kernel", kernel},
        {"cpu_model", cpu_model()},
        {"hardware_threads", std::to_string(std::thread::hardware_concurrency())},
        {"target_dir", std::filesystem::absolute(dir, ec).string()},
        {"target_filesystem", filesystem_type(dir)},
        {"page_size", page_size()},
        {"BUFSIZ", std::to_string(BUFSIZ)},
        {"timing", "wall time per run (steady_clock), setup and verification excluded"},
        {"program_toolchains", program_toolchains()},
    };
    if (!cpu_emulator().empty()) ctx.emplace_back("emulator", cpu_emulator());
    return ctx;
}

}  // namespace iobench
