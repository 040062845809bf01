from django.core.management.base import BaseCommand, CommandError

from casino.errors import CasinoError
from casino.roles import Role
from casino.staffing import role_grant_at_console


class Command(BaseCommand):
    help = (
        "Give a staff member a role from the server's console, without a second person (how "
        "the first staff administrators exist); audited as the console's."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("role", choices=Role.values)

    def handle(self, *args, username, role, **options):
        try:
            grant = role_grant_at_console(username=username, role=role)
        except CasinoError as err:
            raise CommandError(err.message) from None
        self.stdout.write(f"{grant.staff}: {grant.get_role_display()} granted (grant #{grant.pk}).")
