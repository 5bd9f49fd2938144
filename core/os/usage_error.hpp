// The error of a bad command line or environment, thrown wherever the input
// is checked (options, suites, plugins, resource limits) and turned by main()
// into one line on stderr and exit status 2.
#pragma once

#include <stdexcept>

namespace iobench {

/// A bad command line or environment: printed as one line, exit status 2.
class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace iobench
