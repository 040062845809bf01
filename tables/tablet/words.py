"""Every word the tablet's script shows, in the page's language. The script holds no text of
its own: the page hands it these, so the French page has no English left in it."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

WORDS = {
    # stages
    "stage.none": _("No round"),
    "stage.betting": pgettext_lazy("tablet stage", "Betting"),
    "stage.preflop": pgettext_lazy("tablet stage", "Pre-flop"),
    "stage.flop": pgettext_lazy("tablet stage", "Flop"),
    "stage.river": pgettext_lazy("tablet stage", "Turn and river"),
    "stage.showdown": pgettext_lazy("tablet stage", "Showdown"),
    "stage.settled": pgettext_lazy("tablet stage", "Settled"),
    "stage.void": pgettext_lazy("tablet stage", "Void round"),
    # the next step
    "next.open": _("Open a new round."),
    "next.closed": _("The table is closed."),
    "next.wagers": _("Record each seat's wagers, then no more bets."),
    "next.decide": _("Seat %(seat)s decides."),
    "next.cards": _("Next card: %(place)s."),
    "next.settle": _("Check the payouts, then confirm the settlement."),
    "next.settled": _("Pay and collect, then open the next round."),
    "next.void": _("The round is void: every wager is returned."),
    "next.pending_void": _("A supervisor approves or refuses the void."),
    "next.watch": _("You are watching this table."),
    # places
    "place.board": _("the board"),
    "place.dealer": _("the dealer"),
    "place.seat": _("seat %(seat)s"),
    "seat": _("Seat %(seat)s"),
    "board": _("Board"),
    "dealer": pgettext_lazy("the house's hand", "Dealer"),
    "empty_seat": _("No wager"),
    # wagers
    "ante": _("Ante"),
    "blind": _("Blind"),
    "play": _("Play"),
    "trips": _("Trips"),
    "progressive": _("Progressive"),
    "envy": _("Envy"),
    "cap": _("Above the maximum payout"),
    "ante_blind": _("Ante = Blind"),
    "record": _("Record"),
    "record_seat": _("Record the wagers of seat %(seat)s"),
    "clear": _("Clear"),
    "bank_closed": _("The progressive is closed: no progressive wager now."),
    "limits.ante": _("Ante between %(min)s and %(max)s."),
    "limits.trips": _("Trips between %(min)s and %(max)s, or none."),
    "not_amount": _("Enter an amount such as 25 or 12.50."),
    "no_more_bets": _("No more bets"),
    "recorded": _("Recorded"),
    "already_recorded": _("The wagers of seat %(seat)s are recorded as they stand."),
    # decisions
    "check": _("Check"),
    "fold": _("Fold"),
    "bet": _("Bet %(multiple)sx"),
    "action_of": _("Seat %(seat)s: %(action)s"),
    "folded": _("Folded"),
    "checked": _("Checked"),
    "play_bet": _("Play %(multiple)sx"),
    "to_act": _("To act"),
    # cards
    "cards": _("Cards"),
    "card_grid": _("Cards to enter"),
    "card_taken": _("%(card)s is already on the table."),
    "keyboard": _("Type a card and press Enter"),
    "not_a_card": _("%(text)s is not a card."),
    "no_card_expected": _("No card is expected now."),
    "put_cards": _("Cards go to %(place)s"),
    "undo": _("Undo the last entry"),
    "undo_card": _("Undo: remove %(card)s from %(place)s"),
    "undo_wagers": _("Undo: withdraw the wagers of seat %(seat)s"),
    "nothing_to_undo": _("Nothing to undo."),
    # settlement
    "settlement": _("Settlement"),
    "provisional": _("Provisional: the percentage tiers are fixed at confirmation."),
    "confirm": _("Confirm the settlement"),
    "dealer_pays": _("The dealer pays"),
    "dealer_collects": _("The dealer collects"),
    "meter_pays": _("The progressive pays"),
    "hit": _("Progressive hit: seat %(seat)s, %(amount)s"),
    "hit_pending": _("pending supervisor verification"),
    "hit_state.pending": _("pending supervisor verification"),
    "hit_state.verified": _("verified"),
    "hit_state.paid": _("paid"),
    "net": _("Net"),
    "outcome.win": _("wins"),
    "outcome.lose": _("loses"),
    "outcome.tie": _("push"),
    "outcome.fold": _("folded"),
    "dealer_qualifies": _("The dealer qualifies."),
    "dealer_not_qualified": _("The dealer does not qualify."),
    "new_round": _("New round"),
    "cat.royal_flush": _("royal flush"),
    "cat.straight_flush": _("straight flush"),
    "cat.four_of_a_kind": _("four of a kind"),
    "cat.full_house": _("full house"),
    "cat.flush": _("flush"),
    "cat.straight": _("straight"),
    "cat.three_of_a_kind": _("three of a kind"),
    "cat.two_pair": _("two pair"),
    "cat.pair": _("pair"),
    "cat.high_card": _("high card"),
    "envy_line": _("Envy: seat %(seat)s, %(amount)s"),
    # irregularities and voids
    "irregularity": _("Irregularity"),
    "declare": _("Declare an irregularity"),
    "cancel": _("Cancel"),
    "irr.preflop_card_exposed": _("Card exposed before the flop"),
    "irr.community_card_exposed": _("Community card exposed"),
    "irr.wrong_card_count": _("Wrong card count (misdeal)"),
    "irr.duplicate_card": _("Card seen twice"),
    "irr.card_drawn_in_error_unexposed": _("Card drawn in error, not exposed"),
    "void_pending": _("Void requested: %(reason)s"),
    "supervisor": _("Supervisor approval"),
    "employee_number": _("Supervisor's employee number"),
    "pin": _("Supervisor's PIN"),
    "approve_void": _("Approve the void"),
    "refuse_void": _("Refuse the void"),
    "void_reason": _("Void: %(reason)s"),
    # corrections after settlement
    "correct": _("Correction"),
    "correction": _("Correct the settled round"),
    "correction_help": _(
        "Tap a place to enter its cards again, or a seat's decision; then the reason and the "
        "supervisor's employee number and PIN."
    ),
    "correction_cards": _("Cards of %(place)s: tap %(count)s more."),
    "correction_unchanged": _("Nothing changed yet."),
    "correction_changes": _("Changed: %(places)s"),
    "correction_preview_wait": _(
        "The new payouts are shown here once the corrected cards are complete."
    ),
    "correction_computing": _("The engine is settling the corrected facts…"),
    "correction_preview": _("This correction changes, as the engine settles it:"),
    "correction_preview_needed": _(
        "The new payouts are not on the screen yet: the PIN comes after them."
    ),
    "decision_of": _("Decision of seat %(seat)s"),
    "reason": _("Reason for the correction"),
    "send_correction": _("Send the correction"),
    # issue 23, 2: by default a correction waits for a second person at the pit (HTTP 202)
    "correction_waiting": _(
        "The correction is asked for: a second supervisor or a manager approves it at the "
        "pit. Nothing is paid until then."
    ),
    "corrections": _("Corrections"),
    "correction_line": _(
        "Correction %(number)s at %(time)s, approved by %(supervisor)s: %(reason)s"
    ),
    "correction_total": _("The correction: the dealer pays %(pays)s, collects %(collects)s"),
    "corrected": _("corrected"),
    "line": _("Seat %(seat)s · %(bet)s: %(net)s"),
    # the link
    "online": _("Connected"),
    "offline": _("Connection lost: taps are held until it returns"),
    "sending": _("Sending…"),
    "held_step": _("Held: %(step)s"),
    "not_sent": _("Not sent, tap again if still right: %(steps)s"),
    "stale": _("The round changed on another tablet: the screen shows it now."),
    "refused_stale": _("Not applied: the round changed meanwhile. Check and tap again."),
    "server_error": _("The server failed to answer (%(status)s). Try again."),
    # the header
    "round": _("Round %(number)s"),
    "opened_at": _("opened at %(time)s"),
    "meter": _("Progressive meter"),
    "meter_at": _("meter read at %(time)s"),
    "meter_closed": _("closed: no progressive wager now"),
    "meter_hit": _("Last hit: %(table)s, seat %(seat)s, %(amount)s"),
    "limits": _("Limits: %(min)s – %(max)s"),
    "watching": _("Watching: only the table's dealer enters the round."),
}


def tablet_words() -> dict[str, str]:
    return {key: str(value) for key, value in WORDS.items()}
