from django.urls import path

from tables.ratings import pages_comps

app_name = "compliance"
urlpatterns = [
    path("aml/", pages_comps.aml_day, name="aml"),
]
