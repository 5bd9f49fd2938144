// A plugin built from a file that registers nothing: refused.
#include <iobench/method.hpp>

namespace iobench {
/// Not a method: nothing registers it.
void zz_unregistered(const Sink&, std::string_view, std::uint64_t) {}
}  // namespace iobench
