#!/usr/bin/env python3
"""The template sets that measure the template conventions: the same catalogue without and with them, and a nested
set like the origin's, for instruction counts of one seed under callgrind.

usage: convention_sets.py DIR

Writes DIR/off (20,000 objects in 200 files: 1,000 groups, then items naming their group by identity stub, dates in
ISO 8601, camelCase keys), DIR/on (the same objects with every convention on: snake_case keys, dates in seconds since
1970, groups named by identity value), DIR/onfrac (on, with a fraction in every date) and DIR/nested (200 files of a
Department with 50 Employees nested, each owning an Address and naming 2 Projects by stub; 20,500 objects).
"""
import datetime
import json
import os
import sys

BASE = int(datetime.datetime(2024, 2, 1, tzinfo=datetime.timezone.utc).timestamp())


def catalogue(root, conventions, fraction=""):
    os.makedirs(root, exist_ok=True)
    item = {"identity": ["code"],
            "attributes": {"code": "string", "name": "string", "quantity": "integer", "unitPrice": "double",
                           "createdAt": "date"},
            "relationships": {"group": {"to": "Group"}}}
    model = {"entities": {"Group": {"identity": ["name"], "attributes": {"name": "string", "title": "string"}},
                          "Item": item}}
    if conventions:
        model["keyStyle"] = "snake_case"
        item["attributes"]["createdAt"] = {"type": "date", "dateFormat": "secondsSince1970"}
        item["relationships"]["group"]["byIdentity"] = True
    with open(os.path.join(root, "model.json"), "w") as file:
        json.dump(model, file, indent=2)
    per, groups = 100, 1000
    for number in range(200):
        objects = []
        for position in range(per):
            index = number * per + position
            if index < groups:
                objects.append('  { "class": "Group", "name": "g%d", "title": "Group number %d" }' % (index, index))
                continue
            stamp = BASE + index % (28 * 86400)
            common = '"class": "Item", "code": "item-%d", "name": "Item %d of the catalogue", "quantity": %d, ' % (
                index, index, index % 977)
            if conventions:
                objects.append('  { %s"unit_price": %d.25, "created_at": %d%s, "group": "g%d" }' % (
                    common, index % 10000, stamp, fraction, index % groups))
            else:
                iso = datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                objects.append('  { %s"unitPrice": %d.25, "createdAt": "%s", "group": { "class": "Group", "name": "g%d" } }' % (
                    common, index % 10000, iso, index % groups))
        with open(os.path.join(root, "part-%04d.template" % number), "w") as file:
            file.write("[\n" + ",\n".join(objects) + "\n]\n")


def nested(root):
    os.makedirs(os.path.join(root, "departments"), exist_ok=True)
    model = {"entities": {
        "Department": {"identity": ["name"], "attributes": {"name": "string", "budget": "double"},
                       "relationships": {"employees": {"to": "Employee", "many": True, "inverse": "department"}}},
        "Employee": {"identity": ["email"],
                     "attributes": {"email": "string", "name": "string", "salary": "double", "hired": "date"},
                     "relationships": {"department": {"to": "Department", "inverse": "employees"},
                                       "address": {"to": "Address", "owns": True, "inverse": "employee"},
                                       "projects": {"to": "Project", "many": True, "inverse": "members"}}},
        "Address": {"attributes": {"street": "string", "city": "string", "postcode": "string"},
                    "relationships": {"employee": {"to": "Employee", "inverse": "address"}}},
        "Project": {"identity": ["code"], "attributes": {"code": "string", "title": "string"},
                    "relationships": {"members": {"to": "Employee", "many": True, "inverse": "projects"}}}}}
    with open(os.path.join(root, "model.json"), "w") as file:
        json.dump(model, file, indent=2)
    projects = 500
    with open(os.path.join(root, "projects.template"), "w") as file:
        file.write("[\n" + ",\n".join(
            '  { "class": "Project", "code": "p%d", "title": "Project %d" }' % (i, i) for i in range(projects)) + "\n]\n")
    for number in range(200):
        employees = []
        for position in range(50):
            i = number * 50 + position
            employees.append(
                '    { "class": "Employee", "email": "e%d@example.com", "name": "Employee %d", "salary": %d.5, '
                '"hired": "2024-02-%02dT%02d:%02d:%02dZ",\n'
                '      "address": { "street": "%d Main Street", "city": "City %d", "postcode": "%d" },\n'
                '      "projects": [ { "class": "Project", "code": "p%d" }, { "class": "Project", "code": "p%d" } ] }' % (
                    i, i, 30000 + i % 20000, i // 86400 % 28 + 1, i // 3600 % 24, i // 60 % 60, i % 60, i % 300,
                    i % 97, 10000 + i % 80000, i % projects, (i * 7 + 3) % projects))
        with open(os.path.join(root, "departments", "d%04d.template" % number), "w") as file:
            file.write('{\n  "class": "Department", "name": "Department %d", "budget": %d.5,\n  "employees": [\n%s\n  ]\n}\n' % (
                number, 100000 + number * 10, ",\n".join(employees)))


def main(directory):
    catalogue(os.path.join(directory, "off"), False)
    catalogue(os.path.join(directory, "on"), True)
    catalogue(os.path.join(directory, "onfrac"), True, ".25")
    nested(os.path.join(directory, "nested"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
