#!/usr/bin/env python3
"""The Django peer of `seed` for the seed-flat benchmark: the same data as a fixture, through `loaddata`.

usage: django_loaddata.py TEMPLATES_DIR WORK_DIR [MAX_OBJECTS]

A standalone project (django_standalone.py): two models mirroring the benchmark model (groups referenced by natural
key), the conversion of the templates to a JSON fixture (not timed), `migrate` (not timed), then
`call_command("loaddata", fixture)` timed. MAX_OBJECTS limits the data to the first files holding that many objects,
since loaddata is slow; the rate scales. Prints "<objects> <seconds>".
Needs Django: python3 -m pip install django
"""
import json
import os
import sys
import time

from django_standalone import set_up

MODELS = """
from django.db import models


class GroupManager(models.Manager):
    def get_by_natural_key(self, name):
        return self.get(name=name)


class Group(models.Model):
    name = models.TextField(unique=True)
    title = models.TextField()
    objects = GroupManager()

    def natural_key(self):
        return (self.name,)


class Item(models.Model):
    code = models.TextField(unique=True)
    name = models.TextField()
    quantity = models.BigIntegerField()
    price = models.FloatField()
    created = models.DateTimeField()
    group = models.ForeignKey(Group, on_delete=models.CASCADE)
"""

work = sys.argv[2]
set_up(work, "bench", MODELS, {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(work, "django.sqlite")})

from bench.models import Group, Item  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402


def fixture(templates, limit):
    records, count = [], 0
    names = sorted(os.path.join(root, name) for root, _, files in os.walk(templates) for name in files
                   if name.endswith(".template"))
    for path in names:
        if limit and count >= limit:
            break
        with open(path) as handle:
            value = json.load(handle)
        for obj in value if isinstance(value, list) else [value]:
            count += 1
            if obj["class"] == "Group":
                records.append({"model": "bench.group", "fields": {"name": obj["name"], "title": obj["title"]}})
            else:
                records.append({"model": "bench.item", "fields": {
                    "code": obj["code"], "name": obj["name"], "quantity": obj["quantity"], "price": obj["price"],
                    "created": obj["created"], "group": [obj["group"]["name"]]}})
    return records


def main():
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    records = fixture(sys.argv[1], limit)
    path = os.path.join(work, "fixture.json")
    with open(path, "w") as handle:
        json.dump(records, handle)
    with connection.schema_editor() as editor:
        editor.create_model(Group)
        editor.create_model(Item)
    start = time.perf_counter()
    call_command("loaddata", path, verbosity=0)
    seconds = time.perf_counter() - start
    assert Item.objects.count() + Group.objects.count() == len(records)
    print(len(records), seconds)


main()
