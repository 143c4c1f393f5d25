"""Seat.taken: a seat's link seats whoever opens it only until someone takes the seat. Every seat
claimed before this migration counts as taken (its holders keep their sessions and accounts)."""

from django.db import migrations, models


def claimed_seats_are_taken(apps, schema_editor):
    Seat = apps.get_model("play", "Seat")
    Seat.objects.filter(claimed=True).update(taken=True)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0004_game_player_picks"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="taken",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(claimed_seats_are_taken, migrations.RunPython.noop),
    ]
