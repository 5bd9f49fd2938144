// binary_size program of the fmt family (fast_io's binary-size table):
// `hello-fmt_output_file PATH COUNT` writes "Hello World\n" COUNT times to
// PATH with fmt::output_file + print("{}", line), as the `fmt_output_file`
// method does. Linked with a static fmt library, so its code is in the program.
//
// binsize-needs: fmt
#include <fmt/os.h>
#ifdef _WIN32
#include <fcntl.h>  // _O_BINARY
#endif

#include <cstdlib>
#include <exception>
#include <string_view>

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    const unsigned long long count = std::strtoull(argv[2], nullptr, 10);
    try {
#ifdef _WIN32
        // Binary mode, as the method: '\n' stays '\n' (not "\r\n").
        fmt::ostream out = fmt::output_file(argv[1], fmt::file::WRONLY | fmt::file::CREATE | fmt::file::TRUNC | _O_BINARY);
#else
        fmt::ostream out = fmt::output_file(argv[1]);
#endif
        constexpr std::string_view line = "Hello World\n";
        for (unsigned long long i = 0; i < count; ++i) out.print("{}", line);
        out.close();
    } catch (const std::exception&) {
        return 1;
    }
    return 0;
}
