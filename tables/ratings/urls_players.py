from django.urls import path

from tables.ratings import pages, pages_reports, pages_time

app_name = "players"
urlpatterns = [
    path("", pages.player_list, name="list"),
    path("new/", pages.player_add, name="add"),
    path("<int:player_id>/", pages.player_detail, name="detail"),
    path("<int:player_id>/link/", pages.player_link, name="link"),
    path("<int:player_id>/identity/", pages.identity_page, name="identity"),
    path("<int:player_id>/identity/record/", pages.identity_record, name="identity_record"),
    path("<int:player_id>/status/", pages.status_set, name="status"),
    path("<int:player_id>/export/", pages.data_export, name="export"),
    path("<int:player_id>/erase/", pages.player_erase, name="erase"),
]

# The reports (issue 28, item 9) and a gaming day's ratings as CSV (item 8).
urlpatterns += [
    path("top/", pages_reports.top_players, name="top"),
    path("accuracy/", pages_reports.accuracy, name="accuracy"),
    path("ratings.csv", pages_reports.day_csv, name="day_csv"),
    path("<int:player_id>/ratings/", pages_reports.player_ratings, name="ratings"),
    path(
        "<int:player_id>/ratings/<int:rating_id>/average/",
        pages_reports.average_enter,
        name="average_enter",
    ),
    path(
        "<int:player_id>/ratings/<int:rating_id>/time/",
        pages_time.time_correct,
        name="time_correct",
    ),
]
