"""The property's compliance settings, made on first use with its country's defaults."""

from django.db import IntegrityError, transaction

from tables.ratings.models import ComplianceSettings

# Amounts in the country's currency, cents. France: CMF L.561-13 (exchanges of chips or
# winnings above 2,000 EUR per session: identity recorded). United States: the multiple-
# transaction log above 3,000 USD and the currency transaction report above 10,000 USD, cash
# aggregated per patron per gaming day (31 CFR 1021.311, 1021.313).
COUNTRY_DEFAULTS = {
    ComplianceSettings.FRANCE: {
        "identity_threshold_cents": 200_000,
        "transaction_log_threshold_cents": None,
        "transaction_report_threshold_cents": None,
        "marketing_retention_years": 3,  # CNIL: customer files, 3 years after the last contact
        "aml_retention_years": 5,  # CMF L.561-12
    },
    ComplianceSettings.UNITED_STATES: {
        "identity_threshold_cents": None,
        "transaction_log_threshold_cents": 300_000,
        "transaction_report_threshold_cents": 1_000_000,
        "marketing_retention_years": 3,
        "aml_retention_years": 5,  # 31 CFR 1010.430
    },
}


def country_of(prop) -> str:
    """The country whose defaults a property starts from: a dollar casino is American, any
    other follows the French (and EU) rule."""
    return ComplianceSettings.UNITED_STATES if prop.currency == "USD" else ComplianceSettings.FRANCE


def country_defaults(country: str) -> dict:
    return {"country": country, **COUNTRY_DEFAULTS[country]}


def settings_for(prop) -> ComplianceSettings:
    found = ComplianceSettings.objects.filter(property=prop).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return ComplianceSettings.objects.create(
                property=prop, **country_defaults(country_of(prop))
            )
    except IntegrityError:  # made at the same moment by another request
        return ComplianceSettings.objects.get(property=prop)


def player_aml_checks(player, cash_ins, winnings=()) -> list:
    """The player's thresholds per gaming day from plain (amount_cents, at) pairs (the
    ratings' buy-ins), under the property's settings, identity on file or not."""
    from tables.ratings.aml import Thresholds, thresholds_crossed
    from tables.ratings.models import PlayerIdentity

    on_file = PlayerIdentity.objects.filter(player=player, checked_at__isnull=False).exists()
    return thresholds_crossed(
        cash_ins,
        winnings=winnings,
        prop=player.property,
        thresholds=Thresholds.of(settings_for(player.property)),
        identity_on_file=on_file,
    )
