from django.urls import include, path

from tables import views

app_name = "tables"
urlpatterns = [
    path("", views.table_list, name="table_list"),
    path("", include("tables.api.urls")),
    path("tables/devices/", include("tables.devices.urls")),
    path("", include("tables.tablet.urls")),
]
