"""Every path answers with and without its trailing slash, without a redirect (a redirected
POST loses its body). Ids are ASCII digits: `\\d` would also match other scripts' digits."""

from django.urls import re_path

from tables.api import views

app_name = "api"


def both(pattern: str, view, name: str):
    return re_path(rf"^api/{pattern}/?$", view, name=name)


urlpatterns = [
    both("login", views.login_view, "login"),
    both("logout", views.logout_view, "logout"),
    both(r"openapi\.json", views.openapi_view, "openapi"),
    both("tables", views.tables_view, "tables"),
    both(r"tables/(?P<table_id>[0-9]+)", views.table_view, "table"),
    both(r"tables/(?P<table_id>[0-9]+)/rounds", views.round_open_view, "round_open"),
    both(r"tables/(?P<table_id>[0-9]+)/recall", views.recall_view, "recall"),
    both(r"rounds/(?P<round_id>[0-9]+)", views.round_view, "round"),
    both(r"rounds/(?P<round_id>[0-9]+)/events", views.round_events_view, "events"),
    both(r"rounds/(?P<round_id>[0-9]+)/settlement", views.settlement_view, "settlement"),
    both(r"rounds/(?P<round_id>[0-9]+)/corrections", views.corrections_view, "corrections"),
    both(
        r"rounds/(?P<round_id>[0-9]+)/corrections/preview",
        views.correction_preview_view,
        "correction_preview",
    ),
    both(r"rounds/(?P<round_id>[0-9]+)/export", views.export_view, "export"),
]
