from casino.middleware import device_language


def floor(request):
    """What base.html needs to offer the right language control."""
    return {"device_language": device_language(request)}
