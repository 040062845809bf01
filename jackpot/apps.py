from django.apps import AppConfig


class JackpotConfig(AppConfig):
    name = "jackpot"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every process that serves the feed (daphne, uvicorn workers, runserver) loads the
        # application first: from then on no access log line shows a display token.
        from jackpot import log_redaction

        log_redaction.install()
        # Importing it registers the ledger's chain and heads with casino in every process,
        # not only in audit_verify's: a shift change's checkpoint, written by whichever server
        # records the shift's first entry, must record each bank's head too.
        import jackpot.chains  # noqa: F401
