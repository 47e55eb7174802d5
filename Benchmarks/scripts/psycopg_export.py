#!/usr/bin/env python3
"""The Python peer of `seed export --store postgresql://…` for the nested shape (see SeedShapes.swift): psycopg 3 +
orjson.

usage: psycopg_export.py CONNINFO OUTPUT_PATH

Reads the tables SeedKit's PostgreSQL store made for the shape's model and writes the objects `seed export` writes
through orjson_export.py's `export`. A date is a `timestamptz` and a `<name>_ns` column of the nanoseconds below its
microseconds, written as RFC 3339 in UTC. Prints the number of top-level objects.
"""
import sys
from datetime import timezone

import psycopg

from orjson_export import export


def rfc3339(moment, nanoseconds):
    text = moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    fraction = moment.microsecond * 1000 + (nanoseconds or 0)
    return text + (f".{fraction:09d}".rstrip("0") if fraction else "") + "Z"


def main(conninfo, output):
    with psycopg.connect(conninfo) as db:
        model = db.execute("SELECT value FROM _seedkit_metadata WHERE key = 'model'").fetchone()[0]
        departments = {i: (n, b) for i, n, b in db.execute('SELECT _id, name, budget FROM "Department"')}
        projects = {i: (c, t) for i, c, t in db.execute('SELECT _id, code, title FROM "Project"')}
        addresses = {i: (s, c, p) for i, s, c, p in db.execute('SELECT _id, street, city, postcode FROM "Address"')}
        employees = {i: (email, name, salary, rfc3339(hired, hired_ns), department, address)
                     for i, email, name, salary, hired, hired_ns, department, address in db.execute(
                         'SELECT _id, email, name, salary, hired, hired_ns, department, address FROM "Employee"')}
        links = db.execute('SELECT source, target FROM "Employee_projects"').fetchall()
    print(export(output, model, departments, projects, addresses, employees, links))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
