app_name = "jackpot"
urlpatterns: list = []
