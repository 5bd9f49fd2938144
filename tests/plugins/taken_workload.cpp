// A plugin whose workload takes the name of one of iobench's own (hello):
// refused with one line, nothing of it registered.
#include <cstdint>
#include <string>

#include <iobench/workload.hpp>

namespace {

void line(std::uint64_t i, std::string& out) { out += "line " + std::to_string(i) + "\n"; }

const iobench::LinesRegistrar registrar{{.name = "hello", .description = "takes a built-in name", .default_count = 10, .line = line}};

}  // namespace
