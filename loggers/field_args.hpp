// A FieldsRecord's fields as typed arguments of a logger call: for the loggers
// whose arguments are typed at compile time (Quill's and fmtlog's queues copy
// each argument by its type, and their backends format them), a record of up
// to max_typed_fields fields becomes one call `f(args...)` of the types its
// fields have (std::int64_t, double, std::string_view), in their order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>

#include <iobench/method.hpp>

namespace iobench::loggers {

/// Most fields a record may have here: each count of fields and each kind
/// of each field is a call of its own compiled, 3^0 + ... + 3^4 = 121 of
/// them per logger call site.
inline constexpr std::size_t max_typed_fields = 4;

template <class F, class... Args>
void with_field_args_from(const FieldsRecord& r, std::size_t k, F& f, const Args&... args) {
    if constexpr (sizeof...(Args) == max_typed_fields) {
        f(args...);
    } else {
        if (k == r.count) {
            f(args...);
            return;
        }
        const Field& field = r.fields[k];
        switch (field.kind) {
        case Field::Kind::integer: with_field_args_from(r, k + 1, f, args..., field.integer); return;
        case Field::Kind::real: with_field_args_from(r, k + 1, f, args..., field.real); return;
        case Field::Kind::text: with_field_args_from(r, k + 1, f, args..., field.text); return;
        }
    }
}

/// `format`'s text, NUL-terminated, kept for the life of the process (one
/// copy per distinct text): for a logger that keeps a format by pointer and
/// may use it after the row that gave it (Quill's LOG_DYNAMIC; its backend
/// formats later), or keyed by its address. The calling thread's last text is
/// found without a lock; another, in a table under a mutex.
inline const char* interned_format(std::string_view format) {
    thread_local const std::string* last = nullptr;
    if (last && *last == format) return last->c_str();
    static std::mutex mutex;
    static std::unordered_set<std::string> texts;  // (its elements never move)
    const std::lock_guard<std::mutex> lock(mutex);
    last = &*texts.emplace(format).first;
    return last->c_str();
}

/// Calls `f(args...)` with `r`'s fields as arguments of their types. Throws
/// std::invalid_argument when `r` has more than max_typed_fields fields (the
/// row fails, saying so).
template <class F>
void with_field_args(const FieldsRecord& r, F&& f) {
    if (r.count > max_typed_fields)
        throw std::invalid_argument("a record of " + std::to_string(r.count) + " fields: this logger's plugin takes " +
                                    std::to_string(max_typed_fields) + " at most (loggers/field_args.hpp)");
    with_field_args_from(r, 0, f);
}

}  // namespace iobench::loggers
