// binary_size program of the iostream family (fast_io's binary-size table):
// `hello-ofstream PATH COUNT` writes "Hello World\n" COUNT times to PATH with
// std::ofstream::write, as the `ofstream` method does.
#include <cstdlib>
#include <fstream>

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    const unsigned long long count = std::strtoull(argv[2], nullptr, 10);
    std::ofstream out(argv[1], std::ios::out | std::ios::trunc | std::ios::binary);
    if (!out) return 1;
    static const char line[] = "Hello World\n";
    for (unsigned long long i = 0; i < count; ++i) out.write(line, sizeof line - 1);
    out.close();
    return out ? 0 : 1;
}
