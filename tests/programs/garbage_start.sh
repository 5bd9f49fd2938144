# Begins with "hello" instead of "ready", then stays: iobench must kill it at
# once, not wait for it to exit. Each start appends a line to the file
# $IOBENCH_TEST_STARTS names (when set): a failed program is not started
# again for the next repetitions of its row.
if [ -n "${IOBENCH_TEST_STARTS-}" ]; then echo started >>"$IOBENCH_TEST_STARTS"; fi
echo hello
sleep 600
