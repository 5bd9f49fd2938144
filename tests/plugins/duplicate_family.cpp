// A plugin that registers a family iobench has already (stdio): refused.
#include <iobench/method.hpp>

namespace iobench {
namespace {

void put_nothing(const Sink&, std::string_view, std::uint64_t) {}

const MethodRegistrar registrar{{.family = "stdio"}, {
    {.name = "zz_plugin_fwrite_again", .description = "joins the stdio family", .put_repeat = put_nothing},
}};

}  // namespace
}  // namespace iobench
