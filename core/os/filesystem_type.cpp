// The name of a directory's file system (iobench/error.hpp: filesystem_type),
// which the errors of iobench/error.hpp and the environment's context say.
#include <fstream>
#include <string>
#include <vector>

#include <iobench/error.hpp>

#ifdef _WIN32
#include <windows.h>
#endif

namespace iobench {

std::string filesystem_type(const std::filesystem::path& dir) {
#ifdef __linux__
    // The mount with the longest mount point that is a prefix of the directory.
    std::error_code ec;
    const std::string target = std::filesystem::weakly_canonical(dir, ec).string();
    std::ifstream in("/proc/self/mountinfo");
    std::string best_point;
    std::string best_type = "unknown";
    for (std::string line; std::getline(in, line);) {
        // fields: id parent major:minor root mount-point options [optional...] - fstype source super-options
        std::vector<std::string> f;
        std::size_t pos = 0;
        while (pos <= line.size()) {
            std::size_t sp = line.find(' ', pos);
            if (sp == std::string::npos) sp = line.size();
            f.push_back(line.substr(pos, sp - pos));
            pos = sp + 1;
        }
        if (f.size() < 7) continue;
        std::size_t dash = 6;
        while (dash < f.size() && f[dash] != "-") ++dash;
        if (dash + 1 >= f.size()) continue;
        const std::string& point = f[4];
        const bool covers = target == point || point == "/" ||
                            (target.rfind(point, 0) == 0 && target.size() > point.size() && target[point.size()] == '/');
        if (covers && point.size() >= best_point.size()) {
            best_point = point;
            best_type = f[dash + 1];
        }
    }
    return best_type;
#elif defined(_WIN32)
    std::error_code ec;
    const std::filesystem::path root = std::filesystem::absolute(dir, ec).root_path();
    wchar_t fs_name[MAX_PATH + 1] = {};
    if (GetVolumeInformationW(root.wstring().c_str(), nullptr, 0, nullptr, nullptr, nullptr, fs_name, MAX_PATH + 1)) {
        std::string out;
        for (const wchar_t* p = fs_name; *p; ++p) out += static_cast<char>(*p < 128 ? *p : '?');
        return out;
    }
    return "unknown";
#else
    (void)dir;
    return "unknown";
#endif
}

}  // namespace iobench
