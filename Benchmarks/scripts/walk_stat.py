#!/usr/bin/env python3
"""The floor of a launch that finds its template set unchanged: walk the tree and stat every template file.

usage: walk_stat.py TEMPLATES_DIR

os.walk and os.stat of every *.template, collecting each file's size, modification time and inode, as a launch
that compares stamps must. Prints the number of files.
"""
import os
import sys


def main(templates):
    stamps = {}
    for root, _, files in os.walk(templates):
        for name in files:
            if name.endswith(".template"):
                path = os.path.join(root, name)
                status = os.stat(path)
                stamps[path] = (status.st_size, status.st_mtime_ns, status.st_ino)
    print(len(stamps))


if __name__ == "__main__":
    main(sys.argv[1])
