#!/usr/bin/env python3
"""iobench's Python methods.

A program that performs the runs of one benchmark as Python's users write
them, following the protocol of docs/external-methods.md:

    python3 iobench_methods.py METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...]
    python3 iobench_methods.py --list

It prints "ready" once set up, then answers each line "run" on its standard
input with one run (open, write or read everything, close), timed with
time.perf_counter_ns (monotonic), and the line "<ns>"; after a get_ints run,
"check" with "<count> <checksum>" of the values it parsed; "ping" with "pong";
end of input ends it. An error is one line on standard error and exit status 1.

The standard library only. Files are opened in text mode, as UTF-8.
"""

import array
import operator
import os
import sys
import time


def text_file(r, mode):
    """open(path, mode) in text mode; buffering=N sizes its binary buffer."""
    return open(r.path, mode, buffering=r.buffer or -1, encoding="utf-8")


# --- f.write per line (Python's own buffer: open()'s, st_blksize or 8 KiB) ---

def write_ints(r):
    with text_file(r, "w") as f:
        for i in range(r.count):
            f.write(f"{i}\n")


def write_repeat(r):
    line = r.line
    with text_file(r, "w") as f:
        for _ in range(r.count):
            f.write(line)


def write_lines(r):
    prefix, suffix = r.prefix, r.suffix
    with text_file(r, "w") as f:
        for i in range(r.count):
            f.write(f"{prefix}{i}{suffix}")


def write_doubles(r):
    """repr: the shortest text that reads back exactly ("1.2345e+307")."""
    with text_file(r, "w") as f:
        for v in r.values:
            f.write(f"{v!r}\n")


# --- print(..., file=f) -------------------------------------------------------

def print_ints(r):
    with text_file(r, "w") as f:
        for i in range(r.count):
            print(i, file=f)


def print_repeat(r):
    text = r.line[:-1]  # print adds the '\n'
    with text_file(r, "w") as f:
        for _ in range(r.count):
            print(text, file=f)


def print_lines(r):
    prefix, text = r.prefix, r.suffix[:-1]
    with text_file(r, "w") as f:
        for i in range(r.count):
            print(f"{prefix}{i}{text}", file=f)


def print_doubles(r):
    with text_file(r, "w") as f:
        for v in r.values:
            print(repr(v), file=f)


# --- one string made with '\n'.join (or *), one f.write ----------------------

def join_ints(r):
    with text_file(r, "w") as f:
        f.write("\n".join(map(str, range(r.count))) + "\n")


def join_repeat(r):
    with text_file(r, "w") as f:
        f.write(r.line * r.count)


def join_lines(r):
    prefix, suffix = r.prefix, r.suffix
    with text_file(r, "w") as f:
        f.write("".join([f"{prefix}{i}{suffix}" for i in range(r.count)]))


def join_doubles(r):
    with text_file(r, "w") as f:
        f.write("\n".join(map(repr, r.values)) + "\n")


# --- input --------------------------------------------------------------------

def int_per_line(r):
    with text_file(r, "r") as f:
        return [int(line) for line in f]


def map_int_split(r):
    with text_file(r, "r") as f:
        return list(map(int, f.read().split()))


METHODS = {
    "python_write": {"put_ints": write_ints, "put_repeat": write_repeat, "put_lines": write_lines,
                     "put_doubles": write_doubles},
    "python_print": {"put_ints": print_ints, "put_repeat": print_repeat, "put_lines": print_lines,
                     "put_doubles": print_doubles},
    "python_join": {"put_ints": join_ints, "put_repeat": join_repeat, "put_lines": join_lines,
                    "put_doubles": join_doubles},
    "python_int": {"get_ints": int_per_line},
    "python_map_int_split": {"get_ints": map_int_split},
}

ARGUMENTS = {"put_ints": 0, "get_ints": 0, "put_repeat": 1, "put_doubles": 1, "put_lines": 2}


def checksum(values):
    """The protocol's checksum of parsed values: the sum of (i+1)*v[i] modulo 2^64."""
    return sum(map(operator.mul, values, range(1, len(values) + 1))) & 0xFFFFFFFFFFFFFFFF


class Request:
    """What a run is asked to do (the command line), plus what the setup prepared."""
    path = ""
    count = 0
    buffer = 0      # user-space buffer in bytes; 0: the method's default
    line = ""       # put_repeat: the line, with its '\n'
    prefix = ""     # put_lines: text before the number
    suffix = ""     # put_lines: text after it, with the '\n'
    values = None   # put_doubles: the values


def fail(message):
    print(f"iobench-python: {message}", file=sys.stderr)
    sys.exit(1)


def reply(text):
    os.write(1, (text + "\n").encode())  # one write per reply


def main(argv):
    if argv == ["--list"]:
        for name in sorted(METHODS):
            print(name, " ".join(sorted(METHODS[name])))
        return
    if len(argv) < 5:
        fail("usage: iobench_methods.py METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...] | --list")
    name, op, extra = argv[0], argv[1], argv[5:]
    r = Request()
    r.path = argv[2]
    try:
        r.count, r.buffer = int(argv[3]), int(argv[4])
    except ValueError as e:
        fail(f"COUNT or BUFFER_SIZE: {e}")
    if ARGUMENTS.get(op) != len(extra):
        fail(f"operation {op!r} with {len(extra)} arguments: not an operation of the protocol")
    if name not in METHODS:
        fail(f"unknown method {name!r}")
    function = METHODS[name].get(op)
    if function is None:
        fail(f"method {name} has no operation {op}")
    if op == "put_repeat":
        r.line = extra[0]
    elif op == "put_lines":
        r.prefix, r.suffix = extra
    elif op == "put_doubles":
        values = array.array("d")
        with open(extra[0], "rb") as f:
            values.frombytes(f.read())
        if len(values) != r.count:
            fail(f"{extra[0]}: {len(values)} doubles, expected {r.count}")
        if sys.byteorder != "little":
            values.byteswap()
        r.values = values.tolist()

    parsed = None  # get_ints: the values of the last run
    reply("ready")
    for request in sys.stdin.buffer:
        request = request.strip()
        if request == b"ping":
            reply("pong")
        elif request == b"run":
            start = time.perf_counter_ns()
            try:
                parsed = function(r)
            except (OSError, ValueError) as e:
                fail(f"{r.path}: {e}")
            ns = time.perf_counter_ns() - start
            reply(f"{ns}")
        elif request == b"check" and op == "get_ints":
            answer = f"{len(parsed)} {checksum(parsed)}"
            parsed = None  # freed now, before the answer: not in the next run
            reply(answer)
        else:
            fail(f"unknown request {request.decode(errors='replace')!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
