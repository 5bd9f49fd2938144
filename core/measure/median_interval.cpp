#include "core/measure/median_interval.hpp"

#include <cmath>

namespace iobench {

int median_interval_rank(int n, double level, double* coverage) {
    if (n < 1) return 0;
    // P(B <= j) for B ~ binomial(n, 1/2), accumulated term by term.
    const double tail_allowed = (1 - level) / 2;
    double term = std::ldexp(1.0, -n);  // P(B = 0)
    double cumulative = 0;
    int k = 0;
    for (int j = 0; j < n; ++j) {
        cumulative += term;  // P(B <= j)
        if (cumulative > tail_allowed + 1e-12) break;
        k = j + 1;  // [x_(j+1), x_(n-j)] misses the median with probability 2 P(B <= j)
        if (coverage) *coverage = 1 - 2 * cumulative;
        term = term * (n - j) / (j + 1);
    }
    if (2 * k > n) k = n / 2;
    return k;
}

}  // namespace iobench
