#include "core/plugins/plugins.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <atomic>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <system_error>

#include <iobench/method.hpp>
#include <iobench/detail_identity.hpp>
#include <iobench/workload.hpp>
#include "core/engine/workload.hpp"
#include "core/os/abrupt_exit.hpp"
#include "core/os/trusted_file.hpp"
#include "core/os/usage_error.hpp"

#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <dlfcn.h>
#include <unistd.h>
#endif

namespace fs = std::filesystem;

namespace iobench {

namespace {

std::vector<LoadedPlugin>& plugin_list() {
    static std::vector<LoadedPlugin> list;
    return list;
}

std::string identity_text(const iobench_build_identity& id) {
    return fmt::format("{}, {}, {}, iobench API {} ({} operations, Method of {} bytes)", id.compiler,
                       id.standard_library, id.build_type, id.api_version, id.operations, id.method_size);
}

/// True when `a` and `b` are equal but for the case of ASCII letters (CMake's
/// build types are: "release" is "Release").
bool same_ignoring_case(const char* a, const char* b) {
    for (; *a && *b; ++a, ++b)
        if (std::tolower(static_cast<unsigned char>(*a)) != std::tolower(static_cast<unsigned char>(*b))) return false;
    return *a == *b;
}

/// Two identities are equal when every member is (the build type in any case).
bool same_identity(const iobench_build_identity& a, const iobench_build_identity& b) {
    return a.api_version == b.api_version && a.operations == b.operations && a.method_size == b.method_size &&
           std::strcmp(a.compiler, b.compiler) == 0 && std::strcmp(a.standard_library, b.standard_library) == 0 &&
           same_ignoring_case(a.build_type, b.build_type);
}

/// The first structure whose layout differs between a plugin's identity
/// `theirs` and iobench's `ours` (a structure missing on one side included),
/// said with both sizes: "Calls of 152 bytes (aligned to 8) in the plugin,
/// 128 bytes (aligned to 8) in this iobench"; empty when every layout is the same.
std::string layout_difference(const iobench_build_identity& theirs, const iobench_build_identity& ours) {
    for (unsigned i = 0; i < ours.layout_count; ++i) {
        const iobench_type_layout& our = ours.layouts[i];
        const iobench_type_layout* their = nullptr;
        for (unsigned j = 0; j < theirs.layout_count && theirs.layouts; ++j)
            if (theirs.layouts[j].name && std::strcmp(theirs.layouts[j].name, our.name) == 0) their = &theirs.layouts[j];
        if (!their) return fmt::format("{} (of {} bytes in this iobench) is not in the plugin's", our.name, our.size);
        if (their->size != our.size || their->align != our.align)
            return fmt::format("{} of {} bytes (aligned to {}) in the plugin, {} bytes (aligned to {}) in this iobench",
                               our.name, their->size, their->align, our.size, our.align);
        if (their->hash != our.hash)
            return fmt::format("{} of {} bytes in both, but its members laid out otherwise (layout hash {:016x} in the "
                               "plugin, {:016x} in this iobench)",
                               our.name, our.size, their->hash, our.hash);
    }
    if (theirs.layout_count != ours.layout_count)
        return fmt::format("the plugin's identity lists {} structures, this iobench's {}", theirs.layout_count,
                           ours.layout_count);
    return {};
}

/// Throws usage_error "--plugin PATH: WHAT".
[[noreturn]] void refuse(const fs::path& path, const std::string& what) {
    throw usage_error(fmt::format("--plugin {}: {}", path.string(), what));
}

#ifdef _WIN32

/// The system's message for error `code`, without the trailing line break.
std::string windows_message(DWORD code) {
    char text[512] = {};
    const DWORD size = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, code, 0,
                                      text, sizeof text, nullptr);
    std::string message(text, size);
    while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == '.'))
        message.pop_back();
    return message.empty() ? fmt::format("error {}", code) : fmt::format("{} (error {})", message, code);
}

using Library = HMODULE;

/// Loads `file`, whose handle (held open without write or delete sharing)
/// keeps the file from changing until it is loaded.
Library open_library(const TrustedFile& file) {
    const fs::path& path = file.path();
    // No dialog box for a DLL that cannot be loaded: an error code instead.
    DWORD old_mode = 0;
    SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &old_mode);
    // LOAD_WITH_ALTERED_SEARCH_PATH: the plugin's own DLLs are looked for
    // beside it, as an executable's are beside the executable.
    const HMODULE library = LoadLibraryExW(path.wstring().c_str(), nullptr, LOAD_WITH_ALTERED_SEARCH_PATH);
    const DWORD error = GetLastError();
    SetThreadErrorMode(old_mode, nullptr);
    if (!library)
        refuse(path, "cannot be loaded (not a shared library for this system, or a DLL it needs is missing): " +
                         windows_message(error));
    return library;
}

void* find_symbol(Library library, const char* name) {
    return reinterpret_cast<void*>(GetProcAddress(library, name));
}

#else

using Library = void*;

/// Loads `file` through its open descriptor (/proc/self/fd/N on Linux): the
/// file hashed is the file loaded, whatever its path names meanwhile.
Library open_library(const TrustedFile& file) {
    const fs::path& path = file.path();
    // RTLD_NOW: a symbol the plugin needs and this executable lacks is an
    // error now, not a crash in the middle of a run. RTLD_LOCAL: one
    // plugin's symbols never satisfy another's.
    void* library = ::dlopen(file.open_file_path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = ::dlerror();
        refuse(path, fmt::format("cannot be loaded (not a shared library for this system, or a library it needs is "
                                 "missing): {}",
                                 why ? why : "dlopen failed"));
    }
    return library;
}

void* find_symbol(Library library, const char* name) { return ::dlsym(library, name); }

#endif

/// The plugin being loaded (its path as given), while its constructors
/// run: what ends the process then is named (loading_exit, loading_abort).
std::atomic<const char*> loading{nullptr};

/// Writes "iobench: error: --plugin PATH: WHAT HOW while it was loaded:
/// refused" on standard error with async-signal-safe calls only, and ends
/// the process with the status of a refused plugin (2).
[[noreturn]] void refuse_from_handler(const char* what, const char* how = "") {
    const char* path = loading.load();
    const char* parts[] = {"iobench: error: --plugin ", path ? path : "?", ": ", what, how,
                           " while it was loaded: refused\n"};
    for (const char* part : parts) {
        const std::size_t n = std::strlen(part);
#ifdef _WIN32
        [[maybe_unused]] const int written = _write(2, part, static_cast<unsigned>(n));
#else
        [[maybe_unused]] const ssize_t written = ::write(2, part, n);
#endif
    }
    end_process(2);
}

/// atexit: a plugin's constructor called exit() (an exit status of its own,
/// 0 among them, would pass for iobench's).
extern "C" void loading_exit() {
    if (loading.load()) refuse_from_handler("called exit()");
}

/// at_quick_exit: the same for quick_exit(), which runs no atexit handler.
extern "C" void loading_quick_exit() {
    if (loading.load()) refuse_from_handler("called quick_exit()");
}

/// _exit() or _Exit() (`how`) in a plugin's constructor: no handler of the
/// C library's runs (core/os/abrupt_exit.hpp).
void loading_abrupt_exit(const char* how, int) {
    if (loading.load()) refuse_from_handler("called ", how);
}

/// SIGABRT: a plugin's constructor called abort() (or failed an assertion).
extern "C" void loading_abort(int) { refuse_from_handler("aborted (SIGABRT)"); }

/// std::terminate while a plugin loads: an exception its constructor threw
/// found no handler on its way out. glibc declares dlopen() noexcept, so an
/// optimized caller has no landing pad for it and the exception ends in
/// std::terminate instead of open_library's catch (a release build printed
/// libstdc++'s three lines, "terminate called after throwing ..."). One line
/// naming the plugin and the exception's what(), as the catch would say, and
/// exit status 2.
[[noreturn]] void loading_terminate() {
    const char* path = loading.load();
    std::string what = "an exception that is not a std::exception";
    if (const std::exception_ptr current = std::current_exception()) {
        try {
            std::rethrow_exception(current);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
    } else {
        what = "nothing: std::terminate was called";
    }
    const std::string line = fmt::format("iobench: error: --plugin {}: its initialization threw: {}\n",
                                         path ? path : "?", what);
#ifdef _WIN32
    [[maybe_unused]] const int written = _write(2, line.data(), static_cast<unsigned>(line.size()));
#else
    [[maybe_unused]] const ssize_t written = ::write(2, line.data(), line.size());
#endif
    end_process(2);
}

/// While it lives, exit(), quick_exit(), _exit(), _Exit() (on Linux) and
/// abort() in a plugin's constructors end the process with a line naming the
/// plugin (exit status 2), not silently.
class LoadingGuard {
public:
    explicit LoadingGuard(const std::string& path) {
        static const bool registered = std::atexit(loading_exit) == 0 && register_quick_exit_handler(loading_quick_exit);
        (void)registered;
        loading.store(path.c_str());
        previous_abort_ = std::signal(SIGABRT, loading_abort);
        previous_exit_ = set_abrupt_exit_handler(loading_abrupt_exit);
        previous_terminate_ = std::set_terminate(loading_terminate);
    }
    ~LoadingGuard() {
        std::set_terminate(previous_terminate_);
        set_abrupt_exit_handler(previous_exit_);
        std::signal(SIGABRT, previous_abort_ == SIG_ERR ? SIG_DFL : previous_abort_);
        loading.store(nullptr);
    }
    LoadingGuard(const LoadingGuard&) = delete;
    LoadingGuard& operator=(const LoadingGuard&) = delete;

private:
    void (*previous_abort_)(int) = SIG_DFL;
    AbruptExitHandler previous_exit_ = nullptr;
    std::terminate_handler previous_terminate_ = nullptr;
};

/// The plugin's entry point `name` as a function of type F, or null.
template <class F>
F entry_point(Library library, const char* name) {
    return reinterpret_cast<F>(find_symbol(library, name));
}

}  // namespace

std::string build_identity_text() { return identity_text(build_identity()); }

const std::vector<LoadedPlugin>& loaded_plugins() { return plugin_list(); }

std::string registered_text(const LoadedPlugin& plugin) {
    std::string text = fmt::format("{}", fmt::join(plugin.families, ", "));
    if (!plugin.workloads.empty())
        text += fmt::format("{}workload{} {}", text.empty() ? "" : "; ", plugin.workloads.size() > 1 ? "s" : "",
                            fmt::join(plugin.workloads, ", "));
    return text;
}

std::vector<std::string> plugin_arguments(const std::vector<std::string>& args) {
    std::vector<std::string> paths;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--plugin") {
            // A path cannot be missing, nor begin with "--" (the next option).
            if (i + 1 == args.size() || args[i + 1].rfind("--", 0) == 0)
                throw usage_error("--plugin: give the path of a plugin");
            paths.push_back(args[++i]);
        } else if (args[i].rfind("--plugin=", 0) == 0) {
            paths.push_back(args[i].substr(std::strlen("--plugin=")));
        }
    }
    return paths;
}

namespace {

/// Refuses (usage_error, naming `given`) a plugin whose identity `theirs`
/// is not this iobench's: no identity, another API version (both named), or
/// another build. size and api_version are read first, and only when they are
/// there: every iobench can name the API a plugin was built against
/// (docs/plugins.md, "The API and its versions").
void check_identity(const fs::path& given, const iobench_build_identity* theirs) {
    const iobench_build_identity ours = build_identity();
    if (!theirs || theirs->size < identity_version_prefix)
        refuse(given, fmt::format("built with an unknown build (no iobench API version in its identity); "
                                  "this iobench: {}",
                                  identity_text(ours)));
    if (theirs->api_version != ours.api_version)
        refuse(given, fmt::format("built against iobench API {}; this iobench has API {}: build the plugin again "
                                  "against this iobench (its method files need no change within iobench {})",
                                  theirs->api_version, ours.api_version, IOBENCH_VERSION_MAJOR));
    if (theirs->size == sizeof(iobench_build_identity) && same_identity(*theirs, ours)) {
        const std::string layout = layout_difference(*theirs, ours);
        if (!layout.empty())
            refuse(given, fmt::format("built with other definitions of what crosses between a plugin and iobench: "
                                      "{}. Build the plugin again against this iobench's headers (iobench API {})",
                                      layout, ours.api_version));
    }
    if (theirs->size != sizeof(iobench_build_identity) || !same_identity(*theirs, ours)) {
        const std::string built_with = theirs->size == sizeof(iobench_build_identity)
                                           ? identity_text(*theirs)
                                           : fmt::format("iobench API {} (an identity of {} bytes, not {})",
                                                         theirs->api_version, theirs->size,
                                                         sizeof(iobench_build_identity));
        refuse(given, fmt::format("built with {}; this iobench: {}. Build the plugin with this iobench's compiler, "
                                  "standard library and build type (CMAKE_CXX_COMPILER, CMAKE_BUILD_TYPE), or "
                                  "build iobench with yours",
                                  built_with, identity_text(ours)));
    }
}

/// Opens plugin `file` (given as `given`): its constructors run here, and an
/// exception they throw, exit() or abort() refuses the plugin with a line
/// naming it (usage_error).
Library open_plugin_library(const fs::path& given, const TrustedFile& file) {
    const std::string named = given.string();
    const LoadingGuard guard(named);
    try {
        return open_library(file);
    } catch (const usage_error&) {
        throw;
    } catch (const std::exception& e) {
        refuse(given, fmt::format("its initialization threw: {}", e.what()));
    } catch (...) {
        refuse(given, "its initialization threw an exception that is not a std::exception");
    }
}

/// The workloads plugin `given` registers (`lines`, null for none), made
/// and so checked, copied (the strings were allocated by the plugin); the
/// plugin is refused (usage_error) for a workload that does not make, one
/// iobench has already, or one it registers twice.
std::vector<std::unique_ptr<Workload>> make_plugin_workloads(const fs::path& given,
                                                             const std::vector<LinesWorkload>* lines) {
    std::vector<std::unique_ptr<Workload>> made;
    if (!lines) return made;
    for (const LinesWorkload& w : *lines) {
        try {
            made.push_back(make_lines_workload(w));
        } catch (const std::exception& e) {
            refuse(given, e.what());
        }
        if (find_workload(w.name)) refuse(given, fmt::format("registers workload {}, which iobench has already", w.name));
        for (std::size_t k = 0; k + 1 < made.size(); ++k)
            if (made[k]->name() == w.name) refuse(given, fmt::format("registers workload {} twice", w.name));
    }
    return made;
}

/// Checks method `m` of family `f` of plugin `given` against iobench's
/// methods and the plugin's earlier ones (`names`, to which it is added);
/// refuses the plugin (usage_error) for a bad name, a family other than its
/// own, a name taken, or a method with no operation or half a per-call shape.
void check_plugin_method(const fs::path& given, const plugin::Family& f, const Method& m,
                         std::vector<std::string>& names) {
    if (!valid_name(m.name))
        refuse(given, fmt::format("method \"{}\" of family {}: a method's name is letters, digits and "
                                  "_ . + - only, not empty",
                                  m.name, f.family));
    if (!m.family.empty() && m.family != f.family)
        refuse(given, fmt::format("method {} names family {} in family {}", m.name, m.family, f.family));
    if (const Method* taken = find_method(m.name))
        refuse(given, fmt::format("registers method {} (family {}), which iobench has already (family {})", m.name,
                                  f.family, taken->family));
    for (const std::string& n : names)
        if (n == m.name) refuse(given, fmt::format("registers method {} twice", m.name));
    if (operation_names(m).empty() && !calls_of(m).open.present())
        refuse(given, fmt::format("method {} has no operation (and no per-call shape)", m.name));
    if (calls_of(m).open.present() != calls_of(m).close.present())
        refuse(given, fmt::format("method {}: its per-call shape needs both open and close", m.name));
    names.push_back(m.name);
}

/// Checks the method families of plugin `given` before any is registered:
/// refuses it (usage_error) for a family the plugin reported an error for,
/// a bad or taken family name, a family with no method, or a bad method
/// (check_plugin_method).
void check_plugin_families(const fs::path& given, const std::vector<plugin::Family>& families) {
    std::vector<std::string> names;
    for (const plugin::Family& f : families) {
        if (!f.error.empty()) refuse(given, fmt::format("family {}: {}", f.family, f.error));
        if (!valid_name(f.family))
            refuse(given, fmt::format("family \"{}\": a family's name is letters, digits and _ . + - only, not empty",
                                      f.family));
        if (f.methods.empty()) refuse(given, fmt::format("family {} has no method", f.family));
        for (const Method& m : methods())
            if (m.family == f.family)
                refuse(given, fmt::format("registers family {}, which iobench has already (method {})", f.family,
                                          m.name));
        for (const Method& m : f.methods) check_plugin_method(given, f, m, names);
    }
}

}  // namespace

LoadedPlugin load_plugin(const fs::path& given) {
    if (given.empty()) throw usage_error("--plugin '': give the path of a plugin");
    // Opened once, every link resolved, refused when another user could
    // change it; hashed and loaded through that descriptor (handle).
    // Held open as long as the process lives: on Linux the library is named
    // by its descriptor (/proc/self/fd/N), and a number closed and reused by
    // the next plugin would be taken by the loader for the same library.
    static std::vector<std::unique_ptr<TrustedFile>> held;
    held.push_back(std::make_unique<TrustedFile>(given, "--plugin"));
    const TrustedFile& file = *held.back();
    const fs::path& path = file.path();
    std::error_code ec;
    LoadedPlugin plugin;
    plugin.path = path.string();
    plugin.owner = file.owner();
    plugin.sha256 = file.sha256();
    for (const LoadedPlugin& earlier : plugin_list())
        if (fs::equivalent(path, earlier.path, ec))
            refuse(given, fmt::format("is the same file as --plugin {}, loaded already", earlier.path));

    const Library library = open_plugin_library(given, file);
    const auto identity_fn = entry_point<plugin::IdentityFn>(library, plugin::identity_symbol);
    const auto families_fn = entry_point<plugin::FamiliesFn>(library, plugin::families_symbol);
    if (!identity_fn || !families_fn)
        refuse(given, fmt::format("not an iobench plugin (no {} entry point): build it with iobench_add_plugin()",
                                  identity_fn ? plugin::families_symbol : plugin::identity_symbol));
    const iobench_build_identity* theirs = identity_fn();
    check_identity(given, theirs);
    // Every plugin of this API has it (core/plugins/plugin_entry.cpp).
    const auto workloads_fn = entry_point<plugin::WorkloadsFn>(library, plugin::workloads_symbol);
    if (!workloads_fn)
        refuse(given, fmt::format("not an iobench plugin (no {} entry point): build it with iobench_add_plugin()",
                                  plugin::workloads_symbol));
    plugin.built_with = identity_text(*theirs);

    // The identities are equal: the plugin's C++ objects can be read here.
    const std::vector<plugin::Family>* families = families_fn();
    const std::vector<LinesWorkload>* lines = workloads_fn();
    if ((!families || families->empty()) && (!lines || lines->empty()))
        refuse(given, "registers no method family and no workload (no MethodRegistrar or LinesRegistrar in its "
                      "sources)");
    // Every check before the first registration: all of the plugin or nothing.
    std::vector<std::unique_ptr<Workload>> made = make_plugin_workloads(given, lines);
    static const std::vector<plugin::Family> no_families;
    const std::vector<plugin::Family>& plugin_families = families ? *families : no_families;
    check_plugin_families(given, plugin_families);
    for (std::unique_ptr<Workload>& w : made) {
        plugin.workloads.emplace_back(w->name());
        register_workload(std::move(w));
    }
    for (const plugin::Family& f : plugin_families) {
        // Copies, never moves: the strings were allocated by the plugin.
        register_family(FamilyDefaults{f.family, f.unavailable}, std::span<const Method>(f.methods),
                        FamilyOrigin::added);
        plugin.families.push_back(f.family);
        for (const Method& m : f.methods) {
            plugin.methods.push_back(m.name);
            plugin.descriptions.push_back(m.description);
        }
    }
    plugin_list().push_back(plugin);
    return plugin;
}

}  // namespace iobench
