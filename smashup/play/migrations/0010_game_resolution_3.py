"""New games play by resolution 3 (engine core.EXACT_CORNERS, issue 24's corners); every game stored
before keeps the resolution it was played with, so its record replays as it was played."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0009_game_created_from_and_stopped"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="resolution",
            field=models.PositiveSmallIntegerField(default=3),
        ),
    ]
