// A plugin whose method name holds a '/' (it would make another benchmark
// name, and a path that does not exist): refused when it loads.
#include <iobench/method.hpp>

namespace iobench {
namespace {

void put_nothing(const Sink&, std::string_view, std::uint64_t) {}

const MethodRegistrar registrar{{.family = "zz_plugin_names"}, {
    {.name = "mine/fputs", .description = "a name with a '/'", .put_repeat = put_nothing},
}};

}  // namespace
}  // namespace iobench
