"""Signals: role permissions after migrate, is_staff after a role change, logins audited."""

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db.models.signals import m2m_changed, post_migrate

from casino.audit import atomic_audit


def _sync_permissions(sender, using="default", **kwargs):
    from django.apps import apps

    from casino.permissions import sync_role_permissions

    # post_migrate is sent once per app; every app's permissions exist after the last one.
    last = [c for c in apps.get_app_configs() if c.models_module is not None][-1]
    if sender.label == last.label:
        sync_role_permissions()


def _roles_changed(sender, instance, action, reverse, pk_set, **kwargs):
    if action not in {"post_add", "post_remove", "post_clear"}:
        return
    from casino.permissions import sync_is_staff

    Staff = get_user_model()
    if reverse:  # group.user_set changed
        staff = Staff.objects.filter(pk__in=pk_set or [])
        if action == "post_clear":
            staff = Staff.objects.all()
    else:
        staff = Staff.objects.filter(pk=instance.pk)
    sync_is_staff(staff)
    if not reverse:
        instance.is_staff = Staff.objects.filter(pk=instance.pk).values_list("is_staff", flat=True)[
            0
        ]
        instance.__dict__.pop("_role_names", None)


def _logged_in(sender, request, user, **kwargs):
    method = getattr(request, "tapis_login_method", "password") if request else "password"
    atomic_audit(actor=user, code="casino.login", subject=user, data={"method": method})


def _logged_out(sender, request, user, **kwargs):
    if user is not None:
        atomic_audit(actor=user, code="casino.logout", subject=user, data={})


def _login_failed(sender, credentials, request=None, **kwargs):
    # Django has already masked anything that looks like a secret in `credentials`.
    atomic_audit(
        actor=None,
        code="casino.login.failed",
        data={"username": str(credentials.get("username", ""))[:150]},
    )


def connect() -> None:
    post_migrate.connect(_sync_permissions, dispatch_uid="casino.sync_role_permissions")
    m2m_changed.connect(
        _roles_changed,
        sender=get_user_model().groups.through,
        dispatch_uid="casino.roles_changed",
    )
    user_logged_in.connect(_logged_in, dispatch_uid="casino.audit_login")
    user_logged_out.connect(_logged_out, dispatch_uid="casino.audit_logout")
    user_login_failed.connect(_login_failed, dispatch_uid="casino.audit_login_failed")
