#include "core/engine/session.hpp"

#include <fmt/format.h>

#include <cmath>
#include <system_error>

#ifndef _WIN32
#include <sys/resource.h>
#endif

#include "core/os/cleanup.hpp"

namespace iobench {

std::string_view to_string(StdoutTarget target) {
    switch (target) {
    case StdoutTarget::devnull: return "devnull";
    case StdoutTarget::file: return "file";
    case StdoutTarget::pipe: return "pipe";
    }
    return "devnull";
}

std::optional<StdoutTarget> parse_stdout_target(std::string_view name) {
    for (StdoutTarget t : {StdoutTarget::devnull, StdoutTarget::file, StdoutTarget::pipe})
        if (to_string(t) == name) return t;
    return std::nullopt;
}

std::optional<std::uint64_t> room_for_file(const std::filesystem::path& dir) {
    std::error_code ec;
    const std::filesystem::space_info info = std::filesystem::space(dir, ec);
    if (ec || info.available == static_cast<std::uintmax_t>(-1)) return std::nullopt;
    std::uint64_t room = info.available;
#ifndef _WIN32
    struct rlimit limit {};
    if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < room)
        room = limit.rlim_cur;
#endif
    return room;
}

std::uint64_t write_generated_file(const std::filesystem::path& path, const Generator& generate) {
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    return write_generated_file(path, generate, room_for_file(dir));
}

namespace {

std::string room_message(const std::filesystem::path& dir, const std::string& name, const std::string& needed,
                         std::uint64_t room) {
    std::uint64_t free_bytes = room;
    std::error_code ec;
    const auto info = std::filesystem::space(dir, ec);
    if (!ec) free_bytes = info.available;
    const std::string limit = free_bytes > room ? fmt::format(" (the file-size limit is {} bytes)", room) : "";
    return fmt::format("{} needs {} bytes, {} has {} available{}", name, needed, dir.string(), free_bytes, limit);
}

}  // namespace

void require_room(const std::filesystem::path& dir, const std::string& name, std::uint64_t bytes) {
    const auto room = room_for_file(dir);
    if (room && bytes > *room) throw space_error(room_message(dir, name, std::to_string(bytes), *room));
}

Session::Session(std::filesystem::path dir, double scale, bool keep_files)
    : dir_(std::move(dir)), scale_(scale), keep_files_(keep_files) {
    check_buffer();  // before any method runs: a leak of one cannot take it from the next row's check
}

Session::~Session() {
    std::error_code ec;
    if (!keep_files_) {
        for (const auto& [name, path] : inputs_) {
            std::filesystem::remove(path, ec);
            forget_on_interrupt(path);
        }
    }
}

std::uint64_t Session::scaled(std::uint64_t count) const {
    const long long n = std::llround(static_cast<double>(count) * scale_);
    return n < 1 ? 1 : static_cast<std::uint64_t>(n);
}

const std::filesystem::path& Session::input(const std::string& name,
                                            const std::function<void(const std::filesystem::path&)>& make) {
    if (auto it = inputs_.find(name); it != inputs_.end()) return it->second;
    std::filesystem::path path = dir_ / ("input-" + name);
    remove_on_interrupt(path);
    try {
        make(path);
    } catch (...) {
        std::error_code ec;
        std::filesystem::remove(path, ec);
        forget_on_interrupt(path);
        throw;
    }
    return inputs_.emplace(name, std::move(path)).first->second;
}

const std::filesystem::path& Session::input(const std::string& name, std::uint64_t bytes,
                                            const std::function<void(const std::filesystem::path&)>& make) {
    if (auto it = inputs_.find(name); it != inputs_.end()) return it->second;
    require_room(dir_, "input-" + name, bytes);
    return input(name, make);
}

std::filesystem::path Session::output(const std::string& name) {
    std::filesystem::path path = dir_ / ("output-" + name);
    remove_on_interrupt(path);
    return path;
}

const Digest& Session::expected(const std::string& key, const Generator& generate) {
    const auto room = room_for_file(dir_);
    if (auto it = expected_.find(key); it != expected_.end()) {
        if (room && it->second.size > *room)
            throw space_error(room_message(dir_, "the output", std::to_string(it->second.size), *room));
        return it->second;
    }
    Checksum sum;
    generate([&](std::string_view chunk) {
        sum.update(chunk);
        if (room && sum.size() > *room)
            throw space_error(room_message(dir_, "the output", fmt::format("more than {}", *room), *room));
    });
    return expected_.emplace(key, Digest{sum.size(), sum.digest()}).first->second;
}

const std::map<std::string, double>* Session::kept_probe(const std::string& row) const {
    const auto it = kept_probes_.find(row);
    return it == kept_probes_.end() ? nullptr : &it->second;
}

void Session::keep_probe(const std::string& row, std::map<std::string, double> figures) {
    kept_probes_[row] = std::move(figures);
}

}  // namespace iobench
