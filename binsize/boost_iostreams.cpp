// binary_size program of the boost family (fast_io's binary-size table):
// `hello-boost_iostreams PATH COUNT` writes "Hello World\n" COUNT times to
// PATH through boost::iostreams::stream<file_descriptor_sink>::write, as the
// `boost_iostreams` method does.
//
// binsize-needs: boost_iostreams
#include <boost/iostreams/device/file_descriptor.hpp>
#include <boost/iostreams/stream.hpp>
#include <cstdlib>
#include <exception>

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    const unsigned long long count = std::strtoull(argv[2], nullptr, 10);
    try {
        namespace io = boost::iostreams;
        io::stream<io::file_descriptor_sink> out(
            io::file_descriptor_sink(argv[1], std::ios::out | std::ios::trunc | std::ios::binary));
        static const char line[] = "Hello World\n";
        for (unsigned long long i = 0; i < count; ++i) out.write(line, sizeof line - 1);
        out.flush();
        if (!out) return 1;
        out.close();
    } catch (const std::exception&) {
        return 1;
    }
    return 0;
}
