from django.urls import path

from jackpot import views

app_name = "jackpot"
urlpatterns = [
    path("display/<slug:bank>/", views.display_page, name="display"),
    path("api/jackpot/<slug:bank>/", views.feed_http, name="feed"),
    path("jackpot/displays/", views.displays, name="displays"),
    path("jackpot/displays/issue/", views.display_issue, name="display_issue"),
    path("jackpot/displays/<int:pk>/revoke/", views.display_revoke, name="display_revoke"),
]
