"""A player's access request at the console: every item held about them as one JSON file,
audited as made by the compliance officer named (tables.ratings.privacy.player_data_export)."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder

from casino.errors import CasinoError
from casino.models import Staff
from tables.ratings.privacy import player_data_export


class Command(BaseCommand):
    help = "Write every item held about a player as one JSON file (a GDPR access request)."

    def add_arguments(self, parser):
        parser.add_argument("player_id", type=int)
        parser.add_argument("--officer", required=True, help="the compliance officer's username")
        parser.add_argument("--output", help="the file to write (default: standard output)")

    def handle(self, *args, player_id, officer, output=None, **options):
        staff = Staff.objects.filter(username=officer, is_active=True).first()
        if staff is None:
            raise CommandError(f"No active staff member {officer!r}.")
        try:
            document = player_data_export(officer=staff, player_id=player_id)
        except CasinoError as exc:
            raise CommandError(exc.message) from exc
        text = json.dumps(document, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False)
        if output:
            with open(output, "w", encoding="utf-8") as out:
                out.write(text + "\n")
        else:
            self.stdout.write(text)
