"""A rating's edges are the accounting's, Trips lost on a fold included (spec/ratings.md: the
theo uses the edges of the table's rule set version, the same as the accounting's theoretical)."""

from tables.accounting.reports import edges_by_ruleset
from tables.accounting.theoretical import edges
from tables.models import Paytable
from tables.parsheet import Deck
from tables.ratings.figures import ruleset_edges
from tests.tables.factories import make_paytable, make_ruleset


def test_a_rating_prices_trips_lost_on_a_fold_as_the_accounting_does(manager, monkeypatch):
    from tables import services
    from tables.tasks import compute_parsheet

    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: None)
    blind_b = make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind B", preset="B")
    rules = make_ruleset(manager, name="UTH 4 rules", blind=blind_b, trips_on_fold="lost")
    sheet = services.parsheet_request(ruleset_id=rules.pk, manager=manager)
    # Eight to ace in three suits: three of a kind is possible, and folded.
    services.parsheet_compute(sheet_id=sheet.pk, deck=Deck(tuple(range(6, 13)), 3))
    rating = ruleset_edges([rules.pk])[rules.pk]
    accounting = edges_by_ruleset([rules.pk])[rules.pk]
    assert rating == accounting
    staying = edges(rules.engine_rules(), computed_base=accounting.base)
    assert rating.trips > staying.trips  # the folded trips lost, not priced as staying
