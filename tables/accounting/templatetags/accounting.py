"""`{% load accounting %}`: `{{ mapping|get_item:key }}` for the reports' tables by bet."""

from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if hasattr(mapping, "get") else None
