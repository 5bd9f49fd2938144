"""The rules by which iobench-compare flags and explains a result, one value each.

The same values as iobench's console summary (core/report/report_rules.hpp) and the README's legend;
all three are tested against tests/data/report_rules.json, which says what each rule means.
"""

# A cv (standard deviation / mean of the repetitions' times) at or above this marks a result with !.
CV_FLAG = 0.05

# A 95 % interval of the median whose half-width is more than this fraction of the median marks it too.
INTERVAL_FLAG = 0.05

# The confidence level of the interval of a median (the 95% CI column, the error bars).
CONFIDENCE = 0.95

# The fewest repetitions with a 95 % interval of the median.
MIN_REPETITIONS_FOR_INTERVAL = 6

# A spread is put down to the host or to other work when the time the hypervisor took (steal_time) or
# tasks spent waiting for a CPU (cpu_wait) is at least this share of a run's wall time.
INTERFERENCE_SHARE = 0.01

# Below this much measured time per repetition (seconds) the kernel's split of CPU time into user and
# system (by scheduler ticks of 1-10 ms) is noise: the sys share is left out.
MIN_SECONDS_FOR_CPU_SHARE = 0.05
