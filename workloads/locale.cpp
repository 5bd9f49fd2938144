// ints_out_locale and ints_in_locale: the locale rows of fast_io's 10M-integer
// table (fast_io's README, https://github.com/cppfastio/fast_io: "c_locale_i/obuf_file local",
// "imbued with locale, locale \"\""): ints_out / ints_in through the user's
// locale (std::locale(""), setlocale(LC_ALL, "")), next to the same methods
// with the classic "C" locale in ints_out / ints_in. Where the user's locale
// groups digits (en_US.UTF-8: "1,234,567"), the expected text is grouped the
// same way (data/grouped_text.hpp, from the locale's numpunct data), so every
// byte is still verified. A user locale that is not installed skips the
// benchmark with the reason.
#include <fmt/format.h>

#include <cstdlib>
#include <locale>
#include <stdexcept>

#include <iobench/error.hpp>
#include "core/engine/output_trial.hpp"
#include "core/engine/session.hpp"
#include "data/grouped_text.hpp"
#include "workloads/ints_in_trial.hpp"

namespace iobench {
namespace {

constexpr std::uint64_t published_count = 10'000'000;

/// The environment variables that choose the user's numeric locale, for messages.
std::string locale_environment() {
    std::string out;
    for (const char* name : {"LC_ALL", "LC_NUMERIC", "LANG"}) {
        const char* value = std::getenv(name);
        if (value && *value) out += fmt::format("{}{}={}", out.empty() ? "" : " ", name, value);
    }
    return out.empty() ? "no LC_ALL, LC_NUMERIC or LANG: the \"C\" locale" : out;
}

/// The digit grouping of the user's locale (std::locale("")). Throws
/// `unavailable_error` when the locale the environment names is not installed.
DigitGrouping user_grouping() {
    try {
        const std::locale user("");
        const auto& punct = std::use_facet<std::numpunct<char>>(user);
        return {std::string(1, punct.thousands_sep()), punct.grouping()};
    } catch (const std::runtime_error& e) {
        throw unavailable_error(
            fmt::format("the user's locale ({}) is not installed: {}", locale_environment(), e.what()));
    }
}

/// A key part naming `g` (the separator's bytes and the group sizes).
std::string grouping_key(const DigitGrouping& g) {
    std::string key;
    for (char c : g.separator) key += fmt::format("{:02x}", static_cast<unsigned char>(c));
    key += '/';
    for (char c : g.grouping) key += fmt::format("{},", static_cast<int>(static_cast<signed char>(c)));
    return key;
}

class IntsOutLocale final : public Workload {
public:
    IntsOutLocale()
        : Workload({.name = "ints_out_locale",
                    .description =
                        "ints_out with the user's locale: 0..N-1, digits grouped as that locale groups them (N = 10M)",
                    .operation = Operation::put_ints_locale,
                    .item_unit = "integer",
                    .default_count = published_count}) {}

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        const std::uint64_t n = count(s);
        const DigitGrouping g = user_grouping();
        return make_output_trial(s, name(), m, p,
                                 {fmt::format("ints-grouped:{}:{}", n, grouping_key(g)), grouped_ints_text(n, g), n},
                                 [put = PutInts(m.put_ints_locale), n](const Sink& sink) { put(sink, n); });
    }
};

/// The ints_in_locale input: 0 .. count-1 grouped as `g` groups digits, written once per session.
const std::filesystem::path& grouped_ints_input(Session& s, std::uint64_t count, const DigitGrouping& g) {
    const std::string name = fmt::format("ints-grouped-{}-{}.txt", count, std::hash<std::string>{}(grouping_key(g)));
    return s.input(name,
                   [&](const std::filesystem::path& path) { write_generated_file(path, grouped_ints_text(count, g)); });
}

/// Size in bytes of the file at `path`. Throws `io_error`.
std::uint64_t size_of(const std::filesystem::path& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) throw io_error("stat", path.string(), ec);
    return size;
}

class IntsInLocale final : public Workload {
public:
    IntsInLocale()
        : Workload({.name = "ints_in_locale",
                    .description =
                        "ints_in with the user's locale: read 0..N-1 written with that locale's digit grouping (N = 10M)",
                    .operation = Operation::get_ints_locale,
                    .item_unit = "integer",
                    .default_count = published_count}) {}

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        const std::uint64_t n = count(s);
        const std::filesystem::path& file = grouped_ints_input(s, n, user_grouping());
        return std::make_unique<IntsInTrial>(file, size_of(file), m.get_ints_locale, m, p, n);
    }
};

const WorkloadRegistrar<IntsOutLocale> ints_out_locale_registrar;
const WorkloadRegistrar<IntsInLocale> ints_in_locale_registrar;

}  // namespace
}  // namespace iobench
