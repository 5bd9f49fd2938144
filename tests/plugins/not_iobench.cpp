// A shared library that is not an iobench plugin (built without
// iobench_add_plugin: no entry points): refused.
extern "C" int zz_not_an_iobench_plugin() { return 42; }
