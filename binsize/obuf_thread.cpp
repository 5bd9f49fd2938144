// binary_size program of the obuf_overlapped family (fast_io's binary-size
// table): `hello-obuf_thread PATH COUNT` writes "Hello World\n" COUNT times to
// PATH through obuf over a writer thread of its own (methods/thread_device.hpp:
// full buffers handed to the thread, written with write(2), WriteFile on
// Windows), as the `obuf_thread` method does.
// binsize-needs: threads
#include <cstdlib>
#include <exception>

#include "methods/buffer_sizes.hpp"
#include "methods/obuf.hpp"
#include "methods/thread_device.hpp"
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
        using sink = iobench::handle_sink_device;
#else
        iobench::unique_fd file = iobench::create_file(argv[1]);
        using sink = iobench::fd_sink_device;
#endif
        using device = iobench::thread_sink_device<sink>;
        iobench::basic_obuf<device> out(device(sink{file.get(), argv[1]}), iobench::default_handoff_buffer_size);
        {
            iobench::basic_obuf<device>::cursor cur(out);
            for (unsigned long long i = 0; i < count; ++i) cur.write("Hello World\n");
        }
        out.flush();
        file.close();
    } catch (const std::exception&) {
        return 1;
    }
    return 0;
}
