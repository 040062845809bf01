"""Table accounting's refusals: each a TablesError with a stable code and a message a
supervisor or a games manager can act on."""

from tables.errors import TablesError


class AccountingRefused(TablesError):
    code = "accounting_refused"
    http_status = 400
