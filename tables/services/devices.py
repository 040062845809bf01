"""Tablets bound to a table: a supervisor binds a tablet, on the tablet itself, and may revoke
the binding from anywhere.

A binding's credential is a random token, given once to the tablet's browser (as a cookie,
see tables.devices.cookie); only its SHA-256 is stored, so the database never holds a
credential that works. A revoked binding is worthless at once: `device_binding_for` reads the
database on every request.
"""

import datetime as dt
import hashlib
import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.ids import db_id
from casino.models import Staff
from casino.roles import Role
from casino.transitions import TransitionRefused, move
from tables.errors import ConfigurationRefused, IllegalTransition, NotFound
from tables.models import DeviceBinding, Table
from tables.services._base import require_role

BINDING_ROLES = (Role.SUPERVISOR, Role.MANAGER)
NAME_MAX_LENGTH = DeviceBinding._meta.get_field("name").max_length
# A tablet sends its credential with every request; the list's "last seen" needs no more.
SEEN_EVERY = dt.timedelta(seconds=60)


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def _table(table_id) -> Table:
    key = db_id(table_id)
    table = Table.objects.filter(pk=key).first() if key is not None else None
    if table is None:
        raise NotFound(_("There is no table #%(id)s.") % {"id": table_id})
    return table


def _revoke(binding: DeviceBinding, *, supervisor: Staff, reason: str) -> None:
    try:
        changed = move(
            binding, DeviceBinding.State.REVOKED, revoked_at=timezone.now(), revoked_by=supervisor
        )
    except TransitionRefused:
        raise IllegalTransition(
            _("The tablet “%(name)s” was already revoked.") % {"name": binding.name}
        ) from None
    binding.save(update_fields=changed)
    audit(
        actor=supervisor,
        code="tables.device.revoked",
        subject=binding,
        data={"table": binding.table_id, "name": binding.name, "reason": reason},
    )


def device_bind(
    *, table_id: int, supervisor: Staff, name: str, replaces: str | None = None
) -> tuple[DeviceBinding, str]:
    """Bind a tablet to a table; returns (binding, the credential to give that tablet once).

    `replaces` is the credential the tablet already carries, if any: a tablet is bound to one
    table at a time, so its previous binding, still active, is revoked in the same
    transaction (and audited as such)."""
    require_role(supervisor, *BINDING_ROLES)
    name = (name or "").strip()
    if not name:
        message = _("Give the tablet a name (e.g. the table's name and a number).")
        raise ConfigurationRefused(message, errors={"name": [message]})
    if len(name) > NAME_MAX_LENGTH:
        message = _("A tablet's name has at most %(n)s characters.") % {"n": NAME_MAX_LENGTH}
        raise ConfigurationRefused(message, errors={"name": [message]})
    table = _table(table_id)
    raw = secrets.token_urlsafe(32)
    try:
        with transaction.atomic():
            previous = (
                DeviceBinding.objects.select_for_update(no_key=True)
                .filter(token_hash=token_hash(replaces), revoked_at__isnull=True)
                .first()
                if replaces
                else None
            )
            if previous is not None:
                _revoke(previous, supervisor=supervisor, reason="rebound")
            binding = DeviceBinding.objects.create(
                table=table,
                name=name,
                token_hash=token_hash(raw),
                bound_by=supervisor,
                bound_at=timezone.now(),
            )
            audit(
                actor=supervisor,
                code="tables.device.bound",
                subject=binding,
                data={
                    "table": table.pk,
                    "name": name,
                    "replaces": previous.pk if previous is not None else None,
                },
            )
    except IntegrityError as exc:
        message = _(
            "A tablet named “%(name)s” is already bound: choose another name or revoke it first."
        ) % {"name": name}
        raise ConfigurationRefused(message, errors={"name": [message]}) from exc
    return binding, raw


def device_revoke(*, binding_id: int, supervisor: Staff) -> DeviceBinding:
    """The tablet no longer opens its table; its credential is worthless from now on."""
    require_role(supervisor, *BINDING_ROLES)
    with transaction.atomic():
        key = db_id(binding_id)
        binding = (
            DeviceBinding.objects.select_for_update(of=("self",), no_key=True)
            .select_related("table")
            .filter(pk=key)
            .first()
            if key is not None
            else None
        )
        if binding is None:
            raise NotFound(_("There is no tablet binding #%(id)s.") % {"id": binding_id})
        _revoke(binding, supervisor=supervisor, reason="revoked")
    return binding


def device_binding_for(raw_token: str | None) -> DeviceBinding | None:
    """The active binding whose credential this is, or None (none given, unknown, revoked).

    Records when the tablet was last seen, at most once a minute."""
    if not raw_token:
        return None
    binding = (
        DeviceBinding.objects.select_related("table")
        .filter(token_hash=token_hash(raw_token), revoked_at__isnull=True)
        .first()
    )
    if binding is None:
        return None
    now = timezone.now()
    if binding.last_seen_at is None or binding.last_seen_at <= now - SEEN_EVERY:
        DeviceBinding.objects.filter(pk=binding.pk).update(last_seen_at=now)
        binding.last_seen_at = now
    return binding
