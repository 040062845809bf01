from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from casino.access import public

login_view = public(auth_views.LoginView.as_view(template_name="casino/login.html"))


@public
@require_POST
def logout_view(request):
    logout(request)
    return redirect("casino:login")
