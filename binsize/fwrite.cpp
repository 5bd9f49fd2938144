// binary_size program of the stdio family (fast_io's binary-size table):
// `hello-fwrite PATH COUNT` writes "Hello World\n" COUNT times to PATH with
// fwrite, as the `fwrite` method does. Exit status 0 when every byte was written.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    const unsigned long long count = std::strtoull(argv[2], nullptr, 10);
    std::FILE* f = std::fopen(argv[1], "wb");
    if (!f) return 1;
    static const char line[] = "Hello World\n";
    for (unsigned long long i = 0; i < count; ++i) std::fwrite(line, 1, sizeof line - 1, f);
    const bool failed = std::ferror(f) != 0;
    return std::fclose(f) == 0 && !failed ? 0 : 1;
}
