#!/usr/bin/env python3
"""The Python peer of `seed export --store postgresql://…` for the nested shape (see SeedShapes.swift): psycopg 3 +
orjson.

usage: psycopg_export.py CONNINFO OUTPUT_PATH

Reads the tables SeedKit's PostgreSQL store made for the shape's model and writes the objects `seed export` writes, one
line of JSON each with sorted keys, sorted by entity and identity, as orjson_export.py does from an SQLite store:
departments with their employees as identity stubs, employees with their address nested and their department and
projects as stubs, projects with their members as stubs. A date is a `timestamptz` and a `<name>_ns` column of the
nanoseconds below its microseconds, written as RFC 3339 in UTC. Prints the number of top-level objects.
"""
import sys
from collections import defaultdict
from datetime import timezone

import orjson
import psycopg


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
        employees = {}
        staff = defaultdict(list)
        for i, email, name, salary, hired, hired_ns, department, address in db.execute(
                'SELECT _id, email, name, salary, hired, hired_ns, department, address FROM "Employee"'):
            employees[i] = (email, name, salary, rfc3339(hired, hired_ns), department, address)
            if department is not None:
                staff[department].append(email)
        projects_of, members_of = defaultdict(list), defaultdict(list)
        for source, target in db.execute('SELECT source, target FROM "Employee_projects"'):
            projects_of[source].append(projects[target][0])
            members_of[target].append(employees[source][0])
    lines = []
    for i, (name, budget) in sorted(departments.items(), key=lambda item: item[1][0]):
        lines.append({"class": "Department", "name": name, "budget": budget,
                      "employees": [{"class": "Employee", "email": e} for e in sorted(staff[i])]})
    for i, (email, name, salary, hired, department, address) in sorted(employees.items(), key=lambda item: item[1][0]):
        obj = {"class": "Employee", "email": email, "name": name, "salary": salary, "hired": hired}
        if department is not None:
            obj["department"] = {"class": "Department", "name": departments[department][0]}
        if address is not None:
            street, city, postcode = addresses[address]
            obj["address"] = {"class": "Address", "street": street, "city": city, "postcode": postcode}
        if projects_of[i]:
            obj["projects"] = [{"class": "Project", "code": c} for c in sorted(projects_of[i])]
        lines.append(obj)
    for i, (code, title) in sorted(projects.items(), key=lambda item: item[1][0]):
        obj = {"class": "Project", "code": code, "title": title}
        if members_of[i]:
            obj["members"] = [{"class": "Employee", "email": e} for e in sorted(members_of[i])]
        lines.append(obj)
    with open(output, "wb") as handle:
        handle.write(b'{\n  "format": "seedkit-export",\n  "formatVersion": 1,\n  "model": ' + model.encode() + b',\n  "objects": [\n    ')
        handle.write(b",\n    ".join(orjson.dumps(line, option=orjson.OPT_SORT_KEYS) for line in lines))
        handle.write(b"\n  ]\n}\n")
    print(len(lines))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
