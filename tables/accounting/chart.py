"""The gaming day's chart, drawn on the server as SVG: computed win per hour as bars (above
the axis when the house won, below when it lost) and rounds per hour as a line, each hour
labelled with its local start time (23 hours on the spring DST day, 25 in autumn)."""

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
