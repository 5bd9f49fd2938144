// Not part of iobench's API (docs/plugins.md, "The API and its versions"): the
// build identity a plugin and iobench compare before anything of C++ crosses
// between them (iobench/plugin.hpp says what crosses). Included by
// core/plugins/plugin_entry.cpp, which iobench_add_plugin compiles into every
// plugin, and by iobench's plugin loader; a method file never includes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>  // std::size

#include <iobench/method.hpp>
#include <iobench/workload.hpp>

namespace iobench::detail {

/// FNV-1a, 64 bits (Fowler, Noll, Vo; the parameters of
/// http://www.isthe.com/chongo/tech/comp/fnv/), over the offset, size and
/// alignment of each member of one structure in declaration order: two builds
/// that lay a structure out differently (a member added, removed, reordered
/// or of another type) give different hashes, almost surely.
class LayoutHash {
public:
    /// Adds member `m` of `object` (a member of that very object).
    template <class T, class M>
    LayoutHash& member(const T& object, const M& m) noexcept {
        const auto offset = static_cast<std::uint64_t>(reinterpret_cast<const unsigned char*>(&m) -
                                                       reinterpret_cast<const unsigned char*>(&object));
        add(offset);
        add(sizeof(M));
        add(alignof(M));
        return *this;
    }
    /// The hash so far.
    std::uint64_t value() const noexcept { return hash_; }

private:
    void add(std::uint64_t v) noexcept {
        for (int i = 0; i < 8; ++i) {
            hash_ ^= (v >> (8 * i)) & 0xff;
            hash_ *= 0x100000001b3ULL;
        }
    }
    std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

/// The layout of T as this translation unit compiles it; `hash` from
/// `members(const T&, LayoutHash&)`, which lists every member in order.
template <class T, class Members>
iobench_type_layout layout_of(const char* name, Members members) {
    static const T probe{};
    LayoutHash hash;
    members(probe, hash);
    return {name, static_cast<unsigned>(sizeof(T)), static_cast<unsigned>(alignof(T)), hash.value()};
}

/// The layouts of every structure that crosses between a plugin and iobench
/// (iobench/plugin.hpp), in a fixed order; `count` set to how many.
inline const iobench_type_layout* crossing_layouts(unsigned& count) {
    static const iobench_type_layout layouts[] = {
        layout_of<Method>("Method",
                          [](const Method& m, LayoutHash& h) {
                              h.member(m, m.name).member(m, m.family).member(m, m.description);
                              h.member(m, m.default_buffer_size).member(m, m.sizable_buffer).member(m, m.unavailable);
                              h.member(m, m.reference).member(m, m.overwrites_existing);
                              h.member(m, m.calls_not_counted).member(m, m.process_counters);
#define IOBENCH_OPERATION_LAYOUT(type, member_name, summary) h.member(m, m.member_name);
                              IOBENCH_OPERATIONS(IOBENCH_OPERATION_LAYOUT)
#undef IOBENCH_OPERATION_LAYOUT
                              h.member(m, m.program).member(m, m.calls).member(m, m.maps_file);
                          }),
        layout_of<Calls>("Calls",
                         [](const Calls& c, LayoutHash& h) {
                             h.member(c, c.open).member(c, c.close).member(c, c.put_int).member(c, c.put_line);
                             h.member(c, c.put_record).member(c, c.put_fields).member(c, c.decode);
                             h.member(c, c.shared).member(c, c.drops);
                         }),
        layout_of<ProgramCommand>("ProgramCommand",
                                  [](const ProgramCommand& p, LayoutHash& h) {
                                      h.member(p, p.interpreter).member(p, p.file);
                                  }),
        layout_of<plugin::Family>("plugin::Family",
                                  [](const plugin::Family& f, LayoutHash& h) {
                                      h.member(f, f.family).member(f, f.unavailable).member(f, f.methods);
                                      h.member(f, f.error);
                                  }),
        layout_of<LinesWorkload>("LinesWorkload",
                                 [](const LinesWorkload& w, LayoutHash& h) {
                                     h.member(w, w.name).member(w, w.description).member(w, w.item_unit);
                                     h.member(w, w.default_count).member(w, w.line).member(w, w.record_format);
                                     h.member(w, w.record).member(w, w.message);
                                 }),
        layout_of<Sink>("Sink", [](const Sink& s, LayoutHash& h) { h.member(s, s.path).member(s, s.buffer_size); }),
        layout_of<Source>("Source",
                          [](const Source& s, LayoutHash& h) { h.member(s, s.path).member(s, s.buffer_size); }),
        layout_of<StdoutSink>("StdoutSink", [](const StdoutSink& s, LayoutHash& h) { h.member(s, s.buffer_size); }),
        layout_of<NumberedLine>("NumberedLine",
                                [](const NumberedLine& l, LayoutHash& h) { h.member(l, l.prefix).member(l, l.suffix); }),
        layout_of<LogRecord>("LogRecord",
                             [](const LogRecord& r, LayoutHash& h) {
                                 h.member(r, r.time_us).member(r, r.level).member(r, r.logger);
                                 h.member(r, r.request).member(r, r.duration_us).member(r, r.text);
                             }),
        layout_of<Field>("Field",
                         [](const Field& f, LayoutHash& h) {
                             h.member(f, f.kind).member(f, f.integer).member(f, f.real).member(f, f.text);
                         }),
        layout_of<FieldsRecord>("FieldsRecord",
                                [](const FieldsRecord& r, LayoutHash& h) {
                                    h.member(r, r.format).member(r, r.fields).member(r, r.count).member(r, r.message);
                                }),
        layout_of<RecordFields>("RecordFields", [](const RecordFields&, LayoutHash&) {}),
        layout_of<ReadResult>("ReadResult",
                              [](const ReadResult& r, LayoutHash& h) { h.member(r, r.bytes).member(r, r.fold); }),
    };
    count = static_cast<unsigned>(std::size(layouts));
    return layouts;
}

}  // namespace iobench::detail

namespace iobench {

/// The build identity of the translation unit that calls it: in iobench,
/// iobench's own; in a plugin (core/plugins/plugin_entry.cpp, built with
/// hidden visibility, so that these inline functions are the plugin's own),
/// the plugin's. Build type from IOBENCH_BUILD_TYPE, which CMake defines for both.
inline iobench_build_identity build_identity() {
    unsigned count = 0;
    const iobench_type_layout* layouts = detail::crossing_layouts(count);
    return {sizeof(iobench_build_identity),
            IOBENCH_API_VERSION,
            operation_count,
            static_cast<unsigned>(sizeof(Method)),
            IOBENCH_COMPILER_IDENTITY,
            IOBENCH_STDLIB_IDENTITY,
            IOBENCH_BUILD_TYPE_IDENTITY,
            count,
            layouts};
}

}  // namespace iobench
