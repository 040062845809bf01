"""PIN approvals are throttled like the PIN sign-in (issue 11, item 2): a dealer could spray one
PIN across many supervisor numbers at the tablet (each number locks after 3 wrong PINs, but
200 numbers gave 200 tries). Now failures are counted per address, per tablet and house-wide,
with the sign-ins; past the limit every approval from there is refused at once with the
waiting time, audited once and sent to the pit, while another address still works."""

import itertools
import json
import re

import pytest
from django.test import Client, RequestFactory

from casino import events
from casino.errors import PinRejected, RoleRequired
from casino.models import AuditEntry, Staff
from casino.pins import pin_verify
from casino.roles import Role
from casino.signin import ApprovalThrottled
from tables.pit.models import Alert
from tests.factories import make_staff

_keys = itertools.count(1)
SPRAYED_PIN = "1111"


class Tablet:
    """The dealer's tablet, from one address (CSRF enforced, like the browser)."""

    def __init__(self, staff, *, address: str, language: str = "en") -> None:
        self.http = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
        self.http.cookies["tapis_device_language"] = language
        self.http.get("/login/pin/")
        answer = self.post("/api/login", {"employee_number": staff.employee_number, "pin": "1234"})
        assert answer.status_code == 200, answer.content

    def post(self, path: str, body: dict):
        return self.http.post(
            path,
            json.dumps(body),
            content_type="application/json",
            HTTP_X_CSRFTOKEN=self.http.cookies["csrftoken"].value,
        )

    def send(self, round_: dict, event: dict, **extra):
        body = {"key": f"k-{next(_keys)}", "expected_seq": round_["seq"], "event": event}
        return self.post(f"/api/rounds/{round_['id']}/events", {**body, **extra})


@pytest.fixture
def supervisors(db):
    """Thirty supervisor numbers, each with their own PIN (none of them 1111)."""
    return [make_staff(Role.SUPERVISOR, username=f"floor{n}", pin=f"{5000 + n}") for n in range(30)]


@pytest.fixture
def pending_void(table, dealer):
    """A round at the table with a void waiting for a supervisor's PIN."""
    tablet = Tablet(dealer, address="10.0.0.7")
    answer = tablet.post(f"/api/tables/{table.pk}/rounds", {"key": f"open-{next(_keys)}"})
    assert answer.status_code == 201, answer.content
    round_ = answer.json()
    for event in (
        {"kind": "wagers_placed", "seat": 1, "ante": 1000, "blind": 1000},
        {"kind": "bets_locked"},
        {"kind": "irregularity_declared", "irregularity": "preflop_card_exposed"},
    ):
        answer = tablet.send(round_, event)
        assert answer.status_code == 200, answer.content
        round_ = answer.json()
    assert round_["pending_void"] == "preflop_card_exposed"
    return tablet, round_


@pytest.fixture
def told_the_pit():
    seen = []

    def receiver(sender, **kwargs):
        seen.append({k: v for k, v in kwargs.items() if k != "signal"})

    events.signin_throttled.connect(receiver)
    yield seen
    events.signin_throttled.disconnect(receiver)


def approve(tablet: Tablet, round_: dict, supervisor, pin: str):
    credentials = {"employee_number": supervisor.employee_number, "pin": pin}
    return tablet.send(round_, {"kind": "void_approved"}, supervisor=credentials)


def test_a_spray_of_wrong_approvals_from_one_address_is_refused_after_the_limit(
    pending_void, supervisors, dealer, told_the_pit, django_capture_on_commit_callbacks
):
    tablet, round_ = pending_void
    with django_capture_on_commit_callbacks(execute=True):
        answers = [approve(tablet, round_, boss, SPRAYED_PIN) for boss in supervisors]
    codes = [answer.json()["error"]["code"] for answer in answers]
    # The address's limit (SIGNIN_THROTTLE_SOURCE_FAILURES, 10), then "wait" without a look.
    assert codes == ["pin_rejected"] * 10 + ["approval_throttled"] * 20
    assert [answer.status_code for answer in answers[10:]] == [429] * 20
    message = answers[-1].json()["error"]["message"]
    assert re.fullmatch(
        r"Too many wrong PINs from here\. Wait (29\d|300) seconds and try again\.", message
    )
    assert AuditEntry.objects.filter(code="casino.pin.rejected").count() == 10  # guesses tried
    # Even the right PIN is refused from there, and the round is untouched.
    answer = approve(tablet, round_, supervisors[-1], "5029")
    assert answer.status_code == 429
    assert 290 <= int(answer["Retry-After"]) <= 300
    assert all(Staff.objects.get(pk=boss.pk).pin_locked_until is None for boss in supervisors)
    throttled = AuditEntry.objects.get(code="casino.signin.throttled")
    assert throttled.data == {
        "kind": "source",
        "source": "10.0.0.7",
        "attempts": 10,
        "seconds": 300,
        "after": "pin_approval",
    }
    assert told_the_pit == [{"source": "10.0.0.7", "attempts": 10}]
    assert Alert.objects.filter(kind="signin_throttled", key="signin_throttled:10.0.0.7").exists()

    # Another address (another tablet of the same dealer) still gets its approval.
    other = Tablet(dealer, address="10.0.0.8")
    answer = approve(other, round_, supervisors[-1], "5029")
    assert answer.status_code == 200, answer.content
    assert answer.json()["stage"] == "void"


def test_the_refusal_is_worded_in_french_on_a_french_tablet(pending_void, supervisors, dealer):
    tablet, round_ = pending_void
    # Signed in before the spray: once blocked, the address signs nobody in, /api/login
    # included (issue 23).
    french = Tablet(dealer, address="10.0.0.7", language="fr")
    for boss in supervisors[:10]:
        approve(tablet, round_, boss, SPRAYED_PIN)
    answer = approve(french, round_, supervisors[0], SPRAYED_PIN)
    assert answer.status_code == 429
    assert re.fullmatch(
        r"Trop de codes PIN erronés depuis cet appareil\. Patientez (29\d|300) secondes et "
        r"réessayez\.",
        answer.json()["error"]["message"],
    )


def test_failed_sign_ins_and_failed_approvals_share_one_count(
    client, pending_void, supervisors, settings
):
    settings.SIGNIN_FAILURE_MIN_SECONDS = 0  # the refusal's time floor is not waited for here
    tablet, round_ = pending_void
    for _ in range(5):
        answer = client.post(
            "/login/pin/", {"employee_number": "E99999", "pin": SPRAYED_PIN}, REMOTE_ADDR="10.0.0.7"
        )
        assert answer.status_code == 403
    codes = [
        approve(tablet, round_, boss, SPRAYED_PIN).json()["error"]["code"]
        for boss in supervisors[:6]
    ]
    assert codes == ["pin_rejected"] * 5 + ["approval_throttled"]


def test_an_approval_given_its_request_is_throttled_by_its_tablet_across_addresses(
    supervisors, settings
):
    # The tablet's binding cookie follows it from one address to the next.
    factory = RequestFactory()
    cookie = "tapis_tablet_binding=raw-binding-token"
    for n, boss in enumerate(supervisors[:10]):
        request = factory.post("/", REMOTE_ADDR=f"10.0.2.{n}", HTTP_COOKIE=cookie)
        with pytest.raises(PinRejected):
            pin_verify(
                employee_number=boss.employee_number,
                pin=SPRAYED_PIN,
                role=Role.SUPERVISOR,
                request=request,
            )
    request = factory.post("/", REMOTE_ADDR="10.0.2.99", HTTP_COOKIE=cookie)
    with pytest.raises(ApprovalThrottled) as refused:
        pin_verify(
            employee_number=supervisors[10].employee_number,
            pin="5010",
            role=Role.SUPERVISOR,
            request=request,
        )
    assert refused.value.http_status == 429 and refused.value.seconds >= 290
    # The same right PIN from a tablet of its own goes through.
    request = factory.post("/", REMOTE_ADDR="10.0.2.99")
    assert (
        pin_verify(
            employee_number=supervisors[10].employee_number,
            pin="5010",
            role=Role.SUPERVISOR,
            request=request,
        )
        == supervisors[10]
    )


def test_a_role_refusal_is_not_a_failed_guess(supervisors, dealer):
    # The dealer's own right PIN, given as a supervisor's: refused for the role, not counted.
    request = RequestFactory().post("/", REMOTE_ADDR="10.0.3.1")
    for _ in range(12):
        with pytest.raises(RoleRequired):
            pin_verify(
                employee_number=dealer.employee_number,
                pin="1234",
                role=Role.SUPERVISOR,
                request=request,
            )
    assert (
        pin_verify(
            employee_number=supervisors[0].employee_number,
            pin="5000",
            role=Role.SUPERVISOR,
            request=request,
        )
        == supervisors[0]
    )
