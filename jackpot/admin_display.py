"""Admin for display screens: tokens are issued and revoked through services, so the admin
only shows them (a token's secret is never stored, there is nothing to edit by hand)."""

from django.contrib import admin

from casino.admin_audit import AuditedModelAdmin
from jackpot.models import DisplayConnection, DisplayToken


@admin.register(DisplayToken)
class DisplayTokenAdmin(AuditedModelAdmin):
    list_display = ("name", "bank", "language", "issued_at", "revoked_at", "last_seen_at")
    list_filter = ("bank", "language")
    search_fields = ("name",)
    readonly_fields = (
        "bank",
        "name",
        "token_hash",
        "issued_by",
        "issued_at",
        "revoked_by",
        "revoked_at",
        "last_seen_at",
    )

    def has_add_permission(self, request):
        # Issue through the manager page or `manage.py display_token`, which show the secret once.
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(DisplayConnection)
class DisplayConnectionAdmin(AuditedModelAdmin):
    list_display = ("token", "channel_name", "connected_at", "remote")
    readonly_fields = ("token", "channel_name", "connected_at", "remote")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
