"""The demo floor's progressive bank and its one display (idempotent).

DEMO_DISPLAY_TOKEN is public (it is printed by `make run` and written in README.md): only
its hash is stored, but anyone who reads this file can watch the demo bank's feed. Revoke
it on any real installation: `manage.py display_token demo --name "Démo" --revoke`.
"""

from casino.models import Staff
from casino.roles import Role
from jackpot.display_tokens import display_token_issue, token_hash
from jackpot.models import Bank, DisplayToken

DEMO_BANK = "demo"
DEMO_DISPLAY_NAME = "Démo"
DEMO_DISPLAY_TOKEN = "demo-display-token-revoke-me-in-production"
DEMO_LEVELS = [
    {
        "level": "royal_flush",
        "percent": 100,
        "label_fr": "Quinte flush royale",
        "label_en": "Royal flush",
    },
    {
        "level": "straight_flush",
        "percent": 10,
        "label_fr": "Quinte flush",
        "label_en": "Straight flush",
    },
]


def _demo_manager() -> Staff | None:
    return Staff.objects.filter(groups__name=Role.MANAGER, is_active=True).order_by("pk").first()


def load() -> Bank:
    from jackpot import services

    manager = _demo_manager()
    bank = Bank.objects.filter(slug=DEMO_BANK).first()
    if bank is None:
        bank = services.bank_create(
            slug=DEMO_BANK,
            name="Jackpot progressif UTH",
            name_en="UTH progressive jackpot",
            manager=manager,
            wager_cents=100,
            reset_cents=1_000_000,
            increment_rate_ppm=250_000,
            hidden_rate_ppm=50_000,
            levels=DEMO_LEVELS,
        )  # seeded at the reset amount by a ledger entry
    if bank.status != Bank.Status.OPEN:
        bank = services.bank_open(bank_id=bank.pk, actor=manager, reason="demo")
    if not DisplayToken.objects.filter(token_hash=token_hash(DEMO_DISPLAY_TOKEN)).exists():
        display_token_issue(
            bank_slug=DEMO_BANK,
            name=DEMO_DISPLAY_NAME,
            language="fr",
            issued_by=manager,
            raw_token=DEMO_DISPLAY_TOKEN,
        )
    return bank


def demo_urls() -> list[tuple[str, str]]:
    token = DisplayToken.objects.filter(
        token_hash=token_hash(DEMO_DISPLAY_TOKEN), revoked_at__isnull=True
    ).first()
    if token is None:
        return []
    return [("Jackpot display:", f"/display/{DEMO_BANK}/?token={DEMO_DISPLAY_TOKEN}")]
