#!/usr/bin/env python3
"""The Python peer of `seed` for the seeder benchmarks: orjson + sqlite3 executemany.

usage: orjson_seed.py SHAPE TEMPLATES_DIR STORE_PATH      (SHAPE: flat, nested or files; see SeedShapes.swift)

Reads every *.template under the directory with orjson, turns the objects (nested ones too) into the rows of the
tables SeedKit's store creates for the shape's model (_id/_entity/_version, a column per attribute and to-one, join
tables for many-to-many), resolves references by identity, and inserts them with executemany in one transaction,
WAL and synchronous=NORMAL, building the unique identity indexes and foreign-key indexes after the rows. It does less
than `seed`: no validation beyond what the code needs, no seed ledger, no second-launch check. Prints the number of
objects.
"""
import os
import sqlite3
import sys

import orjson


def read(templates):
    objects = []
    for root, dirs, files in os.walk(templates):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".template"):
                continue
            with open(os.path.join(root, name), "rb") as handle:
                value = orjson.loads(handle.read())
            objects.extend(value if isinstance(value, list) else [value])
    return objects


def table(name, columns):
    return f'CREATE TABLE "{name}" (_id INTEGER PRIMARY KEY, _entity TEXT NOT NULL, _version INTEGER NOT NULL DEFAULT 1, ' \
        + ", ".join(f'"{column}"' for column in columns) + ")"


def insert(db, name, columns, rows):
    marks = ", ".join("?" for _ in columns)
    names = ", ".join(f'"{column}"' for column in columns)
    db.executemany(f'INSERT INTO "{name}" (_id, _entity, {names}) VALUES (?, \'{name}\', {marks})', rows)


def flat(db, objects):
    db.execute(table("Group", ["name", "title"]))
    db.execute(table("Item", ["code", "name", "quantity", "price", "created", "group"]))
    groups = [o for o in objects if o["class"] == "Group"]
    items = [o for o in objects if o["class"] == "Item"]
    group_ids = {g["name"]: index + 1 for index, g in enumerate(groups)}
    insert(db, "Group", ["name", "title"], [(index + 1, g["name"], g["title"]) for index, g in enumerate(groups)])
    insert(db, "Item", ["code", "name", "quantity", "price", "created", "group"],
           [(index + 1, i["code"], i["name"], i["quantity"], i["price"], i["created"], group_ids[i["group"]["name"]])
            for index, i in enumerate(items)])
    return len(groups) + len(items), """
        CREATE UNIQUE INDEX Group_identity ON "Group" (name);
        CREATE UNIQUE INDEX Item_identity ON Item (code);
        CREATE INDEX Item_group ON Item ("group");
    """


def nested_rows(objects):
    """The rows of the nested shape's tables: projects, departments, employees, addresses, employee-project joins."""
    projects = [o for o in objects if o["class"] == "Project"]
    project_ids = {p["code"]: index + 1 for index, p in enumerate(projects)}
    departments, employees, addresses, joins = [], [], [], []
    for d in objects:
        if d["class"] != "Department":
            continue
        department_id = len(departments) + 1
        departments.append((department_id, d["name"], d["budget"]))
        for e in d.get("employees", []):
            employee_id = len(employees) + 1
            address = e.get("address")
            address_id = None
            if address is not None:
                address_id = len(addresses) + 1
                addresses.append((address_id, address["street"], address["city"], address["postcode"], employee_id))
            employees.append((employee_id, e["email"], e["name"], e["salary"], e["hired"], department_id, address_id))
            for p in e.get("projects", []):
                joins.append((employee_id, project_ids[p["code"]]))
    return projects, departments, employees, addresses, joins


def nested(db, objects):
    db.execute(table("Department", ["name", "budget"]))
    db.execute(table("Employee", ["email", "name", "salary", "hired", "department", "address"]))
    db.execute(table("Address", ["street", "city", "postcode", "employee"]))
    db.execute(table("Project", ["code", "title"]))
    db.execute('CREATE TABLE Employee_projects (source INTEGER NOT NULL, target INTEGER NOT NULL, position INTEGER, '
               'PRIMARY KEY (source, target)) WITHOUT ROWID')
    projects, departments, employees, addresses, joins = nested_rows(objects)
    insert(db, "Project", ["code", "title"], [(index + 1, p["code"], p["title"]) for index, p in enumerate(projects)])
    insert(db, "Department", ["name", "budget"], departments)
    insert(db, "Employee", ["email", "name", "salary", "hired", "department", "address"], employees)
    insert(db, "Address", ["street", "city", "postcode", "employee"], addresses)
    db.executemany("INSERT INTO Employee_projects (source, target) VALUES (?, ?)", joins)
    return len(projects) + len(departments) + len(employees) + len(addresses), """
        CREATE UNIQUE INDEX Department_identity ON Department (name);
        CREATE UNIQUE INDEX Employee_identity ON Employee (email);
        CREATE INDEX Employee_department ON Employee (department);
        CREATE INDEX Employee_address ON Employee (address);
        CREATE INDEX Address_employee ON Address (employee);
        CREATE UNIQUE INDEX Project_identity ON Project (code);
        CREATE INDEX Employee_projects_target ON Employee_projects (target);
    """


def files(db, objects):
    db.execute(table("Department", ["name", "budget"]))
    db.execute(table("Employee", ["email", "name", "salary", "hired", "department"]))
    departments = [o for o in objects if o["class"] == "Department"]
    employees = [o for o in objects if o["class"] == "Employee"]
    department_ids = {d["name"]: index + 1 for index, d in enumerate(departments)}
    insert(db, "Department", ["name", "budget"], [(index + 1, d["name"], d["budget"]) for index, d in enumerate(departments)])
    insert(db, "Employee", ["email", "name", "salary", "hired", "department"],
           [(index + 1, e["email"], e["name"], e["salary"], e["hired"], department_ids[e["department"]["name"]])
            for index, e in enumerate(employees)])
    return len(departments) + len(employees), """
        CREATE UNIQUE INDEX Department_identity ON Department (name);
        CREATE UNIQUE INDEX Employee_identity ON Employee (email);
        CREATE INDEX Employee_department ON Employee (department);
    """


def main(shape, templates, store):
    objects = read(templates)
    db = sqlite3.connect(store, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("BEGIN IMMEDIATE")
    count, indexes = {"flat": flat, "nested": nested, "files": files}[shape](db, objects)
    for statement in indexes.split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute("COMMIT")
    db.close()
    print(count)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
