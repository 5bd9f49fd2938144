// Tests of the Win32 HANDLE devices (methods/win32_device.hpp) that obuf and
// ibuf run over on Windows: round trips through real files with tiny and
// default buffers, errors from WriteFile/ReadFile/CreateFileW as io_error,
// and UTF-8 paths. Windows only (run under wine by the MinGW build).
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "core/os/environment.hpp"
#include "methods/win32_device.hpp"
#include "test_dir.hpp"

namespace iobench {
namespace {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string expected_ints(std::uint64_t count) {
    std::string text;
    for (std::uint64_t i = 0; i < count; ++i) text += std::to_string(i) + '\n';
    return text;
}

TEST(Win32Device, ObufAndIbufRoundTripWithAnyBufferSize) {
    test::TempDir dir;
    const std::string path = (dir.path() / "ints.txt").string();
    for (std::size_t size : {1u, 7u, 4096u, 0u}) {
        {
            unique_handle file = create_file_handle(path);
            handle_obuf out(handle_sink_device{file.get(), path}, size);
            for (std::uint64_t i = 0; i < 5000; ++i) {
                out.put_uint(i);
                out.put('\n');
            }
            out.flush();
            file.close();
        }
        ASSERT_EQ(read_file(path), expected_ints(5000)) << "buffer_size " << size;

        unique_handle file = open_file_handle(path);
        handle_ibuf in(handle_source_device{file.get(), path}, size);
        std::uint64_t v = 0, n = 0;
        while (in.get_uint(v)) ASSERT_EQ(v, n++) << "buffer_size " << size;
        EXPECT_EQ(n, 5000u) << "buffer_size " << size;
        file.close();
    }
}

TEST(Win32Device, WriteAllWritesEveryByteWithCRLFUntranslated) {
    test::TempDir dir;
    const std::string path = (dir.path() / "lines.txt").string();
    unique_handle file = create_file_handle(path);
    write_all(file.get(), "a\nb\r\n", 5, path);
    file.close();
    EXPECT_EQ(read_file(path), "a\nb\r\n");
}

TEST(Win32Device, FailedCallsBecomeIoErrorsNamingTheCall) {
    test::TempDir dir;
    const std::string path = (dir.path() / "x.txt").string();
    {
        unique_handle file = create_file_handle(path);
        write_all(file.get(), "1\n", 2, path);
        file.close();
    }
    {
        unique_handle file = open_file_handle(path);  // read-only: WriteFile fails
        handle_obuf out(handle_sink_device{file.get(), path}, 16);
        out.write("12345\n");
        try {
            out.flush();
            FAIL() << "no error from WriteFile on a read-only handle";
        } catch (const io_error& e) {
            EXPECT_NE(std::string(e.what()).find("WriteFile(" + path + ")"), std::string::npos) << e.what();
        }
    }
    {
        unique_handle file = create_file_handle(path);  // write-only: ReadFile fails
        handle_ibuf in(handle_source_device{file.get(), path}, 16);
        std::uint64_t v = 0;
        try {
            in.get_uint(v);
            FAIL() << "no error from ReadFile on a write-only handle";
        } catch (const io_error& e) {
            EXPECT_NE(std::string(e.what()).find("ReadFile(" + path + ")"), std::string::npos) << e.what();
        }
    }
    const std::string missing = (dir.path() / "no-such-file").string();
    try {
        open_file_handle(missing);
        FAIL() << "no error from CreateFileW on a missing file";
    } catch (const io_error& e) {
        EXPECT_NE(std::string(e.what()).find("CreateFileW(" + missing + ")"), std::string::npos) << e.what();
        EXPECT_EQ(e.code().value(), static_cast<int>(ERROR_FILE_NOT_FOUND));
    }
}

TEST(Win32Device, Utf8PathsReachCreateFileW) {
    test::TempDir dir;
    const std::string name = "caf\xC3\xA9-\xE6\x97\xA5.txt";  // "café-日.txt" in UTF-8
    const std::string path = dir.path().string() + "\\" + name;
    unique_handle file = create_file_handle(path);
    write_all(file.get(), "x", 1, path);
    file.close();
    const std::u8string utf8(reinterpret_cast<const char8_t*>(name.data()), name.size());
    EXPECT_TRUE(std::filesystem::exists(dir.path() / std::filesystem::path(utf8)));
}

TEST(Win32Environment, ContextSaysWindows) {
    test::TempDir dir;
    bool found = false;
    for (const auto& [key, value] : describe_environment(dir.path())) {
        if (key != "os") continue;
        found = true;
        EXPECT_EQ(value.rfind("Windows ", 0), 0u) << value;
    }
    EXPECT_TRUE(found);
}

}  // namespace
}  // namespace iobench
