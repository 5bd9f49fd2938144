// State shared by every benchmark of one run: the target directory, the scale,
// and the generated inputs, made once and reused by every method.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "data/checksum.hpp"

namespace iobench {

/// One iobench run's shared state. Removes what it generated when destroyed,
/// unless `keep_files`; a temporary directory it created is removed as well.
class Session {
public:
    /// `dir` must exist and be writable (the CLI checks). `scale` > 0
    /// multiplies every workload's default count.
    Session(std::filesystem::path dir, double scale, bool keep_files, bool owns_dir);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Directory where inputs and outputs are written.
    const std::filesystem::path& dir() const { return dir_; }
    /// Multiplier of every workload's default count.
    double scale() const { return scale_; }
    /// `count` times the scale, rounded, at least 1.
    std::uint64_t scaled(std::uint64_t count) const;

    /// Path of the generated input `name` in the directory, written by `make`
    /// the first time it is asked for.
    /// Throws what `make` throws; a partly written input is removed.
    const std::filesystem::path& input(const std::string& name,
                                       const std::function<void(const std::filesystem::path&)>& make);

    /// Path for an output file called `name` in the directory, registered for
    /// removal if the run is interrupted. The trial removes it after verifying.
    std::filesystem::path output(const std::string& name);

    /// Expected digest of a generated stream, computed once per key.
    const Digest& expected(const std::string& key, const Generator& generate);

private:
    std::filesystem::path dir_;
    double scale_;
    bool keep_files_;
    bool owns_dir_;
    std::map<std::string, std::filesystem::path> inputs_;
    std::map<std::string, Digest> expected_;
};

}  // namespace iobench
