"""Connected-display rows carry their socket's last heartbeat, and a token remembers when its
link was declared lost (so that the loss is audited and signalled once)."""

import django.db.models.functions
import django.utils.timezone
from django.db import migrations, models


def existing_links_already_known(apps, schema_editor):
    # Tokens issued before this migration have no record of a lost link: without this, the
    # first sweep would report every screen ever switched off as lost. A live one clears the
    # mark at its next heartbeat.
    DisplayToken = apps.get_model("jackpot", "DisplayToken")
    DisplayToken.objects.update(link_lost_at=django.db.models.functions.Now())


class Migration(migrations.Migration):
    dependencies = [("jackpot", "0003_pending_contribution")]

    operations = [
        migrations.AddField(
            model_name="displayconnection",
            name="last_seen_at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="displaytoken",
            name="link_lost_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(existing_links_already_known, migrations.RunPython.noop),
    ]
