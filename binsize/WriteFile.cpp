// binary_size program of the win32 family (fast_io's binary-size table):
// `hello-WriteFile PATH COUNT` writes "Hello World\n" COUNT times to PATH with
// one WriteFile per line on a CreateFileW HANDLE, as the `WriteFile` method
// does. Windows only.
//
// binsize-needs: windows
#include <cstdlib>
#include <exception>

#include "methods/win32_device.hpp"

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    const unsigned long long count = std::strtoull(argv[2], nullptr, 10);
    try {
        iobench::unique_handle file = iobench::create_file_handle(argv[1]);
        static const char line[] = "Hello World\n";
        for (unsigned long long i = 0; i < count; ++i) iobench::write_all(file.get(), line, sizeof line - 1, argv[1]);
        file.close();
    } catch (const std::exception&) {
        return 1;
    }
    return 0;
}
