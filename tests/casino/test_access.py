"""Deny by default, proven on every URL of the project (including views added later).

1. Every view behind a URL is either `role_required(...)` or `public`.
2. For every non-public view and every persona, the roles it does not admit are refused
   (anonymous: to the login, or 401/403 JSON under /api/; staff: 403) and the roles it admits
   get through (any answer but a refusal or a server error: 404 for a guessed id is fine).
The admin is tested in test_roles.py; Django's set_language endpoint is public by design.
"""

import io
import re
import uuid

import pytest
from django.apps import apps
from django.core.management import call_command
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter, SlugConverter, StringConverter, UUIDConverter

from casino.roles import Role
from tests.factories import make_staff

SKIPPED_NAMESPACES = {"admin"}
SKIPPED_NAMES = {"set_language"}
PERSONAS = ["anonymous", *Role.values]
PROJECT_APPS = {"casino", "tables", "jackpot", "pit", "accounting", "ratings"}


def walk(resolvers=None, namespace="", prefix=""):
    resolvers = resolvers if resolvers is not None else get_resolver().url_patterns
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            ns = entry.namespace or ""
            if ns in SKIPPED_NAMESPACES:
                continue
            full_ns = f"{namespace}:{ns}" if namespace and ns else (ns or namespace)
            yield from walk(entry.url_patterns, full_ns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            if entry.name in SKIPPED_NAMES:
                continue
            yield namespace, entry, prefix + str(entry.pattern)


def pattern_id(item) -> str:
    namespace, entry, route = item
    return f"{namespace}:{entry.name}" if namespace else (entry.name or route)


PATTERNS = list(walk())


def allowed_roles(entry: URLPattern):
    return getattr(entry.callback, "allowed_roles", None)


@pytest.mark.parametrize("item", PATTERNS, ids=[pattern_id(p) for p in PATTERNS])
def test_every_view_declares_who_may_reach_it(item):
    namespace, entry, route = item
    roles = allowed_roles(entry)
    assert roles == "public" or (isinstance(roles, frozenset) and roles), (
        f"/{route} ({entry.lookup_str}) is neither role_required(...) nor public: "
        "deny by default means every view says who may use it"
    )
    if roles != "public":
        assert roles <= set(Role.values), f"/{route} admits unknown roles {roles}"


def test_the_walk_finds_the_casino_views():
    names = {pattern_id(p) for p in PATTERNS}
    assert {"casino:login", "casino:pin_login", "casino:my_language"} <= names


def _objects_named(name: str, app_label: str):
    base = name.removesuffix("_id").removesuffix("_pk").replace("_", "")
    models = [m for m in apps.get_models() if m._meta.app_label in PROJECT_APPS]
    exact = [m for m in models if m._meta.model_name == base]
    if base == "pk":
        exact = [m for m in models if m._meta.app_label == app_label]
    for model in exact:
        obj = model._default_manager.order_by("pk").first()
        if obj is not None:
            yield obj


def _guess(name: str, converter, app_label: str):
    objs = list(_objects_named(name, app_label))
    if isinstance(converter, IntConverter):
        return objs[0].pk if objs else 1
    if isinstance(converter, UUIDConverter):
        for obj in objs:
            for field in obj._meta.fields:
                if field.get_internal_type() == "UUIDField":
                    return getattr(obj, field.attname)
        return uuid.uuid4()
    if isinstance(converter, SlugConverter | StringConverter):
        for obj in objs:
            for field_name in ("slug", "code", "token", "name"):
                value = getattr(obj, field_name, None)
                if isinstance(value, str) and value and re.fullmatch(converter.regex, value):
                    return value
        return "demo"
    return "1"


def url_for(item) -> str:
    namespace, entry, route = item
    converters = getattr(entry.pattern, "converters", {})
    app_label = entry.callback.__module__.split(".")[0]
    name = f"{namespace}:{entry.name}" if namespace else entry.name
    if converters or not entry.pattern.regex.groupindex:
        kwargs = {arg: _guess(arg, conv, app_label) for arg, conv in converters.items()}
        return reverse(name, kwargs=kwargs)
    # A re_path: its groups have no converter; guess an id first, then a slug.
    for conv in (IntConverter(), SlugConverter()):
        kwargs = {arg: _guess(arg, conv, app_label) for arg in entry.pattern.regex.groupindex}
        try:
            return reverse(name, kwargs=kwargs)
        except NoReverseMatch:
            continue
    raise AssertionError(f"/{route}: no guessed arguments fit its pattern")


PROTECTED = [p for p in PATTERNS if allowed_roles(p[1]) not in (None, "public")]


@pytest.fixture
def floor(db):
    call_command("load_demo", stdout=io.StringIO())
    return {role: make_staff(role, username=f"access-{role}") for role in Role.values}


def _request(client: Client, url: str):
    response = client.get(url)
    if response.status_code == 405:  # a POST-only view: refusals still come first
        response = client.post(url, {})
    return response


def _is_login_redirect(response) -> bool:
    return response.status_code == 302 and reverse("casino:login") in response["Location"]


@pytest.mark.parametrize("item", PROTECTED, ids=[pattern_id(p) for p in PROTECTED])
def test_only_the_roles_a_view_admits_get_through(item, floor):
    roles = allowed_roles(item[1])
    url = url_for(item)
    is_api = url.startswith("/api/")
    for persona in PERSONAS:
        client = Client(raise_request_exception=False)
        if persona != "anonymous":
            client.force_login(floor[persona])
        response = _request(client, url)
        where = f"{persona} on {url}"
        if persona == "anonymous":
            if is_api:
                assert response.status_code in (401, 403), where
            else:
                assert _is_login_redirect(response), f"{where}: {response.status_code}"
        elif persona in roles:
            assert response.status_code not in (401, 403), where
            assert not _is_login_redirect(response), where
            assert response.status_code < 500, f"{where} answered {response.status_code}"
        else:
            assert response.status_code == 403, f"{where}: {response.status_code}"


def test_the_walk_flags_a_view_that_forgot_its_decorator():
    from django.urls import path

    def forgotten(request):  # pragma: no cover - never called
        raise AssertionError

    found = list(walk([path("oops/", forgotten, name="oops")]))
    assert [allowed_roles(entry) for _, entry, _ in found] == [None]


def _socket_routes():
    from casino.routing import websocket_urlpatterns

    for entry in websocket_urlpatterns:
        converters = getattr(entry.pattern, "converters", {})
        route = str(entry.pattern)
        for name, conv in converters.items():
            value = "1" if isinstance(conv, IntConverter) else "demo"  # the demo bank, table 1
            route = re.sub(rf"<(\w+:)?{name}>", value, route)
        yield "/" + route.lstrip("^").rstrip("$")


SOCKETS = list(_socket_routes())


@pytest.mark.parametrize("path", SOCKETS)
@pytest.mark.django_db(transaction=True)
async def test_every_socket_refuses_a_connection_without_a_credential(path):
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.db import connections

    from casino.asgi import application

    await sync_to_async(call_command)("load_demo", stdout=io.StringIO())
    communicator = WebsocketCommunicator(application, path)
    try:
        connected, _ = await communicator.connect(timeout=5)
        if connected:  # accepted only to send a close code: nothing else may come first
            message = await communicator.receive_output(timeout=5)
            assert message["type"] == "websocket.close", f"{path} sent {message} to a stranger"
            assert message.get("code", 1000) >= 4000
        await communicator.disconnect()
    finally:
        # The queries ran in asgiref's one sync thread: close its connection there, or it
        # outlives the test and holds the test database open.
        await sync_to_async(connections.close_all)()


def test_the_walk_finds_the_second_persons_pages():
    """Issue 23, 2 and 7: the correction's second approval, the rule set deployment's
    approval, the meter adjustment's request and approval are walked like every page."""
    names = {pattern_id(p) for p in PROTECTED}
    assert {
        "pit:correction_decide",
        "pit:deployment_decide",
        "pit:adjustment_ask",
        "pit:adjustment_decide",
    } <= names


def test_the_walk_finds_the_pits_rating_actions():
    """Issue 28, 2: the seat map's rating actions are walked like every page (a supervisor
    writes; every other role is refused)."""
    found = {pattern_id(p): allowed_roles(p[1]) for p in PROTECTED}
    for name in (
        "pit:rating_open",
        "pit:rating_pause",
        "pit:rating_resume",
        "pit:rating_buy_in",
        "pit:rating_move",
        "pit:rating_close",
        "pit:player_link",
    ):
        assert found[name] == {Role.SUPERVISOR}, name


def test_the_walk_finds_the_comp_report_csv_and_the_time_corrections():
    """Issue 28, 4 and 7: the comp report's CSV is walked for an auditor alone (the service
    then refuses an auditor who grants or receives comps), a rating's time correction, from
    the player's ratings page or the API, for a supervisor alone."""
    found = {pattern_id(p): allowed_roles(p[1]) for p in PROTECTED}
    assert found["comps:report_csv"] == found["comps:report"] == {Role.AUDITOR}
    assert found["players:time_correct"] == {Role.SUPERVISOR}
    assert found["ratings:time"] == {Role.SUPERVISOR}
