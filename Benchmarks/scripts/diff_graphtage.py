#!/usr/bin/env python3
"""A Python peer of SeedKit's export diff: graphtage's tree diff of two JSON documents.

usage: diff_graphtage.py OLD NEW

Loads both files, builds graphtage trees and counts the edits of the optimal tree diff that graphtage finds.
Prints `seconds=<float> peak_mib=<float> changes=<int>`; seconds cover loading and diffing, peak is the process's
maximum resident size (ru_maxrss). Graphtage's progress bars go to stderr.
"""
import json
import resource
import sys
import time

from graphtage.json import build_tree


def main(old_path, new_path):
    start = time.perf_counter()
    with open(old_path, "rb") as handle:
        old = json.load(handle)
    with open(new_path, "rb") as handle:
        new = json.load(handle)
    old_tree, new_tree = build_tree(old), build_tree(new)
    changes = sum(1 for _ in old_tree.get_all_edits(new_tree))
    seconds = time.perf_counter() - start
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"seconds={seconds:.3f} peak_mib={peak_mib:.1f} changes={changes}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
