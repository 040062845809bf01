from django.urls import path

from casino import health, views

app_name = "casino"
urlpatterns = [
    path("login/", views.login_view, name="login"),
    path("login/pin/", views.pin_login_view, name="pin_login"),
    path("logout/", views.logout_view, name="logout"),
    path("language/device/", views.device_language_view, name="device_language"),
    path("language/mine/", views.my_language_view, name="my_language"),
    path("staff/locked-pins/", views.locked_pins_view, name="locked_pins"),
    path("account/secrets/", views.change_secrets_view, name="change_secrets"),
    path("healthz", health.healthz_view, name="healthz"),
    path("readyz", health.readyz_view, name="readyz"),
]
