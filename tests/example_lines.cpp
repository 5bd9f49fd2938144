// example_log: a workload of a user's own records, as a user writes one
// (docs/plugins.md, "Your own workload"): one function that appends record i.
// The file includes nothing of iobench but <iobench/workload.hpp>, and builds
// unchanged into iobench's tests (every method with put_line runs it:
// tests/core/engine/pairs_test.cpp), into an executable with iobench_add_executable and
// into a plugin with iobench_add_plugin (tests/package, tests/plugins).
#include <charconv>
#include <cstdint>
#include <string>

#include <iobench/workload.hpp>

namespace {

/// Record i of a service's access log: a request number, a status, a path of
/// one of four lengths and a duration.
void access_record(std::uint64_t i, std::string& out) {
    static const char* const paths[] = {"/", "/api/v1/orders", "/static/app.js",
                                        "/api/v1/users/search?q=a+somewhat+longer+query&page=2"};
    char number[24];
    out += "req=";
    out.append(number, std::to_chars(number, number + sizeof number, i).ptr);
    out += i % 17 == 0 ? " status=500 path=" : " status=200 path=";
    out += paths[i % 4];
    out += " ms=";
    out.append(number, std::to_chars(number, number + sizeof number, (i * 7919) % 1000).ptr);
    out += '\n';
}

const iobench::LinesRegistrar registrar{{.name = "example_log",
                                         .description = "a service's access-log records, one line each (tests)",
                                         .item_unit = "record",
                                         .default_count = 100'000,
                                         .line = access_record}};

}  // namespace
