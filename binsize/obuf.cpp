// binary_size program of the obuf family (fast_io's binary-size table):
// `hello-obuf PATH COUNT` writes "Hello World\n" COUNT times to PATH through
// iobench's obuf (methods/obuf.hpp) over a file descriptor (a Win32 HANDLE on
// Windows), as the `obuf` method does.
#include <cstdlib>
#include <exception>

#ifdef _WIN32
#include "methods/win32_device.hpp"
#else
#include "methods/fd_device.hpp"
#include "methods/posix_file.hpp"
#endif

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    const unsigned long long count = std::strtoull(argv[2], nullptr, 10);
    try {
#ifdef _WIN32
        iobench::unique_handle file = iobench::create_file_handle(argv[1]);
        iobench::handle_obuf out(iobench::handle_sink_device{file.get(), argv[1]});
#else
        iobench::unique_fd file = iobench::create_file(argv[1]);
        iobench::obuf out(iobench::fd_sink_device{file.get(), argv[1]});
#endif
        {
            decltype(out)::cursor cur(out);
            for (unsigned long long i = 0; i < count; ++i) cur.write("Hello World\n");
        }
        out.flush();
        file.close();
    } catch (const std::exception&) {
        return 1;
    }
    return 0;
}
