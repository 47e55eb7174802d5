#!/usr/bin/env python3
"""The Python peer of `seed export` for the nested shape (see SeedShapes.swift): sqlite3 + orjson.

usage: orjson_export.py STORE_PATH OUTPUT_PATH

Reads the store's tables and writes the objects `seed export` writes, one line of JSON each with sorted keys, sorted
by entity and identity: departments with their employees as identity stubs, employees with their address nested and
their department and projects as stubs, projects with their members as stubs. Prints the number of top-level objects.
"""
import sqlite3
import sys
from collections import defaultdict

import orjson


def export(output, model, departments, projects, addresses, employees, links):
    """Writes the objects of the nested shape's rows to `output` and returns how many there are at the top level.

    departments: id -> (name, budget); projects: id -> (code, title); addresses: id -> (street, city, postcode);
    employees: id -> (email, name, salary, hired as RFC 3339, department id, address id); links: the (employee id,
    project id) pairs of the many-to-many.
    """
    staff = defaultdict(list)
    for email, _, _, _, department, _ in employees.values():
        if department is not None:
            staff[department].append(email)
    projects_of, members_of = defaultdict(list), defaultdict(list)
    for source, target in links:
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
    return len(lines)


def main(store, output):
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    model = db.execute("SELECT value FROM _seedkit_metadata WHERE key = 'model'").fetchone()[0]
    departments = {i: (n, b) for i, n, b in db.execute('SELECT _id, name, budget FROM Department')}
    projects = {i: (c, t) for i, c, t in db.execute('SELECT _id, code, title FROM Project')}
    addresses = {i: (s, c, p) for i, s, c, p in db.execute('SELECT _id, street, city, postcode FROM Address')}
    employees = {i: (email, name, salary, hired.replace(".000000000Z", "Z"), department, address)
                 for i, email, name, salary, hired, department, address in db.execute(
                     'SELECT _id, email, name, salary, hired, department, address FROM Employee')}
    links = db.execute('SELECT source, target FROM Employee_projects').fetchall()
    print(export(output, model, departments, projects, addresses, employees, links))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
