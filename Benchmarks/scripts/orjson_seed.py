#!/usr/bin/env python3
"""The Python peer of `seed` for the seed-templates benchmark: orjson + sqlite3 executemany.

usage: orjson_seed.py TEMPLATES_DIR STORE_PATH

Reads every *.template under the directory with orjson, then writes the same tables SeedKit's store creates for the
benchmark model (Group and Item, with _id/_entity/_version, a unique identity index and a foreign-key index) in one
transaction, resolving each item's group reference by name. It does less than `seed`: no validation beyond what the
code needs, no seed ledger, no second-launch check.
"""
import os
import sqlite3
import sys

import orjson


def main(templates, store):
    groups, items = [], []
    for root, _, files in os.walk(templates):
        for name in sorted(files):
            if not name.endswith(".template"):
                continue
            with open(os.path.join(root, name), "rb") as handle:
                value = orjson.loads(handle.read())
            for obj in value if isinstance(value, list) else [value]:
                (groups if obj["class"] == "Group" else items).append(obj)
    db = sqlite3.connect(store)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.executescript("""
        CREATE TABLE "Group" (_id INTEGER PRIMARY KEY, _entity TEXT NOT NULL, _version INTEGER NOT NULL DEFAULT 1,
            name TEXT, title TEXT);
        CREATE UNIQUE INDEX Group_identity ON "Group" (name);
        CREATE TABLE Item (_id INTEGER PRIMARY KEY, _entity TEXT NOT NULL, _version INTEGER NOT NULL DEFAULT 1,
            code TEXT, name TEXT, quantity INTEGER, price REAL, created TEXT, "group" INTEGER REFERENCES "Group"(_id));
        CREATE UNIQUE INDEX Item_identity ON Item (code);
        CREATE INDEX Item_group ON Item ("group");
    """)
    with db:
        db.executemany('INSERT INTO "Group" (_id, _entity, name, title) VALUES (?, \'Group\', ?, ?)',
                       [(index + 1, g["name"], g["title"]) for index, g in enumerate(groups)])
        group_ids = {g["name"]: index + 1 for index, g in enumerate(groups)}
        db.executemany(
            'INSERT INTO Item (_id, _entity, code, name, quantity, price, created, "group") VALUES (?, \'Item\', ?, ?, ?, ?, ?, ?)',
            [(index + 1, i["code"], i["name"], i["quantity"], i["price"], i["created"], group_ids[i["group"]["name"]])
             for index, i in enumerate(items)])
    db.close()
    print(len(groups) + len(items))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
