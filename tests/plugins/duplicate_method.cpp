// A plugin that registers a method name iobench has already (fwrite): refused.
#include <iobench/method.hpp>

namespace iobench {
namespace {

void put_nothing(const Sink&, std::string_view, std::uint64_t) {}

const MethodRegistrar registrar{{.family = "zz_plugin_duplicate"}, {
    {.name = "fwrite", .description = "claims a name of the stdio family", .put_repeat = put_nothing},
}};

}  // namespace
}  // namespace iobench
