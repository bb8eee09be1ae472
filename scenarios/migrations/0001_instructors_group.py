"""Create the Instructors group. Later migrations grant it the scenarios' permissions."""

from django.db import migrations

INSTRUCTORS_GROUP = "Instructors"  # frozen copy of quiz.roles.INSTRUCTORS_GROUP


def create_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name=INSTRUCTORS_GROUP)


def delete_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name=INSTRUCTORS_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(create_group, delete_group),
    ]
