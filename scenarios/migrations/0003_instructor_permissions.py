"""Give the Instructors group the scenario permissions (authoring, statistics)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

INSTRUCTORS_GROUP = "Instructors"  # frozen copy of quiz.roles.INSTRUCTORS_GROUP
CODENAMES = ["author_scenario", "view_statistics", "view_scenario", "add_scenario",
             "change_scenario", "view_scenarioversion"]


def grant(apps, schema_editor):
    app_config = apps.get_app_config("scenarios")
    app_config.models_module = True
    create_permissions(app_config, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=INSTRUCTORS_GROUP)
    group.permissions.add(*Permission.objects.filter(
        content_type__app_label="scenarios", codename__in=CODENAMES))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=INSTRUCTORS_GROUP).first()
    if group is not None:
        group.permissions.remove(*Permission.objects.filter(
            content_type__app_label="scenarios", codename__in=CODENAMES))


class Migration(migrations.Migration):
    dependencies = [
        ("scenarios", "0002_scenario_versions"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
