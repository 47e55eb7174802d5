#!/usr/bin/env python3
"""The Python peer of `seed --store postgresql://…` for the seed-postgres benchmark: orjson + psycopg 3 COPY.

usage: orjson_psycopg_seed.py TEMPLATES_DIR CONNINFO      (the nested shape of SeedShapes.swift)

Reads every *.template under the directory with orjson, turns the nested objects into the rows of the tables
SeedKit's PostgreSQL store creates for the shape's model (_id/_entity/_version, a column per attribute and to-one, a
join table for the many-to-many), resolves project references by identity, and loads them with `cursor.copy()` and
`write_row` in one transaction, building the unique identity indexes and foreign-key indexes after the rows. It does
less than `seed`: no validation beyond what the code needs, no seed ledger, no second-launch check, no foreign keys.
Prints the number of objects.
"""
import sys

import psycopg

from orjson_seed import nested_rows, read


TABLES = {
    "Department": ['"name" text COLLATE "C"', '"budget" double precision'],
    "Employee": ['"email" text COLLATE "C"', '"name" text COLLATE "C"', '"salary" double precision', '"hired" timestamptz',
                 '"department" bigint', '"address" bigint'],
    "Address": ['"street" text COLLATE "C"', '"city" text COLLATE "C"', '"postcode" text COLLATE "C"',
                '"employee" bigint'],
    "Project": ['"code" text COLLATE "C"', '"title" text COLLATE "C"'],
}
INDEXES = """
    CREATE UNIQUE INDEX "Department_identity" ON "Department" ("name");
    CREATE UNIQUE INDEX "Employee_identity" ON "Employee" ("email");
    CREATE INDEX "Employee_department" ON "Employee" ("department");
    CREATE INDEX "Employee_address" ON "Employee" ("address");
    CREATE INDEX "Address_employee" ON "Address" ("employee");
    CREATE UNIQUE INDEX "Project_identity" ON "Project" ("code");
    CREATE INDEX "Employee_projects_target" ON "Employee_projects" ("target");
"""


def copy(cursor, name, columns, rows):
    names = ", ".join(f'"{column}"' for column in ["_id", "_entity", "_version"] + columns)
    with cursor.copy(f'COPY "{name}" ({names}) FROM STDIN') as copying:
        for row in rows:
            copying.write_row((row[0], name, 1) + row[1:])


def main(templates, conninfo):
    objects = read(templates)
    projects, departments, employees, addresses, joins = nested_rows(objects)
    with psycopg.connect(conninfo) as connection, connection.transaction(), connection.cursor() as cursor:
        for name, columns in TABLES.items():
            cursor.execute(f'CREATE TABLE "{name}" ("_id" bigint PRIMARY KEY, "_entity" text COLLATE "C" NOT NULL, '
                           f'"_version" bigint NOT NULL DEFAULT 1, {", ".join(columns)})')
        cursor.execute('CREATE TABLE "Employee_projects" ("source" bigint NOT NULL, "target" bigint NOT NULL, '
                       '"position" bigint, PRIMARY KEY ("source", "target"))')
        copy(cursor, "Project", ["code", "title"], [(index + 1, p["code"], p["title"]) for index, p in enumerate(projects)])
        copy(cursor, "Department", ["name", "budget"], departments)
        copy(cursor, "Employee", ["email", "name", "salary", "hired", "department", "address"], employees)
        copy(cursor, "Address", ["street", "city", "postcode", "employee"], addresses)
        with cursor.copy('COPY "Employee_projects" ("source", "target") FROM STDIN') as copying:
            for join in joins:
                copying.write_row(join)
        for statement in INDEXES.split(";"):
            if statement.strip():
                cursor.execute(statement)
    print(len(projects) + len(departments) + len(employees) + len(addresses))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
