// A plugin whose registrar entry names another family: the error is kept in
// the plugin while it loads (a throw there would end the process) and iobench
// refuses the plugin saying it.
#include <iobench/method.hpp>

namespace iobench {
namespace {

void put_nothing(const Sink&, std::string_view, std::uint64_t) {}

const MethodRegistrar registrar{{.family = "zz_plugin_family"}, {
    {.name = "zz_plugin_elsewhere", .family = "zz_other", .description = "names another family",
     .put_repeat = put_nothing},
}};

}  // namespace
}  // namespace iobench
