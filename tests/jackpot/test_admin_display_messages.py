"""A manager revoking a display token is told it is done (the page used to say nothing)."""

from django.urls import reverse

from jackpot.display_tokens import display_token_issue
from jackpot.models import DisplayToken
from tests.jackpot.factories import make_bank


def test_revoking_a_display_token_says_so(client, manager):
    bank = make_bank(manager=manager)
    token, _raw = display_token_issue(
        bank_slug=bank.slug, name="Salle", language="fr", issued_by=manager
    )
    client.force_login(manager)
    response = client.post(reverse("jackpot:display_revoke", args=[token.pk]), follow=True)
    assert DisplayToken.objects.get(pk=token.pk).revoked_at is not None
    assert [str(m) for m in response.context["messages"]] == [
        "Afficheur « Salle » révoqué\u00a0: son écran se ferme."
    ]
