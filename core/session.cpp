#include "core/session.hpp"

#include <cmath>
#include <system_error>

#include "core/cleanup.hpp"

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

Session::Session(std::filesystem::path dir, double scale, bool keep_files, bool owns_dir)
    : dir_(std::move(dir)), scale_(scale), keep_files_(keep_files), owns_dir_(owns_dir) {
    if (owns_dir_) remove_on_interrupt(dir_);
}

Session::~Session() {
    std::error_code ec;
    if (!keep_files_) {
        for (const auto& [name, path] : inputs_) {
            std::filesystem::remove(path, ec);
            forget_on_interrupt(path);
        }
    }
    if (owns_dir_ && !keep_files_) {
        std::filesystem::remove_all(dir_, ec);
        forget_on_interrupt(dir_);
    }
}

std::uint64_t Session::scaled(std::uint64_t count) const {
    const double n = std::llround(static_cast<double>(count) * scale_);
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

std::filesystem::path Session::output(const std::string& name) {
    std::filesystem::path path = dir_ / ("output-" + name);
    remove_on_interrupt(path);
    return path;
}

const Digest& Session::expected(const std::string& key, const Generator& generate) {
    if (auto it = expected_.find(key); it != expected_.end()) return it->second;
    return expected_.emplace(key, digest_of(generate)).first->second;
}

}  // namespace iobench
