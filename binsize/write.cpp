// binary_size program of the posix family (fast_io's binary-size table):
// `hello-write PATH COUNT` writes "Hello World\n" COUNT times to PATH with one
// write(2) per line, as the `write` method does. POSIX only.
//
// binsize-needs: posix
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    const unsigned long long count = std::strtoull(argv[2], nullptr, 10);
    const int fd = ::open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return 1;
    static const char line[] = "Hello World\n";
    for (unsigned long long i = 0; i < count; ++i) {
        const char* p = line;
        std::size_t left = sizeof line - 1;
        while (left != 0) {
            const ssize_t n = ::write(fd, p, left);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return 1;
            p += n;
            left -= static_cast<std::size_t>(n);
        }
    }
    return ::close(fd) == 0 ? 0 : 1;
}
