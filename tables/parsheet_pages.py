"""What the back office shows of a rule set's par sheet: the panel beside the paytable math and
the printable page, from the stored sheet (`BaseGameSheet.sheet`, `ParSheet.to_json()`)."""

from __future__ import annotations

from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext

from tables.forms_math import category_name, percent
from tables.models import BaseGameSheet

RANKS = "AKQJT98765432"


def panel(sheet: BaseGameSheet | None) -> dict:
    """The par sheet's state for the rule set's page: none yet, under way (with its
    progress), done (the exact edge and element of risk) or failed."""
    if sheet is None:
        return {"status": "none"}
    found: dict = {
        "status": sheet.status,
        "status_label": sheet.get_status_display(),
        "progress": sheet.progress_permille // 10,
        "progress_permille": sheet.progress_permille,
    }
    if sheet.status == BaseGameSheet.Status.DONE:
        found.update(
            house_edge=percent(Fraction(sheet.house_edge), 4),
            element_of_risk=percent(Fraction(sheet.element_of_risk), 4),
            exact=sheet.house_edge,
            minutes=number_format(round((sheet.seconds or 0) / 60, 1), 1),
        )
    if sheet.status == BaseGameSheet.Status.FAILED:
        found["error"] = sheet.error
    return found


def _street(street: str, multiple: int) -> str:
    if street.startswith("preflop"):
        return gettext("pre-flop Play %(multiple)sx") % {"multiple": multiple}
    if street == "flop":
        return gettext("flop Play 2x")
    return gettext("river Play 1x")


def outcome_rows(data: dict, blind_pays: set[str]) -> list[dict]:
    """The outcomes table: a row per street and result, wins split by what the Blind pays."""
    rows: dict[str, dict] = {}
    for o in data["outcomes"]:
        if o["result"] == "fold":
            label = gettext("fold on the river")
        elif o["result"] == "tie":
            label = gettext("%(street)s, tie") % {"street": _street(o["street"], o["multiple"])}
        else:
            street = _street(o["street"], o["multiple"])
            qualifies = o["dealer"] == "qualifies"
            if o["result"] == "win":
                blind = (
                    gettext("the Blind pays %(hand)s") % {"hand": category_name(o["category"])}
                    if o["category"] in blind_pays
                    else gettext("the Blind pushes")
                )
                label = (
                    gettext("%(street)s, win, the dealer qualifies; %(blind)s")
                    if qualifies
                    else gettext("%(street)s, win, the dealer does not qualify; %(blind)s")
                ) % {"street": street, "blind": blind}
            else:
                label = (
                    gettext("%(street)s, loss, the dealer qualifies")
                    if qualifies
                    else gettext("%(street)s, loss, the dealer does not qualify")
                ) % {"street": street}
        row = rows.setdefault(label, {"label": label, "p": Fraction(0), "r": Fraction(0)})
        row["p"] += Fraction(o["probability"]["exact"])
        row["r"] += Fraction(o["return"]["exact"])
    return [
        {
            "label": r["label"],
            "probability": percent(r["p"], 6),
            "return": number_format(round(float(r["r"]), 6), 6),
        }
        for r in rows.values()
    ]


def chart(data: dict) -> list[list[dict]]:
    """The 13 x 13 pre-flop chart: suited above the diagonal, offsuit below."""
    plays = {h["hand"]: h["play"] for h in data["strategy"]["preflop"]}
    grid = []
    for i, row in enumerate(RANKS):
        cells = []
        for j, col in enumerate(RANKS):
            name = row + col if i == j else (row + col + "s" if j > i else col + row + "o")
            cells.append({"hand": name, "play": plays.get(name, 0)})
        grid.append(cells)
    return grid


def printable(sheet: BaseGameSheet, blind_pays: set[str]) -> dict:
    data = sheet.sheet or {}
    strategy = data.get("strategy", {})
    return {
        "house_edge": percent(Fraction(data["house_edge"]["exact"]), 4),
        "exact": data["house_edge"]["exact"],
        "element_of_risk": percent(Fraction(data["element_of_risk"]["exact"]), 4),
        "average_stake": number_format(round(data["average_stake"]["decimal"], 4), 4),
        "standard_deviation": number_format(round(data["standard_deviation"], 4), 4),
        "deals": number_format(data["deals"], 0, force_grouping=True),
        "outcomes": outcome_rows(data, blind_pays),
        "chart": chart(data),
        "flop": strategy.get("flop", {}),
        "river": strategy.get("river", {}),
        "multiples": data["rules"]["preflop_multiples"],
    }
