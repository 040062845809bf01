"""Display tokens out of every log line.

A signage player may still put its token in the address (`?token=`, the contract allows it),
and the first load of the display page carries one until it is traded for a cookie. The
servers' access logs print the address with its query: uvicorn (`uvicorn.access`, and its
websocket lines), daphne's runserver (`django.channels.server`), Django's own runserver
(`django.server`), and the daphne command line, which writes its access log straight to a
stream rather than through logging. Each gets the token replaced by `[redacted]`.
"""

import logging
import re

REDACTED = "[redacted]"
_TOKEN_IN_QUERY = re.compile(r"(?P<key>(?:^|(?<=[?&;\s]))token=)[^&;\s\"']*", re.IGNORECASE)
ACCESS_LOGGERS = ("uvicorn.access", "uvicorn.error", "django.channels.server", "django.server")


def redact(text: str) -> str:
    return _TOKEN_IN_QUERY.sub(lambda m: m.group("key") + REDACTED, text)


def _clean(value):
    return redact(value) if isinstance(value, str) else value


class RedactDisplayTokens(logging.Filter):
    """Rewrites a record's message and arguments (a tuple, or the one dict runserver passes)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, dict):
            record.args = {key: _clean(value) for key, value in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_clean(value) for value in record.args)
        return True


def install() -> None:
    """Put the filter on every access logger, and wrap daphne's stream access log."""
    for name in ACCESS_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactDisplayTokens) for f in logger.filters):
            logger.addFilter(RedactDisplayTokens())
    _redact_daphne_access_log()


def _redact_daphne_access_log() -> None:
    try:
        from daphne.access import AccessLogGenerator
    except ImportError:  # pragma: no cover - daphne is a dependency
        return
    original = AccessLogGenerator.write_entry
    if getattr(original, "redacts_display_tokens", False):
        return

    def write_entry(self, host, date, request, *args, **kwargs):
        return original(self, host, date, redact(request), *args, **kwargs)

    write_entry.redacts_display_tokens = True
    AccessLogGenerator.write_entry = write_entry
