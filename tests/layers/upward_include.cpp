// Compiled as a file of core/engine/ (tests/CMakeLists.txt, layers.compiler_refuses_upward_include):
// app/ is a room above the engine, so its headers are not on this file's include path and
// this include must not build.
#include "app/plan.hpp"
