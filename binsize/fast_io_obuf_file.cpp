// binary_size program of the fast_io family (fast_io's binary-size table, its
// "fast_io::obuf_file 155KB" row): `hello-fast_io_obuf_file PATH COUNT`
// writes "Hello World\n" COUNT times to PATH with fast_io::obuf_file, as the
// `fast_io_obuf_file` method does.
//
// binsize-needs: fast_io
#include <fast_io_device.h>

#include <cstdlib>
#include <string_view>

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    const unsigned long long count = std::strtoull(argv[2], nullptr, 10);
    try {
        fast_io::obuf_file out(fast_io::mnp::os_c_str(argv[1]));
        constexpr std::string_view line = "Hello World\n";
        for (unsigned long long i = 0; i < count; ++i) fast_io::print_freestanding(out, line);
        out.close();
    } catch (const fast_io::error&) {
        return 1;
    }
    return 0;
}
