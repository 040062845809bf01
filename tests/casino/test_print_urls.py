"""`make run` prints where each person starts, the pit and the reports included."""

import io

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_make_run_prints_every_starting_page_and_the_demo_logins():
    call_command("load_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("print_urls", host="127.0.0.1", port=8000, stdout=out)
    text = out.getvalue()
    for path in (
        "/",
        "/login/pin/?next=/tablet/",
        "/login/pin/",
        "/pit/",
        "/reports/",
        "/admin/",
        "/display/demo/",
    ):
        assert f"http://127.0.0.1:8000{path}" in text, path
    assert "inspecteur" in text and "PIN 3333" in text
