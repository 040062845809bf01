"""The ratings API's paths, with and without the trailing slash (as the round API's)."""

from django.urls import re_path

from tables.ratings import views

app_name = "ratings"


def both(pattern: str, view, name: str):
    return re_path(rf"^api/{pattern}/?$", view, name=name)


RATING = r"ratings/(?P<rating_id>[0-9]+)"

urlpatterns = [
    both("ratings", views.ratings_view, "ratings"),
    both(r"ratings/feed", views.feed_view, "feed"),
    both(r"ratings/feed-tokens", views.feed_tokens_view, "feed_tokens"),
    both(
        r"ratings/feed-tokens/(?P<token_id>[0-9]+)/revoke",
        views.feed_token_revoke_view,
        "feed_token_revoke",
    ),
    both(RATING, views.rating_view, "rating"),
    both(rf"{RATING}/pause", views.rating_pause_view, "pause"),
    both(rf"{RATING}/resume", views.rating_resume_view, "resume"),
    both(rf"{RATING}/buy-ins", views.rating_buy_in_view, "buy_ins"),
    both(rf"{RATING}/move", views.rating_move_view, "move"),
    both(rf"{RATING}/close", views.rating_close_view, "close"),
    both(rf"{RATING}/time", views.rating_time_view, "time"),
]
