// A fresh temporary directory per test, removed at the end.
#pragma once

#include <filesystem>
#include <random>
#include <string>

namespace iobench::test {

/// Creates `<temp>/iobench-test-<random>` and removes it with its contents when destroyed.
class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = std::filesystem::temp_directory_path() / ("iobench-test-" + std::to_string(rd()) + std::to_string(rd()));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace iobench::test
