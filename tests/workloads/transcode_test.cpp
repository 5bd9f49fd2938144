// The transcode workloads' expected bytes (data/transcode.hpp) checked against
// the system's converter, and every transcode method run on a file whose
// code points straddle its 64 KiB reads.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "data/checksum.hpp"
#include "data/transcode.hpp"
#include "test_dir.hpp"

#if __has_include(<iconv.h>) && !defined(_WIN32)
#include <iconv.h>
#define IOBENCH_TEST_ICONV 1
#endif
#ifdef _WIN32
#include <windows.h>
#endif

namespace iobench {
namespace {

constexpr Encoding all_encodings[] = {Encoding::utf16le, Encoding::utf32le, Encoding::gb18030};

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(TranscodeData, Utf8IsTheRfc3629FormOfU1F684) {
    const char32_t cp = transcode_code_point;
    const std::string expected{static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                               static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
    EXPECT_EQ(std::string(emoji_utf8), expected);
}

TEST(TranscodeData, EveryTargetTakesFourBytes) {
    for (Encoding to : all_encodings) EXPECT_EQ(emoji_encoded(to).size(), 4u) << to_string(to);
}

#ifdef IOBENCH_TEST_ICONV
/// `text` converted from UTF-8 to `to` by iconv(3).
std::string iconv_convert(std::string text, const char* to) {
    iconv_t cd = iconv_open(to, "UTF-8");
    if (cd == reinterpret_cast<iconv_t>(-1)) return "iconv_open failed";
    std::string out(text.size() * 4 + 16, '\0');
    char* in = text.data();
    std::size_t in_left = text.size();
    char* o = out.data();
    std::size_t o_left = out.size();
    const std::size_t r = iconv(cd, &in, &in_left, &o, &o_left);
    iconv_close(cd);
    if (r == static_cast<std::size_t>(-1) || in_left != 0) return "iconv failed";
    out.resize(out.size() - o_left);
    return out;
}

TEST(TranscodeData, EncodingsAgreeWithIconv) {
    EXPECT_EQ(iconv_convert(std::string(emoji_utf8), "UTF-16LE"), emoji_encoded(Encoding::utf16le));
    EXPECT_EQ(iconv_convert(std::string(emoji_utf8), "UTF-32LE"), emoji_encoded(Encoding::utf32le));
    EXPECT_EQ(iconv_convert(std::string(emoji_utf8), "GB18030"), emoji_encoded(Encoding::gb18030));
}
#endif

#ifdef _WIN32
TEST(TranscodeData, EncodingsAgreeWithWindows) {
    wchar_t wide[4] = {};
    const int units = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, emoji_utf8.data(), 4, wide, 4);
    ASSERT_EQ(units, 2);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(wide), 4), emoji_encoded(Encoding::utf16le));
    if (!IsValidCodePage(54936)) GTEST_SKIP() << "code page 54936 (GB18030) is not installed here";
    char gb[8] = {};
    const int bytes = WideCharToMultiByte(54936, 0, wide, units, gb, 8, nullptr, nullptr);
    EXPECT_EQ(std::string(gb, static_cast<std::size_t>(bytes)), emoji_encoded(Encoding::gb18030));
}
#endif

TEST(TranscodeData, GeneratorRepeatsTheEncoding) {
    const Digest d = digest_of(emoji_text(Encoding::gb18030, 1000));
    EXPECT_EQ(d.size, 4000u);
    std::string expected;
    for (int i = 0; i < 1000; ++i) expected += emoji_encoded(Encoding::gb18030);
    Checksum c;
    c.update(expected);
    EXPECT_EQ(d.checksum, c.digest());
}

/// 'A' in `to`: one code unit.
std::string letter_a(Encoding to) {
    switch (to) {
    case Encoding::utf16le:
        return std::string("A\0", 2);
    case Encoding::utf32le:
        return std::string("A\0\0\0", 4);
    case Encoding::gb18030:
        return "A";
    }
    return {};
}

// One ASCII byte first, so that every 64 KiB read of the 20,000 emojis behind
// it ends inside a code point: the methods must carry it to the next read.
TEST(TranscodeMethods, CarryCodePointsSplitBetweenReads) {
    test::TempDir dir;
    const auto input = dir.path() / "split.txt";
    {
        std::ofstream out(input, std::ios::binary);
        out << 'A';
        for (int i = 0; i < 20'000; ++i) out << emoji_utf8;
    }
    int ran = 0;
    for (const Method& m : methods()) {
        if (!m.transcode || !m.unavailable.empty()) continue;
        for (Encoding to : all_encodings) {
            const auto output = dir.path() / ("out-" + m.name + "-" + std::string(to_string(to)));
            std::string expected = letter_a(to);
            for (int i = 0; i < 20'000; ++i) expected += emoji_encoded(to);
            try {
                m.transcode(Source{input.string(), 0}, Sink{output.string(), 0}, to);
            } catch (const unavailable_error& e) {
                std::cout << m.name << " to " << to_string(to) << ": skipped, " << e.what() << '\n';
                continue;
            }
            ++ran;
            EXPECT_TRUE(read_file(output) == expected) << m.name << " to " << to_string(to);
        }
    }
    EXPECT_GE(ran, 2) << "at least iconv (or MultiByteToWideChar) and codecvt convert to UTF-16LE";
}

TEST(TranscodeMethods, InvalidUtf8IsAParseErrorOrReplaced) {
    test::TempDir dir;
    const auto input = dir.path() / "bad.txt";
    {
        std::ofstream out(input, std::ios::binary);
        out << emoji_utf8 << "\xFF\xFE" << emoji_utf8;
    }
    int refused = 0, replaced = 0;  // methods that threw parse_error, that substituted U+FFFD
    for (const Method& m : methods()) {
        if (!m.transcode || !m.unavailable.empty()) continue;
        const auto output = dir.path() / ("bad-" + m.name);
        try {
            m.transcode(Source{input.string(), 0}, Sink{output.string(), 0}, Encoding::utf16le);
        } catch (const parse_error&) {
            ++refused;
            continue;
        }
        // A method that substitutes U+FFFD (fast_io) keeps both emoji and puts
        // at least one replacement character (FD FF in UTF-16LE) between them.
        const std::string written = read_file(output);
        const std::string emoji(emoji_encoded(Encoding::utf16le));
        ASSERT_GE(written.size(), 2 * emoji.size() + 2) << m.name << " wrote " << written.size() << " bytes";
        EXPECT_EQ(written.substr(0, emoji.size()), emoji) << m.name;
        EXPECT_EQ(written.substr(written.size() - emoji.size()), emoji) << m.name;
        const std::string middle = written.substr(emoji.size(), written.size() - 2 * emoji.size());
        bool replacement = false;  // U+FFFD as a UTF-16LE unit: FD FF at an even offset
        for (std::size_t i = 0; i + 1 < middle.size(); i += 2) replacement |= middle.compare(i, 2, "\xFD\xFF") == 0;
        EXPECT_TRUE(replacement) << m.name << ": no U+FFFD between the emoji";
        ++replaced;
    }
    EXPECT_GE(refused + replaced, 2) << "at least iconv (or MultiByteToWideChar) and codecvt ran";
}

}  // namespace
}  // namespace iobench
