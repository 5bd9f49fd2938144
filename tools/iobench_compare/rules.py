"""The rules by which iobench-compare flags and explains a result, one value each.

Read from spec/report_rules.json, this package's data: the file that
says what each rule means and how the reports write it, from which iobench's build also generates its
console summary's values (generated/report_rules.hpp, cmake/GenerateReportRules.cmake); the README's
legend is tested against it.
"""

from __future__ import annotations

from . import spec

RULES = {rule["name"]: rule for rule in spec.load("report_rules.json")["rules"]}

# A cv (standard deviation / mean of the repetitions' times) at or above this marks a result with !.
CV_FLAG: float = RULES["cv_flag"]["value"]

# A 95 % interval of the median whose half-width is more than this fraction of the median marks it too.
INTERVAL_FLAG: float = RULES["interval_flag"]["value"]

# The confidence level of the interval of a median (the 95% CI column, the error bars).
CONFIDENCE: float = RULES["confidence"]["value"]

# The fewest repetitions with a 95 % interval of the median.
MIN_REPETITIONS_FOR_INTERVAL: int = RULES["min_repetitions_for_interval"]["value"]

# A spread is put down to the host or to other work when the time the hypervisor took (steal_time) or
# tasks spent waiting for a CPU (cpu_wait) is at least this share of a run's wall time.
INTERFERENCE_SHARE: float = RULES["interference_share"]["value"]

# Below this much measured time per repetition (seconds) the kernel's split of CPU time into user and
# system (by scheduler ticks of 1-10 ms) is noise: the sys share is left out.
MIN_SECONDS_FOR_CPU_SHARE: float = RULES["min_seconds_for_cpu_share"]["value"]
