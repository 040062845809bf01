from django.urls import path

from tables.accounting import views

app_name = "accounting"
urlpatterns = [
    path("", views.report_page, name="report"),
    path("chips/", views.chips_page, name="chips"),
    path("chips/inventory/", views.inventory_record, name="inventory_record"),
    path("chips/slips/", views.slip_request, name="slip_request"),
    path("chips/slips/<int:slip_id>/approve/", views.slip_approve, name="slip_approve"),
    path("chips/slips/<int:slip_id>/void/", views.slip_void, name="slip_void"),
    path("chips/drop/", views.drop_record, name="drop_record"),
    path("chips/drop/import/", views.drop_import, name="drop_import"),
]
