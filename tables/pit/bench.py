"""How fast the pit follows the floor: a dashboard's view of a running server, measured.

It signs in as a supervisor, opens `/ws/pit/` and does what the page does (pit.js): when a
table moves, wait the page's debounce, then read the cards of the tables that moved. For each
card read, the delay is from the commit of the round event the card now shows (the event's
time, taken just before its transaction commits, so the figure errs on the long side) to the
moment the card arrived. It also records the server time of every read (Server-Timing).
Run against `make serve` while `simulate_floor` plays (docs/benchmarks.md, "Pit: commit to
screen").
"""

import asyncio
import re
import statistics
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from tables.simulator import Http, server_time_ms

DEBOUNCE_S = 0.120  # pit.js DEBOUNCE_MS
CARD = re.compile(r'data-table="(\d+)" data-seq="(\d*)"')


@dataclass
class Figures:
    delays_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    reads: int = 0
    messages: int = 0


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def committed_at(pairs: list[tuple[int, int]]) -> dict[tuple[int, int], float]:
    """The time of each (table, seq) event of the tables' rounds in progress or just done."""
    from tables.models import RoundEvent

    found = {}
    for table_id, seq in pairs:
        event = (
            RoundEvent.objects.filter(round__table_id=table_id, seq=seq)
            .order_by("-round__opened_at")
            .values_list("at", flat=True)
            .first()
        )
        if event is not None:
            found[(table_id, seq)] = event.timestamp()
    return found


async def follow(*, base: str, employee_number: str, pin: str, seconds: float) -> Figures:
    import websockets
    from asgiref.sync import sync_to_async

    http = Http(base)
    await asyncio.to_thread(http.request, "GET", "/login/pin/", label="login page")
    status, _ = await asyncio.to_thread(
        http.request,
        "POST",
        "/api/login",
        {"employee_number": employee_number, "pin": pin},
        label="login",
    )
    if status != 200:
        raise RuntimeError(f"the supervisor {employee_number} cannot sign in (HTTP {status})")
    parts = urlsplit(base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    figures = Figures()
    moved: set[int] = set()
    deadline = time.monotonic() + seconds

    async def read_cards(ids: set[int]) -> None:
        path = "/pit/fragments/cards/?ids=" + ",".join(str(i) for i in sorted(ids))
        conn = Http(base, server_timings=[])
        conn.cookies = dict(http.cookies)
        status, html = await asyncio.to_thread(conn.request, "GET", path, label="cards")
        arrived = time.time()
        conn.close()
        if status != 200:
            return
        figures.reads += 1
        figures.server_ms.extend(ms for _label, ms in conn.server_timings)
        shown = [(int(t), int(s)) for t, s in CARD.findall(html) if s]
        times = await sync_to_async(committed_at, thread_sensitive=False)(shown)
        figures.delays_ms.extend((arrived - at) * 1000 for at in times.values())

    async with websockets.connect(
        f"{scheme}://{parts.netloc}/ws/pit/",
        additional_headers={"Cookie": cookie, "Origin": f"{parts.scheme}://{parts.netloc}"},
    ) as socket:
        pending: asyncio.Task | None = None
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(
                    socket.recv(), timeout=max(0.1, deadline - time.monotonic())
                )
            except TimeoutError:
                break
            figures.messages += 1
            if '"type": "table"' not in raw and '"type":"table"' not in raw:
                continue
            moved.add(int(re.search(r'"table":\s*(\d+)', raw).group(1)))
            if pending is None or pending.done():

                async def debounced():
                    await asyncio.sleep(DEBOUNCE_S)
                    ids = set(moved)
                    moved.clear()
                    await read_cards(ids)

                pending = asyncio.create_task(debounced())
        if pending is not None:
            await pending
    http.close()
    return figures


def report(figures: Figures) -> str:
    rows = [
        ("socket messages", f"{figures.messages}", ""),
        ("card reads", f"{figures.reads}", ""),
        (
            "commit -> card on screen p50",
            f"{percentile(figures.delays_ms, 50):.0f} ms",
            "< 500 ms",
        ),
        (
            "commit -> card on screen p95",
            f"{percentile(figures.delays_ms, 95):.0f} ms",
            "< 500 ms",
        ),
        ("card read, server time p50", f"{percentile(figures.server_ms, 50):.1f} ms", ""),
        ("card read, server time p95", f"{percentile(figures.server_ms, 95):.1f} ms", ""),
    ]
    if figures.delays_ms:
        rows.append(("mean delay", f"{statistics.fmean(figures.delays_ms):.0f} ms", ""))
    width = max(len(r[0]) for r in rows)
    return "\n".join(f"{name:<{width}}  {value:>10}  {target}" for name, value, target in rows)


__all__ = ["Figures", "follow", "report", "server_time_ms"]
