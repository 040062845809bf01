"""The reports' charts, drawn on the server as SVG.

The gaming day's: computed win per hour as bars (above the axis when the house won, below
when it lost) and rounds per hour as a line, each hour labelled with its local start time
(23 hours on the spring DST day, 25 in autumn). A month's or a year's: the trend per gaming
day (trend_chart)."""

from django.utils import formats
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from casino.money import money

WIDTH, HEIGHT = 960, 300
LEFT, RIGHT, TOP, BOTTOM = 80, 50, 20, 40


def hour_chart(hours) -> SafeString:
    if not hours:
        return mark_safe("")
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / len(hours)
    top_win = max([h.win for h in hours] + [1])
    low_win = min([h.win for h in hours] + [0])
    span = top_win - low_win or 1
    most_rounds = max([h.rounds for h in hours] + [1])

    def y_win(value: int) -> float:
        return TOP + (top_win - value) / span * plot_h

    axis = y_win(0)
    title = _("Computed win and rounds per hour of the gaming day")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="hour-chart" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" aria-labelledby="hour-chart-title">',
        f'<title id="hour-chart-title">{escape(title)}</title>',
        f'<line class="axis" x1="{LEFT}" y1="{axis:.1f}" x2="{WIDTH - RIGHT}" y2="{axis:.1f}"/>',
        f'<text class="scale" x="{LEFT - 6}" y="{TOP + 10}" text-anchor="end">'
        f"{escape(money(top_win))}</text>",
    ]
    if low_win < 0:
        parts.append(
            f'<text class="scale" x="{LEFT - 6}" y="{TOP + plot_h}" text-anchor="end">'
            f"{escape(money(low_win))}</text>"
        )
    parts.append(
        f'<text class="scale rounds" x="{WIDTH - RIGHT + 6}" y="{TOP + 10}">{most_rounds}</text>'
    )
    points = []
    for i, h in enumerate(hours):
        x = LEFT + i * step
        y = y_win(max(h.win, 0))
        height = abs(y_win(h.win) - axis)
        label = _("%(hour)s: win %(win)s, %(rounds)s rounds") % {
            "hour": h.label,
            "win": money(h.win),
            "rounds": h.rounds,
        }
        kind = "win" if h.win >= 0 else "loss"
        parts.append(
            f'<rect class="bar {kind}" x="{x + 2:.1f}" y="{min(y, axis):.1f}" '
            f'width="{step - 4:.1f}" height="{height:.1f}" data-hour="{h.hour}">'
            f"<title>{escape(label)}</title></rect>"
        )
        if i % 2 == 0:
            parts.append(
                f'<text class="hour" x="{x + step / 2:.1f}" y="{HEIGHT - BOTTOM + 16}" '
                f'text-anchor="middle">{escape(h.label)}</text>'
            )
        points.append(f"{x + step / 2:.1f},{TOP + (1 - h.rounds / most_rounds) * plot_h:.1f}")
    parts.append(f'<polyline class="rounds" points="{" ".join(points)}"/>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


def trend_chart(days, *, title: str | None = None, with_hold: bool = True) -> SafeString:
    """A month's or a year's trend: computed win per gaming day as bars, the theoretical win
    at optimal play as a line on the same scale and, when some day's decisions are priced,
    the theoretical at the play seen (optimal plus the decisions' cost) as a dashed line, each
    line named in a legend; and the hold (counted win / drop) as dots on a percentage
    scale of its own at the right; a day whose drop is not counted yet has no dot. Without
    hold (a player's page: the house's result against theo), neither scale nor words of it."""
    if not days:
        return mark_safe("")
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / len(days)
    seen_days = [getattr(d, "theoretical_seen", None) for d in days]
    with_seen = any(v is not None for v in seen_days)
    values = [d.win for d in days] + [d.theoretical for d in days]
    values += [v for v in seen_days if v is not None]
    top, low = max(values + [1]), min(values + [0])
    span = top - low or 1
    holds = [d.hold for d in days if d.hold is not None]
    hold_top = max(holds + [1])
    hold_low = min(holds + [0])
    hold_span = hold_top - hold_low or 1

    def y(value: int) -> float:
        return TOP + (top - value) / span * plot_h

    def y_hold(value: float) -> float:
        return TOP + (hold_top - value) / hold_span * plot_h

    axis = y(0)
    title = title or _("Computed win, theoretical win and hold per gaming day")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="trend-chart" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" aria-labelledby="trend-chart-title">',
        f'<title id="trend-chart-title">{escape(title)}</title>',
        f'<line class="axis" x1="{LEFT}" y1="{axis:.1f}" x2="{WIDTH - RIGHT}" y2="{axis:.1f}"/>',
        f'<text class="scale" x="{LEFT - 6}" y="{TOP + 10}" text-anchor="end">'
        f"{escape(money(top))}</text>",
    ]
    if with_hold:
        parts.append(
            f'<text class="scale hold" x="{WIDTH - RIGHT + 6}" y="{TOP + 10}">'
            f"{escape(_('%(hold)s %%') % {'hold': formats.number_format(hold_top, 0)})}</text>"
        )
    if low < 0:
        parts.append(
            f'<text class="scale" x="{LEFT - 6}" y="{TOP + plot_h}" text-anchor="end">'
            f"{escape(money(low))}</text>"
        )
    if with_hold and hold_low < 0:
        parts.append(
            f'<text class="scale hold" x="{WIDTH - RIGHT + 6}" y="{TOP + plot_h}">'
            f"{escape(_('%(hold)s %%') % {'hold': formats.number_format(hold_low, 0)})}</text>"
        )
    theoretical, dots = [], []
    seen: list[list[str]] = [[]]  # runs of priced days: a day not priced breaks the line
    label_every = 1 if len(days) <= 31 else 0
    # Worded once, not once a day: a year is 365 bars.
    not_counted, hold_words = _("hold not counted yet"), _("hold %(hold)s %%")
    day_words = (
        _("%(day)s: win %(win)s, theoretical %(theoretical)s, %(hold)s")
        if with_hold
        else _("%(day)s: win %(win)s, theoretical %(theoretical)s")
    )
    seen_words = _("theoretical at the play seen %(seen)s")
    for i, d in enumerate(days):
        x = LEFT + i * step
        top_y = y(max(d.win, 0))
        height = abs(y(d.win) - axis)
        hold = (
            not_counted
            if d.hold is None
            else hold_words % {"hold": formats.number_format(d.hold, 1)}
        )
        label = day_words % {  # an unused key is ignored by %
            "day": formats.date_format(d.day, "SHORT_DATE_FORMAT"),
            "win": money(d.win),
            "theoretical": money(d.theoretical),
            "hold": hold,
        }
        if seen_days[i] is not None:
            label = f"{label}, {seen_words % {'seen': money(seen_days[i])}}"
        kind = "win" if d.win >= 0 else "loss"
        gap = min(step * 0.2, 2)
        parts.append(
            f'<rect class="bar {kind}" x="{x + gap / 2:.1f}" y="{min(top_y, axis):.1f}" '
            f'width="{max(step - gap, 0.5):.1f}" height="{height:.1f}" '
            f'data-day="{d.day.isoformat()}"><title>{escape(label)}</title></rect>'
        )
        middle = x + step / 2
        theoretical.append(f"{middle:.1f},{y(d.theoretical):.1f}")
        if seen_days[i] is None:
            if seen[-1]:
                seen.append([])
        else:
            seen[-1].append(f"{middle:.1f},{y(seen_days[i]):.1f}")
        if d.hold is not None:
            dots.append(
                f'<circle class="hold" cx="{middle:.1f}" cy="{y_hold(d.hold):.1f}" r="3" '
                f'data-day="{d.day.isoformat()}"/>'
            )
        if (label_every and (i % 2 == 0)) or (not label_every and d.day.day == 1):
            text = (
                formats.date_format(d.day, "j") if label_every else formats.date_format(d.day, "M")
            )
            parts.append(
                f'<text class="day" x="{middle:.1f}" y="{HEIGHT - BOTTOM + 16}" '
                f'text-anchor="middle">{escape(text)}</text>'
            )
    parts.append(f'<polyline class="theoretical" points="{" ".join(theoretical)}"/>')
    for run in seen:
        if run:
            parts.append(f'<polyline class="theoretical-seen" points="{" ".join(run)}"/>')
    parts.extend(dots)
    if with_seen:
        parts.append(_legend())
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _legend() -> str:
    """The two theoretical lines, named at the top left of the plot."""
    entries = (
        ("theoretical", _("Theoretical at optimal play")),
        ("theoretical-seen", _("Theoretical at the play seen")),
    )
    # A pale box under the words: the legend sits over the plot's top left.
    parts = [
        '<g class="legend" data-testid="trend-legend">'
        f'<rect class="legend-box" x="{LEFT + 4}" y="{TOP + 1}" width="230" height="36"/>'
    ]
    for i, (kind, words) in enumerate(entries):
        y = TOP + 12 + i * 16
        x = LEFT + 10
        parts.append(
            f'<line class="{kind}" x1="{x}" y1="{y - 4}" x2="{x + 24}" y2="{y - 4}"/>'
            f'<text x="{x + 30}" y="{y}">{escape(words)}</text>'
        )
    parts.append("</g>")
    return "".join(parts)
