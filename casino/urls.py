from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("casino.urls_casino")),
    path("", include("tables.urls")),
    path("", include("tables.ratings.urls")),
    path("", include("jackpot.urls")),
    path("pit/", include("tables.pit.urls")),
    path("reports/", include("tables.accounting.urls")),
    path("players/", include("tables.ratings.urls_players")),
    path("comps/", include("tables.ratings.urls_comps")),
    path("compliance/", include("tables.ratings.urls_compliance")),
]
