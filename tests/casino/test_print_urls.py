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


def test_the_tablet_url_signs_a_dealer_in_to_the_tablet_not_the_floor_list(client):
    call_command("load_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("print_urls", host="127.0.0.1", port=8000, stdout=out)
    [line] = [line for line in out.getvalue().splitlines() if line.strip().startswith("Tablet:")]
    url = line.split()[-1]
    path = url.removeprefix("http://127.0.0.1:8000")
    assert client.get(path).status_code == 200
    answer = client.post(path, {"employee_number": "1001", "pin": "1111"})  # croupier
    assert answer.status_code == 302 and answer.url == "/tablet/"
    page = client.get(answer.url)
    assert page.status_code == 200 and b'id="tablet"' in page.content  # UTH 1's tablet
