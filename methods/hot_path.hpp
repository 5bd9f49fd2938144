// Inlining hints for the hot paths of obuf and ibuf (methods/obuf.hpp,
// methods/ibuf.hpp).
#pragma once

/// IOBENCH_ALWAYS_INLINE / IOBENCH_NOINLINE: keep hot paths inlined into the
/// caller's loop and slow paths (flushes, refills, errors) out of it.
#if defined(_MSC_VER) && !defined(__clang__)
#define IOBENCH_ALWAYS_INLINE __forceinline
#define IOBENCH_NOINLINE __declspec(noinline)
#else
#define IOBENCH_ALWAYS_INLINE [[gnu::always_inline]] inline
#define IOBENCH_NOINLINE [[gnu::noinline]]
#endif
