# Names compared in a normalised, case-folded form with look-alike letters as one (issue 27):
# Entrant.name_key replaces the unique lower-cased name per event.

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    """Every entrant's key. Two entrants of one event whose names were already look-alikes both
    stay: the later one's key gets its id appended (they keep their names; new look-alikes of
    either are refused)."""
    from tournaments.names import name_key

    Entrant = apps.get_model("tournaments", "Entrant")
    seen = set()
    for entrant in Entrant.objects.order_by("event_id", "pk").iterator():
        key = name_key(entrant.name)
        if (entrant.event_id, key) in seen:
            key = f"{key}#{entrant.pk}"
        seen.add((entrant.event_id, key))
        Entrant.objects.filter(pk=entrant.pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_event_archive_and_append_only_audit"),
    ]

    operations = [
        migrations.AddField(
            model_name="entrant",
            name="name_key",
            field=models.TextField(default="", editable=False),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="entrant",
            name="tournaments_entrant_unique_name",
        ),
        migrations.AddConstraint(
            model_name="entrant",
            constraint=models.UniqueConstraint(
                fields=("event", "name_key"), name="tournaments_entrant_unique_name_key"
            ),
        ),
    ]
