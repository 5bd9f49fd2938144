// A plugin as another iobench would have built it: its identity claims the API
// version OTHER_API (defined by tests/plugins/CMakeLists.txt) and, for a newer
// API, a longer identity. Built without iobench_add_plugin (its entry points
// are its own), it must be refused with one line naming both API versions,
// its families never read (docs/plugins.md, "The API and its versions").
#include <cstddef>

extern "C" {

// The identity as every iobench API begins it: size, api_version; then what
// that API adds (for this test, an older API has the same members, a newer
// one one more). OTHER_API_NOW: this iobench's IOBENCH_API_VERSION.
struct other_identity {
    unsigned size;
    int api_version;
    int operations;
    unsigned method_size;
    const char* compiler;
    const char* standard_library;
    const char* build_type;
#if OTHER_API > OTHER_API_NOW
    const char* added_later;
#endif
};

#if defined(_WIN32)
#define OTHER_EXPORT __declspec(dllexport)
#else
#define OTHER_EXPORT __attribute__((visibility("default")))
#endif

OTHER_EXPORT const other_identity* iobench_plugin_identity() {
    static const other_identity identity = {sizeof(other_identity), OTHER_API, 99, 4096, "another compiler",
                                            "another library", "Release"
#if OTHER_API > OTHER_API_NOW
                                            ,
                                            "a member of a later API"
#endif
    };
    return &identity;
}

// Never called: iobench reads the families only of a plugin whose identity is its own.
OTHER_EXPORT const void* iobench_plugin_families() {
    static const int not_families = 0;
    return &not_families;
}

}  // extern "C"
