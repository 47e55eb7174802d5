#!/usr/bin/env python3
"""The Python peer of SeedKit's COPY writer for the postgres-copy benchmark: psycopg 3 `COPY ... FROM STDIN`.

usage: psycopg_copy.py CONNINFO ROWS text|binary REPETITIONS

Makes the benchmark's rows (the same values as the Swift side: bigint, text, numeric, timestamptz, integer), then
loads them into the table `employee` with `cursor.copy()` and `write_row`, each run in one transaction after a
TRUNCATE, and prints the seconds of the fastest run. Making the rows is not timed; converting them for COPY is.
"""
import sys
import time
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import psycopg


def rows(count):
    epoch = datetime(2020, 1, 1, tzinfo=timezone.utc)
    for i in range(1, count + 1):
        note = f"note {i}\twith a tab, a backslash \\ and a\nnewline" if i % 10 == 0 else f"note {i}"
        yield (
            i,
            f"Employee {i} Zoë",
            f"employee{i}@example.com",
            Decimal(f"{40000 + i % 60000}.{i % 100:02d}"),
            epoch + timedelta(seconds=i * 37, microseconds=(i * 7919) % 1_000_000),
            i % 10,
            note,
        )


def main(conninfo, count, form, repetitions):
    data = list(rows(count))
    options = " (FORMAT BINARY)" if form == "binary" else ""
    best = float("inf")
    with psycopg.connect(conninfo) as connection:
        for _ in range(repetitions + 1):
            start = time.perf_counter()
            with connection.transaction(), connection.cursor() as cursor:
                cursor.execute("TRUNCATE employee")
                statement = f"COPY employee (id, name, email, salary, hired, level, note) FROM STDIN{options}"
                with cursor.copy(statement) as copy:
                    if form == "binary":
                        copy.set_types(["int8", "text", "text", "numeric", "timestamptz", "int4", "text"])
                    for row in data:
                        copy.write_row(row)
            best = min(best, time.perf_counter() - start)
    print(f"{best:.6f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
