// Compiled as a file of core/engine/ (tests/CMakeLists.txt, layers.compiler_takes_downward_includes):
// the engine's own headers and those of every room below it are on its include path. The
// control of layers.compiler_refuses_upward_include: the probe builds when its include is allowed.
#include <iobench/method.hpp>
#include "core/engine/runner.hpp"
#include "core/measure/latency.hpp"
#include "core/os/workdir.hpp"
#include "data/text.hpp"
