from django.shortcuts import render

from casino.access import role_required
from casino.roles import Role


@role_required(Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)
def table_list(request):
    return render(request, "tables/table_list.html", {"tables": []})
