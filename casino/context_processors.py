from casino.middleware import device_language
from casino.navigation import navigation


def floor(request):
    """What base.html needs: the right language control, and the top bar's entries."""
    return {"device_language": device_language(request), "navigation": navigation(request)}
