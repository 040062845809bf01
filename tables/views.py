from django.shortcuts import render

from casino.access import role_required
from casino.roles import Role
from tables.selectors import floor_tables


@role_required(Role.DEALER, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)
def table_list(request):
    rows = floor_tables(viewer=request.user)
    return render(
        request,
        "tables/table_list.html",
        {"rows": rows, "my_table": next((r.table for r in rows if r.is_mine), None)},
    )
