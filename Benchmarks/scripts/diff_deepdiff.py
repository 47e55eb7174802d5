#!/usr/bin/env python3
"""A Python peer of SeedKit's export diff: DeepDiff of two JSON documents.

usage: diff_deepdiff.py OLD NEW

Loads both files and runs DeepDiff(old, new, ignore_order=True), which matches list elements whatever their order
(DeepDiff's `group_by` would key records by a member, but only for a top-level list, and exports are objects).
Prints `seconds=<float> peak_mib=<float> changes=<int>`, where changes counts the reported items over all report
types; seconds cover loading and diffing, peak is the process's maximum resident size (ru_maxrss).
"""
import json
import resource
import sys
import time

from deepdiff import DeepDiff


def main(old_path, new_path):
    start = time.perf_counter()
    with open(old_path, "rb") as handle:
        old = json.load(handle)
    with open(new_path, "rb") as handle:
        new = json.load(handle)
    diff = DeepDiff(old, new, ignore_order=True)
    changes = sum(len(report) for report in diff.values())
    seconds = time.perf_counter() - start
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"seconds={seconds:.3f} peak_mib={peak_mib:.1f} changes={changes}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
