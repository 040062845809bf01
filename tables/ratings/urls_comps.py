from django.urls import path

from tables.ratings import pages_comps

app_name = "comps"
urlpatterns = [
    path("", pages_comps.comps_home, name="home"),
    path("rating/<int:rating_id>/", pages_comps.rating_comps, name="rating"),
    path("rating/<int:rating_id>/issue/", pages_comps.comp_issue, name="issue"),
    path("<int:comp_id>/approve/", pages_comps.comp_approve, name="approve"),
    path("<int:comp_id>/decline/", pages_comps.comp_decline, name="decline"),
    path("report/", pages_comps.comp_report, name="report"),
    path("report.csv", pages_comps.comp_report_csv, name="report_csv"),
]
