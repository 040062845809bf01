from django.urls import path

from tables.pit import rating_views, views

app_name = "pit"
urlpatterns = [
    path("", views.floor, name="floor"),
    path("fragments/cards/", views.cards_fragment, name="cards"),
    path("fragments/approvals/", views.approvals_fragment, name="approvals"),
    path("fragments/alerts/", views.alerts_fragment, name="alerts"),
    path("fragments/banks/", views.banks_fragment, name="banks"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/fragments/seats/", views.seats_fragment, name="seats"),
    path("tables/<int:table_id>/open/", views.table_open, name="table_open"),
    path("tables/<int:table_id>/close/", views.table_close, name="table_close"),
    path("tables/<int:table_id>/rotate/", views.dealer_rotate, name="dealer_rotate"),
    path("tables/<int:table_id>/end-assignment/", views.assignment_end, name="assignment_end"),
    path("tables/<int:table_id>/ruleset/", views.table_ruleset, name="table_ruleset"),
    # Ratings from the table's seat map (issue 28, 2)
    path("tables/<int:table_id>/ratings/open/", rating_views.rating_open, name="rating_open"),
    path("ratings/<int:rating_id>/pause/", rating_views.rating_pause, name="rating_pause"),
    path("ratings/<int:rating_id>/resume/", rating_views.rating_resume, name="rating_resume"),
    path("ratings/<int:rating_id>/buy-in/", rating_views.rating_buy_in, name="rating_buy_in"),
    path("ratings/<int:rating_id>/move/", rating_views.rating_move, name="rating_move"),
    path("ratings/<int:rating_id>/close/", rating_views.rating_close, name="rating_close"),
    path("ratings/<int:rating_id>/link/", rating_views.player_link_view, name="player_link"),
    path("hits/<int:hit_id>/verify/", views.hit_verify_view, name="hit_verify"),
    path("hits/<int:hit_id>/pay/", views.hit_pay_view, name="hit_pay"),
    path("rounds/<int:round_id>/void/", views.void_decide, name="void_decide"),
    path("parameters/<int:change_id>/", views.parameters_decide, name="parameters_decide"),
    path("corrections/<int:request_id>/", views.correction_decide, name="correction_decide"),
    path("deployments/<int:deployment_id>/", views.deployment_decide, name="deployment_decide"),
    path("banks/<int:bank_id>/adjust/", views.adjustment_ask, name="adjustment_ask"),
    path("adjustments/<int:adjustment_id>/", views.adjustment_decide, name="adjustment_decide"),
    path("alerts/<int:alert_id>/acknowledge/", views.alert_acknowledge, name="alert_acknowledge"),
]
