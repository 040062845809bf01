from django.urls import path

from tables.tablet import views

app_name = "tablet"
urlpatterns = [
    path("tablet/", views.tablet_home, name="home"),
    path("tablet/<int:table_id>/", views.tablet_table, name="table"),
]
