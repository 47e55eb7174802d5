#!/usr/bin/env python3
"""The Django peer of `seed --store postgresql://…` for the seed-postgres benchmark: the nested shape (see
SeedShapes.swift) as a fixture, through `loaddata`, into a database of the same server.

usage: django_loaddata_postgres.py TEMPLATES_DIR CONNINFO_URL WORK_DIR [MAX_DEPARTMENTS]

A standalone project (django_standalone.py): four models mirroring the shape's model (departments, employees and
projects referenced by natural key, each employee's address by its primary key, projects many-to-many), the conversion
of the templates to a JSON fixture (not timed), the tables made (not timed), then `call_command("loaddata", fixture)`
timed. MAX_DEPARTMENTS limits the data to the projects and the first department files, since loaddata is slow; the
rate scales. Prints "<objects> <seconds>".
Needs Django and psycopg: python3 -m pip install django 'psycopg[binary]'
"""
import json
import os
import sys
import time
from urllib.parse import unquote, urlparse

from django_standalone import set_up

MODELS = """
from django.db import models


class ByName(models.Manager):
    def get_by_natural_key(self, key):
        return self.get(**{self.model.NATURAL_KEY: key})


class Department(models.Model):
    NATURAL_KEY = "name"
    name = models.TextField(unique=True)
    budget = models.FloatField()
    objects = ByName()

    def natural_key(self):
        return (self.name,)


class Project(models.Model):
    NATURAL_KEY = "code"
    code = models.TextField(unique=True)
    title = models.TextField()
    objects = ByName()

    def natural_key(self):
        return (self.code,)


class Address(models.Model):
    street = models.TextField()
    city = models.TextField()
    postcode = models.TextField()


class Employee(models.Model):
    NATURAL_KEY = "email"
    email = models.TextField(unique=True)
    name = models.TextField()
    salary = models.FloatField()
    hired = models.DateTimeField()
    department = models.ForeignKey(Department, on_delete=models.CASCADE, related_name="employees")
    address = models.OneToOneField(Address, on_delete=models.CASCADE, related_name="employee")
    projects = models.ManyToManyField(Project, related_name="members")
    objects = ByName()

    def natural_key(self):
        return (self.email,)
"""

templates, url, work = sys.argv[1], urlparse(sys.argv[2]), sys.argv[3]
set_up(work, "nested", MODELS, {
    "ENGINE": "django.db.backends.postgresql", "NAME": url.path.lstrip("/"), "USER": unquote(url.username or ""),
    "PASSWORD": unquote(url.password or ""), "HOST": url.hostname, "PORT": url.port or 5432})

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from nested.models import Address, Department, Employee, Project  # noqa: E402


def fixture(limit):
    with open(os.path.join(templates, "projects.template")) as handle:
        records = [{"model": "nested.project", "fields": {"code": p["code"], "title": p["title"]}}
                   for p in json.load(handle)]
    folder = os.path.join(templates, "departments")
    for name in sorted(os.listdir(folder))[:limit or None]:
        with open(os.path.join(folder, name)) as handle:
            department = json.load(handle)
        records.append({"model": "nested.department",
                        "fields": {"name": department["name"], "budget": department["budget"]}})
        for employee in department["employees"]:
            address = employee["address"]
            records.append({"model": "nested.address", "pk": len(records) + 1, "fields": {
                "street": address["street"], "city": address["city"], "postcode": address["postcode"]}})
            records.append({"model": "nested.employee", "fields": {
                "email": employee["email"], "name": employee["name"], "salary": employee["salary"],
                "hired": employee["hired"], "department": [department["name"]], "address": records[-1]["pk"],
                "projects": [[project["code"]] for project in employee["projects"]]}})
    return records


def main():
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    records = fixture(limit)
    path = os.path.join(work, "fixture.json")
    with open(path, "w") as handle:
        json.dump(records, handle)
    with connection.schema_editor() as editor:
        for model in (Department, Project, Address, Employee):
            editor.create_model(model)
    start = time.perf_counter()
    call_command("loaddata", path, verbosity=0)
    seconds = time.perf_counter() - start
    loaded = Department.objects.count() + Project.objects.count() + Address.objects.count() + Employee.objects.count()
    assert loaded == len(records), f"{loaded} of {len(records)} loaded"
    assert Employee.projects.through.objects.count() == 2 * Employee.objects.count()
    print(len(records), seconds)


main()
