from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("play", "0007_game_resolution")]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="mode",
            field=models.CharField(
                choices=[("standard", "Standard"), ("bigbase", "Big Base")], default="standard", max_length=16
            ),
        ),
    ]
