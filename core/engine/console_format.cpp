// The arguments of the console messages (iobench/console_format.hpp), defined
// out of line so that no compiler can format them at compile time.
#include <iobench/console_format.hpp>

namespace iobench {

const ConsoleArgs console_args = {12345, 123.45, "Hello", 42, 42,       "test", 2024, 1,
                                  15,    10,     30,      45, "Status", 100,    99.5};

}  // namespace iobench
