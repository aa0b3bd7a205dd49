"""Belote hand records (JSON): parsing, checked replay with a report, and export of a hand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .rules import (
    BeloteError,
    Bid,
    Card,
    ClassicBidding,
    Contract,
    ContreeBidding,
    PlayState,
    Rules,
    cards_of,
)


class RecordError(ValueError):
    """A hand record that is malformed or contains an illegal bid or play."""


@dataclass(frozen=True)
class HandRecord:
    """A parsed, structurally valid hand record (plays are not checked yet)."""

    rules: Rules
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    contract: Contract | None
    plays: tuple[Card, ...]
    bids: tuple[Bid, ...] | None = None
    turned: Card | None = None
    carried: int = 0


def _card(code: Any, where: str) -> Card:
    try:
        return Card.from_str(code)
    except BeloteError as error:
        raise RecordError(f"{where}: {error}") from None


def _seat(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in range(4):
        raise RecordError(f"{where} must be a seat 0..3, not {value!r}")
    return value


def parse_record(record: Any) -> HandRecord:
    """Check the structure of a record and convert it to typed values.

    Raises:
        RecordError: not an object, bad rules, dealer, card codes, not four hands of 8 cards,
            duplicate or missing cards, bad bids or contract, or a bidding that disagrees
            with the given contract.
    """
    if not isinstance(record, dict):
        raise RecordError("a hand record must be a JSON object")
    try:
        rules = Rules.from_dict(record.get("rules", {}))
    except (BeloteError, TypeError) as error:
        raise RecordError(f"rules: {error}") from None
    dealer = _seat(record.get("dealer"), "dealer")
    hands = _parse_hands(record.get("hands"))
    turned = None
    if "turned" in record:
        turned = _card(record["turned"], "turned")
    bids, contract = _parse_bids_and_contract(record, rules, dealer, hands, turned)
    plays = _parse_plays(record.get("plays", []), contract)
    carried = record.get("carried", 0)
    if not isinstance(carried, int) or carried < 0:
        raise RecordError(f"carried must be a non-negative integer, not {carried!r}")
    return HandRecord(rules, dealer, hands, contract, plays, bids, turned, carried)


def _parse_hands(hands_data: Any) -> tuple[tuple[Card, ...], ...]:
    """The four hands of 8 cards, no card dealt twice."""
    if not isinstance(hands_data, list) or len(hands_data) != 4:
        count = len(hands_data) if isinstance(hands_data, list) else "no"
        raise RecordError(f"hands must list the 4 seats' hands, got {count}")
    hands: list[tuple[Card, ...]] = []
    seen: dict[Card, int] = {}
    for seat, hand_data in enumerate(hands_data):
        if not isinstance(hand_data, list):
            raise RecordError(f"hands[{seat}] must be a list of card codes")
        hand = tuple(_card(code, f"hands[{seat}]") for code in hand_data)
        if len(hand) != 8:
            raise RecordError(f"hands[{seat}] must hold 8 cards, got {len(hand)}")
        for card in hand:
            if card in seen:
                raise RecordError(f"card {card} is dealt twice (seats {seen[card]} and {seat})")
            seen[card] = seat
        hands.append(hand)
    # 4 x 8 distinct valid cards are necessarily the 32 cards.
    return tuple(hands)


def _parse_bids_and_contract(
    record: dict[str, Any], rules: Rules, dealer: int, hands: Sequence[Sequence[Card]],
    turned: Card | None,
) -> tuple[tuple[Bid, ...] | None, Contract | None]:
    """(bids, contract) of a record: the contract given, the one the bids reach, or both if
    they agree."""
    bids = None
    contract = None
    if "bids" in record:
        bids_data = record["bids"]
        if not isinstance(bids_data, list):
            raise RecordError("bids must be a list of bid codes")
        bids = tuple(_parse_bid(code, step) for step, code in enumerate(bids_data, start=1))
        contract = _run_bidding(rules, dealer, bids, turned)
        if contract is not None and turned is not None and turned not in hands[contract.taker]:
            raise RecordError(f"the turned card {turned} is not in the taker's hand "
                              f"(seat {contract.taker})")
    if "contract" in record:
        contract = _given_contract(record["contract"], rules, bids, contract)
    elif bids is None:
        raise RecordError("a record needs 'bids' or 'contract'")
    return bids, contract


def _given_contract(data: Any, rules: Rules, bids: tuple[Bid, ...] | None,
                    bid_contract: Contract | None) -> Contract:
    """The record's ``contract``, checked against the one its bids reach (if it has bids)."""
    try:
        given = Contract.from_dict(data)
    except (BeloteError, TypeError) as error:
        raise RecordError(f"contract: {error}") from None
    if bids is not None and given != bid_contract:
        raise RecordError(f"contract {data} does not match the bids "
                          f"({bid_contract.to_dict() if bid_contract else 'redeal'})")
    if rules.is_contree and given.value is None:
        raise RecordError("contract: a contree contract needs a value")
    return given


def _parse_plays(plays_data: Any, contract: Contract | None) -> tuple[Card, ...]:
    """The cards played, in order (none after a redeal)."""
    if not isinstance(plays_data, list) or len(plays_data) > 32:
        raise RecordError("plays must be a list of at most 32 card codes")
    plays = tuple(_card(code, f"plays[{step}]") for step, code in enumerate(plays_data, 1))
    if contract is None and plays:
        raise RecordError("everybody passed (redeal) but the record has plays")
    return plays


def _parse_bid(code: Any, step: int) -> Bid:
    try:
        return Bid.from_code(code)
    except BeloteError as error:
        raise RecordError(f"bid {step}: {error}") from None


def _run_bidding(rules: Rules, dealer: int, bids: Sequence[Bid],
                 turned: Card | None) -> Contract | None:
    if rules.is_contree:
        bidding: ClassicBidding | ContreeBidding = ContreeBidding(dealer, rules)
    else:
        if turned is None:
            raise RecordError("a classic record with bids needs the 'turned' card")
        bidding = ClassicBidding(dealer, turned, rules)
    for step, bid in enumerate(bids, start=1):
        seat = bidding.to_play
        try:
            bidding.apply(bid)
        except BeloteError as error:
            raise RecordError(f"bid {step}: seat {seat} bid {bid.code}: {error}") from None
    if not bidding.is_over:
        raise RecordError(f"the bidding is not over after {len(bids)} bids")
    return bidding.contract


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a record, checking every play, and report what happened.

    Returns a dictionary with ``contract``, ``steps`` (``{step, seat, legal, card}``),
    ``tricks`` (``{leader, cards, winner, points}``), ``tricks_won`` and ``card_points``
    (per team, incl. dix de der), ``belote``, ``announcements`` (``declared`` per seat,
    scoring ``team``, ``points`` per team), ``outcome``, ``capot`` and ``hand_score``
    (None while the hand is unfinished), and ``score`` (the full breakdown).

    Raises:
        RecordError: malformed record, or an illegal play, e.g.
            ``"step 7: seat 2 played 9H but must follow diamonds"``.
    """
    parsed = parse_record(record)
    report: dict[str, Any] = {
        "rules": parsed.rules.to_dict(), "dealer": parsed.dealer,
        "contract": parsed.contract.to_dict() if parsed.contract else None,
        "steps": [], "tricks": [], "tricks_won": [0, 0], "card_points": [0, 0],
        "belote": [0, 0], "announcements": None, "outcome": None, "capot": None,
        "hand_score": None, "score": None, "complete": False,
    }
    if parsed.contract is None:
        report["outcome"] = "redeal"
        return report
    state = PlayState(parsed.hands, parsed.contract, (parsed.dealer + 1) % 4, parsed.rules)
    for step, card in enumerate(parsed.plays, start=1):
        seat = state.to_play
        legal = cards_of(state.legal_mask())
        if card not in legal:
            reason = state.explain_illegal(card) or "it is not legal"
            raise RecordError(f"step {step}: seat {seat} played {card} but {reason}")
        report["steps"].append({"step": step, "seat": seat, "legal": [str(c) for c in legal],
                                "card": str(card)})
        state.play_unchecked(card.index)
    report["tricks"] = [trick.to_dict() for trick in state.tricks]
    report["tricks_won"] = list(state.tricks_won)
    report["card_points"] = list(state.card_points)
    report["belote"] = list(state.belote)
    if state.is_over:
        score = state.score(parsed.carried)
        report["complete"] = True
        report["score"] = score.to_dict()
        report["outcome"] = score.outcome
        report["capot"] = score.capot_team is not None
        report["hand_score"] = list(score.hand_score)
        report["announcements"] = {
            "declared": [[item.to_dict() for item in state.announced[seat]] for seat in range(4)],
            "team": score.announcement_team, "points": list(score.announcements),
        }
    return report


def record_from_hand(
    rules: Rules, dealer: int, hands: Sequence[Iterable[Card]], plays: Iterable[Card],
    contract: Contract | None = None, bids: Iterable[Bid] | None = None,
    turned: Card | None = None, carried: int = 0,
) -> dict[str, Any]:
    """Build a JSON-ready record; ``hands`` are the 8-card hands at the start of play.

    Raises:
        RecordError: neither ``contract`` nor ``bids`` given.
    """
    if contract is None and bids is None:
        raise RecordError("a record needs a contract or the bids")
    record: dict[str, Any] = {
        "rules": rules.to_dict(), "dealer": dealer,
        "hands": [[str(card) for card in sorted(hand)] for hand in hands],
    }
    if bids is not None:
        record["bids"] = [bid.code for bid in bids]
    if turned is not None:
        record["turned"] = str(turned)
    if contract is not None:
        record["contract"] = contract.to_dict()
    record["plays"] = [str(card) for card in plays]
    if carried:
        record["carried"] = carried
    return record


def record_from_state(state: PlayState, dealer: int, bids: Iterable[Bid] | None = None,
                      turned: Card | None = None, carried: int = 0) -> dict[str, Any]:
    """Record of a (finished or partly played) `PlayState`."""
    plays = [card for trick in state.tricks for card in trick.cards] + list(state.trick)
    return record_from_hand(state.rules, dealer, [cards_of(mask) for mask in state.start_hands],
                            plays, contract=state.contract, bids=bids, turned=turned,
                            carried=carried)
