"""Display tokens never reach a log line (issue 11 item 7); the servers' own lines are tried
by test_feed_two_processes.py::test_no_access_log_line_shows_a_display_token."""

import logging

from jackpot.log_redaction import ACCESS_LOGGERS, RedactDisplayTokens, redact


def test_the_token_parameter_is_redacted_wherever_it_sits_in_the_query():
    assert redact("GET /display/demo/?token=s3cr-et_X HTTP/1.1") == (
        "GET /display/demo/?token=[redacted] HTTP/1.1"
    )
    assert redact("/api/jackpot/demo/?a=1&token=s3cret&b=2") == (
        "/api/jackpot/demo/?a=1&token=[redacted]&b=2"
    )
    assert redact("/tables/?mytoken=1&page=2") == "/tables/?mytoken=1&page=2"


def test_a_uvicorn_access_record_is_printed_without_the_token():
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/ws/jackpot/demo/?token=s3cret", "1.1", 101), None,
    )  # fmt: skip
    assert RedactDisplayTokens().filter(record)
    assert "s3cret" not in record.getMessage() and "token=[redacted]" in record.getMessage()


def test_a_runserver_record_with_its_dict_of_details_is_printed_without_the_token():
    record = logging.LogRecord(
        "django.channels.server", logging.INFO, __file__, 1, "HTTP %(method)s %(path)s",
        ({"method": "GET", "path": "/display/demo/?token=s3cret"},), None,
    )  # fmt: skip
    RedactDisplayTokens().filter(record)
    assert record.getMessage() == "HTTP GET /display/demo/?token=[redacted]"


def test_every_access_logger_has_the_filter_once_the_application_is_loaded():
    for name in ACCESS_LOGGERS:
        filters = logging.getLogger(name).filters
        assert sum(isinstance(f, RedactDisplayTokens) for f in filters) == 1, name


def test_daphnes_stream_access_log_is_redacted_too():
    import io

    from daphne.access import AccessLogGenerator

    stream = io.StringIO()
    AccessLogGenerator(stream)("http", "complete", {
        "client": "127.0.0.1:5000", "path": "/display/demo/?token=s3cret",
        "method": "GET", "status": 303, "size": 0,
    })  # fmt: skip
    assert "s3cret" not in stream.getvalue() and "token=[redacted]" in stream.getvalue()
