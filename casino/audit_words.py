"""The audit log's codes in the reader's words: what an auditor reads for each entry, in
French or English, the code kept beside it (a code is stable; its words may improve).

An entry stores its code and its data, never a sentence: the words are chosen when the log
is read, so the same entry reads in French for one auditor and in English for another."""

from django.apps import apps
from django.utils.translation import gettext_lazy as _

CODES = {
    # sign-in, PINs, secrets
    "casino.login": _("Signed in"),
    "casino.logout": _("Signed out"),
    "casino.login.failed": _("Sign-in refused: wrong password"),
    "casino.login.refused_locked": _("Sign-in refused: account locked"),
    "casino.session.ended": _("Signed out"),
    "casino.signin.throttled": _("Sign-in attempts slowed down"),
    "casino.secret.current_refused": _("Own PIN or password change refused: wrong current one"),
    "casino.password.changed": _("Password changed"),
    "casino.password.temporary_set": _("Temporary password set"),
    "casino.secret.set": _("Password and PIN set"),
    "casino.pin.set": _("PIN changed"),
    "casino.pin.temporary_set": _("Temporary PIN set"),
    "casino.pin.temporary_refused": _("Temporary PIN refused"),
    "casino.pin.rejected": _("Wrong PIN"),
    "casino.pin.locked": _("PIN locked after too many wrong tries"),
    "casino.pin.refused_locked": _("PIN refused: locked"),
    "casino.pin.unlocked": _("PIN unlocked"),
    "casino.pin.approved": _("Approval by PIN"),
    "casino.pin.approval_refused": _("Approval by PIN refused"),
    "casino.pin.role_refused": _("PIN refused: the role is not held"),
    "casino.duties.refused": _("Refused: one person may not hold both duties"),
    # staff and roles
    "casino.staff.created": _("Staff member created"),
    "casino.staff.deactivate": _("Staff member deactivation asked"),
    "casino.staff.deactivated": _("Staff member deactivated"),
    "casino.staff.reactivated": _("Staff member reactivated"),
    "casino.role.request": _("Role asked for"),
    "casino.role.grant_requested": _("Role grant asked for"),
    "casino.role.grant": _("Role grant approved"),
    "casino.role.granted": _("Role granted"),
    "casino.role.grant_rejected": _("Role grant rejected"),
    "casino.role.revoked": _("Role withdrawn"),
    # tables and rounds
    "tables.table.created": _("Table created"),
    "tables.table.configured": _("Table configured"),
    "tables.table.opened": _("Table opened"),
    "tables.table.closed": _("Table closed"),
    "tables.ruleset.created": _("Rule set created"),
    "tables.ruleset.versioned": _("Rule set: new version"),
    "tables.ruleset.revised": _("Rule set revised"),
    "tables.ruleset.used": _("Rule set put in use"),
    "tables.ruleset.deployment_requested": _("Rule set deployment asked for"),
    "tables.parsheet.requested": _("Par sheet asked for"),
    "tables.parsheet.computed": _("Par sheet computed"),
    "tables.parsheet.failed": _("Par sheet computation failed"),
    "tables.ruleset.deployment_approved": _("Rule set deployment approved"),
    "tables.ruleset.deployment_rejected": _("Rule set deployment rejected"),
    "tables.paytable.created": _("Paytable created"),
    "tables.paytable.versioned": _("Paytable: new version"),
    "tables.paytable.revised": _("Paytable revised"),
    "tables.paytable.warnings_confirmed": _("Paytable warnings confirmed"),
    "tables.assignment.created": _("Dealer assigned"),
    "tables.assignment.ended": _("Dealer left the table"),
    "tables.dealer.rotated": _("Dealer rotation"),
    "tables.device.bound": _("Tablet bound to a table"),
    "tables.device.revoked": _("Tablet binding revoked"),
    "tables.round.opened": _("Round opened"),
    "tables.round.bets_locked": _("No more bets"),
    "tables.round.settled": _("Round settled"),
    "tables.round.void_declared": _("Irregularity declared"),
    "tables.round.void_approved": _("Void approved"),
    "tables.round.void_refused": _("Void refused"),
    "tables.round.void": _("Round void"),
    "tables.round.correct": _("Correction asked for"),
    "tables.round.corrected": _("Round corrected"),
    "tables.round.correction_requested": _("Correction waiting for a second person"),
    "tables.round.correction_rejected": _("Correction rejected"),
    # the progressive
    "jackpot.bank.created": _("Progressive bank created"),
    "jackpot.bank.seeded": _("Progressive meter seeded"),
    "jackpot.bank.opened": _("Progressive bank opened"),
    "jackpot.bank.closed": _("Progressive bank closed"),
    "jackpot.contribution.recorded": _("Progressive contribution posted"),
    "jackpot.contribution.reversed": _("Progressive contribution reversed"),
    "jackpot.hit.recorded": _("Progressive hit recorded"),
    "jackpot.hit.verified": _("Progressive hit verified"),
    "jackpot.hit.verify": _("Progressive hit verification"),
    "jackpot.hit.paid": _("Progressive hit paid"),
    "jackpot.meter.adjust": _("Meter adjustment asked for"),
    "jackpot.meter.adjusted": _("Meter adjusted"),
    "jackpot.adjustment.requested": _("Meter adjustment waiting for a second manager"),
    "jackpot.adjustment.rejected": _("Meter adjustment rejected"),
    "jackpot.parameters.requested": _("Bank parameter change asked for"),
    "jackpot.parameters.approve": _("Bank parameter change approval"),
    "jackpot.parameters.approved": _("Bank parameter change approved"),
    "jackpot.parameters.rejected": _("Bank parameter change rejected"),
    "jackpot.parameters.applied": _("Bank parameter change applied"),
    "jackpot.reconciliation.alert": _("Meter does not reconcile"),
    "jackpot.reconciliation.resolved": _("Reconciliation difference resolved"),
    "jackpot.display.link_lost": _("Jackpot display offline"),
    "jackpot.display_token.issued": _("Jackpot display token issued"),
    "jackpot.display_token.revoked": _("Jackpot display token revoked"),
    # the pit
    "pit.alert.raised": _("Alert raised"),
    "pit.alert.acknowledged": _("Alert acknowledged"),
    # the player file (issue 28)
    "player.created": _("Player added"),
    "player.linked": _("Anonymous player linked to a card"),
    "player.identity.recorded": _("Player identity recorded"),
    "player.identity.viewed": _("Player identity read"),
    "player.identity.removed": _("Player identity removed at the end of its retention"),
    "player.status.changed": _("Player status changed"),
    "player.data.exported": _("Player data given (access request)"),
    "player.erased": _("Player erased (pseudonymised)"),
    # table accounting
    "accounting.inventory.opener": _("Tray count: opener"),
    "accounting.inventory.closer": _("Tray count: closer"),
    "accounting.fill.requested": _("Fill asked for"),
    "accounting.fill.approved": _("Fill approved"),
    "accounting.fill.voided": _("Fill voided"),
    "accounting.credit.requested": _("Credit asked for"),
    "accounting.credit.approved": _("Credit approved"),
    "accounting.credit.voided": _("Credit voided"),
    "accounting.drop.entered": _("Drop entered"),
    "accounting.drop.imported": _("Drop imported"),
    # player ratings
    "ratings.rating.opened": _("Rating opened"),
    "ratings.rating.paused": _("Rating paused"),
    "ratings.rating.resumed": _("Rating resumed"),
    "ratings.rating.buy_in": _("Buy-in recorded"),
    "ratings.rating.moved": _("Rating moved"),
    "ratings.rating.closed": _("Rating closed"),
    "ratings.rating.table_closed": _("Rating closed with its table"),
    "ratings.feed_token.issued": _("Ratings feed token issued"),
    "ratings.feed_token.revoked": _("Ratings feed token revoked"),
    "ratings.comp.issued": _("Comp issued"),
    "ratings.comp.approved": _("Comp approved"),
    "ratings.comp.declined": _("Comp declined"),
    "ratings.comp_report.prepared": _("Monthly comp report prepared"),
    "ratings.comp_report.exported": _("Monthly comp report exported (CSV)"),
    "ratings.aml_log.viewed": _("Anti-money-laundering log read"),
    "ratings.rating.time_corrected": _("Rating time corrected"),
    "ratings.rating.average_entered": _("Average Ante entered by a supervisor"),
    "ratings.day.exported": _("A gaming day's ratings exported (CSV)"),
}

ADMIN_VERBS = {
    "add": _("Back office: %(model)s added"),
    "change": _("Back office: %(model)s changed"),
    "delete": _("Back office: %(model)s deleted"),
}


def code_words(code: str) -> str:
    """What `code` means, in the active language; the code itself when it is unknown (an
    entry written by a newer version keeps its meaning readable as a code)."""
    if code in CODES:
        return str(CODES[code])
    parts = code.split(".")
    if len(parts) == 4 and parts[0] == "admin" and parts[3] in ADMIN_VERBS:
        try:
            model = apps.get_model(parts[1], parts[2])
        except LookupError:
            return code
        return str(ADMIN_VERBS[parts[3]]) % {"model": model._meta.verbose_name}
    return code
