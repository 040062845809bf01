"""A shift has a French and an English name, as a bank has (issue 25, item 17); without
them, the code's own words in the reader's language."""

import pytest
from django.utils import translation

from casino.models import Shift

pytestmark = pytest.mark.django_db


def test_a_shift_is_named_in_the_reader_s_language(casino_property, client, manager):
    swing = Shift.objects.get(property=casino_property, code="swing")
    with translation.override("en"):
        assert Shift.names()["grave"] == "graveyard"
        assert Shift.names()["swing"] == "swing"
    with translation.override("fr"):
        assert Shift.names()["grave"] == "nuit"
    swing.name, swing.name_en = "après-midi", "afternoon"
    swing.save()
    with translation.override("en"):
        assert Shift.names()["swing"] == "afternoon"
    with translation.override("fr"):
        assert Shift.names()["swing"] == "après-midi"
    client.force_login(manager)
    page = client.get("/reports/?period=shift&shift=swing", HTTP_ACCEPT_LANGUAGE="en")
    assert "shift afternoon" in page.content.decode()
