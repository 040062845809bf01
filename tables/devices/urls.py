from django.urls import path

from tables.devices import views

app_name = "devices"
urlpatterns = [
    path("", views.device_list, name="list"),
    path("bind/", views.device_bind_view, name="bind"),
    path("<int:binding_id>/revoke/", views.device_revoke_view, name="revoke"),
]
