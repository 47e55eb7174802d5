"""A Django project in one process, for the loaddata peers: an app written into a work directory, and settings."""
import os
import sys


def set_up(work, app, models, database):
    """Writes the app `app`, whose models.py is `models`, into the directory `work` (Django imports apps by module
    name), configures Django with `database` as the default database, and sets it up."""
    os.makedirs(os.path.join(work, app), exist_ok=True)
    with open(os.path.join(work, app, "__init__.py"), "w"):
        pass
    with open(os.path.join(work, app, "models.py"), "w") as handle:
        handle.write(models)
    sys.path.insert(0, work)

    import django
    from django.conf import settings

    settings.configure(
        DATABASES={"default": database},
        INSTALLED_APPS=[app],
        USE_TZ=True,
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    )
    django.setup()
