"""The keyed random generator (smashup/engine/rng.py): a secret seed and the generator version on the
game row. Every game stored before it stays on version 1 with its int seed (its record replays with
random.Random as it was played); new games get version 2 and a 256-bit secret."""

from django.db import migrations, models

import smashup.play.models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0005_seat_taken"),
    ]

    operations = [
        # Added with the old values for the rows that exist, then the defaults of new games.
        migrations.AddField(
            model_name="game",
            name="rng_version",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AlterField(
            model_name="game",
            name="rng_version",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AddField(
            model_name="game",
            name="secret_seed",
            field=models.CharField(blank=True, default="", editable=False, max_length=128),
        ),
        migrations.AlterField(
            model_name="game",
            name="secret_seed",
            field=models.CharField(
                blank=True, default=smashup.play.models.new_secret_seed, editable=False, max_length=128
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="seed",
            field=models.BigIntegerField(blank=True, default=None, null=True),
        ),
    ]
