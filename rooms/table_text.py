"""Every word the table page's script shows (static/js/i18n.js reads it from the page),
in the request's language. msgids are plain English; the Chinese texts are in
locale/zh_table.py. Refusals are worded here by their code (docs/protocol.md, "Error
codes"): the page never shows the server's own sentence, nor card notation.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rooms.levels import LABELS as LEVELS


def table_text() -> dict:
    return {
        **_bar(), **_seats(), **_phases(), **_actions(), **_end(), **_chat(),
        "cardNames": _card_names(),
        "errors": _errors(), "errorGeneric": _("That was refused."),
        "listJoin": _(", "),
    }


def refusal(error) -> str:
    """A refused write (`baohuang.errors.ServiceError`) worded in the request's language, as
    static/js/i18n.js words it on the table: by code, `params.why` picking the sentence."""
    template = _errors().get(error.code, _("That was refused."))
    if isinstance(template, dict):
        template = template.get(error.params.get("why"), template["default"])
    try:
        return template % error.params if "%(" in template else template
    except (KeyError, TypeError, ValueError):  # params missing: the code's sentence without them
        return _("That was refused.")


def _bar() -> dict:
    return {
        "connection": {"connecting": _("Connecting…"), "online": _("Connected"), "stalled": _("Connection lost"),
                       "offline": _("Reconnecting…"), "closed": _("Disconnected")},
        "connectionLost": _("Connection lost."), "reconnecting": _("Reconnecting — your buttons come back when it is up."),
        "waitingAnswer": _("Waiting for the server's answer"),
        "backToLobby": _("Back to the lobby"), "tableLabel": _("Table"), "yourCards": _("Your cards"), "actions": _("Actions"),
        "handNumber": _("Hand %(n)s"), "spectating": _("Watching"), "scoreSheet": _("Score sheet"), "scoresShort": _("Scores"),
        "mute": _("Sound off"), "fourColours": _("Four-colour suits"),
        "leave": _("Leave"), "turnTitle": _("Your turn!"),
        "more": _("More"), "rules": _("How to play"),
        "roomSettings": _("Room settings"), "roomReplays": _("Replays of this room"),
        "roomNoReplays": _("No finished hand to replay yet."),
        **_history(),
    }


def _seats() -> dict:
    return {
        "empty": _("Empty seat"), "sit": _("Sit here"), "addBot": _("Add a bot"), "you": _("you"),
        "botName": _("Bot %(number)s"),  # a bot's name is its number (i18n.js playerName)
        "seatNumber": _("Seat %(n)s"), "cardsLeft": _("%(n)s left"), "online": _("online"), "offlineSeat": _("offline"),
        "trustee": _("Auto-play is on"), "trusteeBadge": _("Auto"), "trusteeLocked": _("Auto-play is locked on for this hand."),
        "left": _("left"), "seconds": _("%(s)ss"), "secondsToTrustee": _("auto-play in %(s)ss"),
        "emperor": _("Emperor"), "guard": _("Guard"), "solo": _("Alone"), "hoe": _("Hoe"),
        "emperorTitle": _("Emperor"), "guardTitle": _("Guard"), "soloTitle": _("Alone against four"),
        "hoeTitle": _("Declared rebel (hoe)"), "passed": _("Pass"), "yielded": _("Yield"),
        "places": [_("1st"), _("2nd"), _("3rd"), _("4th"), _("5th")], "placeTitle": _("%(place)s: out of cards"),
        "levels": {level: str(label) for level, label in LEVELS.items()}, "levelTitle": _("Bot level"),
        "trusteeLevel": _("Auto-play plays at level %(level)s"),
    }


def _phases() -> dict:
    return {
        "waiting": _("Waiting for players: %(n)s of 5 seated"), "nextHand": _("Next hand"),
        # 准备 (ready): the hand deals when all five are ready
        "readyButton": _("Ready"), "unready": _("Not ready yet"), "readyBadge": _("ready"),
        "readyTitle": _("Ready for the next hand"), "waitingReady": _("Waiting for %(names)s to press Ready"),
        "readyClock": _("%(s)ss left to press Ready"),
        "readyOver": _("Time is up: a seat that is not ready may be freed"), "freeSeat": _("Free this seat"),
        "freeConfirm": _("Free %(name)s's seat? Not ready in time, they may still watch."),
        "leaveMidHand": _("Leaving now costs 40 points and auto-play plays your seat to the end. Leave?"),
        "bidding": _("Choosing the emperor"), "declaring": _("Declarations"), "ended": _("Hand over"),
        "crownHolder": _("%(name)s holds the crown card"), "declinedBy": _("Passed the crown: %(names)s"),
        "forced": _("Forced call: %(name)s must call"), "offered": _("%(name)s is offered the throne"),
        # lianzhong_classic's 让位 (RULES §6): the crown is the throne, yielded with nothing added
        "throneHolder": _("%(name)s holds the throne: call a card to rule, or yield it"), "yieldedBy": _("Yielded the throne: %(names)s"),
        "forcedThrone": _("A full circle of yields: %(name)s must take the throne if able to call"),
        "bundle": _("With the throne"), "called": _("Called card"),
        "waitingFor": _("Waiting for %(names)s"), "leads": _("%(name)s leads"), "yourLead": _("Your lead"),
        "yourTurn": _("Your turn"), "turnOf": _("%(name)s to play"),
        "tributePaid": _("Tribute paid at this deal"), "threes": _("Threes bought"),
        "boughtThree": _("%(seller)s → %(buyer)s: a 3"), "hiddenCard": _("a card you may not see"),
    }


def _actions() -> dict:
    return {
        "play": _("Play"), "pass": _("Pass"), "yield": _("Yield"), "hint": _("Hint"),
        "cannotBeat": _("Can't beat it"), "noBeat": _("Nothing in your hand beats the set on the table."),
        "noHint": _("No play beats the set on the table"),
        "sortRank": _("By rank"), "sortCount": _("By count"), "sort": _("Sort"), "clear": _("Clear"),
        "call": _("Call a card"), "callPick": _("Pick the card to call"), "cancel": _("Cancel"),
        "callThrone": _("Call a card and rule"), "soloCall": _("all four: alone"), "darkSoloCall": _("all four: hidden solo"),
        "declineClassic": _("Pass the crown"), "seize": _("Seize the throne"),
        "seizeConfirm": _("Seize the throne? You become emperor alone, without a guard, and cannot take it back."),
        "grabSoloConfirm": _("Grab the solo? You play alone against the other four, and cannot take it back."),
        "confirmYes": _("Yes, do it"),
        "accept": _("Take the throne"), "declineBundle": _("Pass the throne"),
        "acceptOpenSolo": _("Rule alone, open"), "declineThrone": _("Yield the crown"),
        "declare": {"none": _("No declaration"), "an_bao": _("Stay hidden"), "ming_bao": _("Reveal as guard"),
                    "dark_solo": _("Stay hidden alone"), "open_solo": _("Go open alone"), "rebel": _("Rebel"),
                    "niu": _("Twist (double)"), "ti": _("Kick (double again)"), "grab_solo": _("Grab the solo")},
        "declared": {"ming_bao": _("open guard"), "open_solo": _("open solo"), "rebel": _("rebel"),
                     "niu": _("twist"), "ti": _("kick"), "grab_solo": _("grabbed solo")},
        "trusteeOn": _("Auto-play"), "trusteeOff": _("Cancel auto-play"), "trusteeNow": _("Auto-play is playing for you."),
        "trusteeExplain": _("Cancel it to play yourself (entered %(n)s of 3 times this hand)."),
        "dissolveWarning": _("If any seat is still on auto-play when the hand ends, the room is dissolved."),
    }


def _forms(text) -> dict:
    """A text counting `%(n)s`, in the plural forms the page picks from by the count
    (static/js/i18n.js `plural`): English "1 card" and "2 cards", Chinese one form."""
    return {"one": text(1), "other": text(2)}


def _tribute_cards(n: int) -> str:
    return ngettext("%(from)s → %(to)s: %(n)s card", "%(from)s → %(to)s: %(n)s cards", n)


def _tribute_points(n: int) -> str:
    return ngettext("%(from)s → %(to)s: %(n)s tribute card never paid (someone left the room first), one point",
                    "%(from)s → %(to)s: %(n)s tribute cards never paid (someone left the room first), one point each", n)


def _end() -> dict:
    return {
        "void": _("Nobody took the throne — redealing"), "place": _("Place"), "player": _("Player"),
        "role": _("Role"), "score": _("Score"), "ledger": _("Running ledger of this room"),
        "outcome": {"win": _("The emperor's side wins"), "draw": _("A draw"), "lose": _("The rebels win")},
        "tributeOwed": _("Tribute owed at the next deal"), "tributeCards": _forms(_tribute_cards),
        "menzan": _("Stuck with the 3"), "close": _("Close"), "dissolved": _("This room has been dissolved."),
        "ledgerLinesTitle": _("Other points of this hand"),
        "ledgerLines": {
            "leave_penalty": _("%(name)s left during the hand: %(points)s"),
            "tribute_points": _forms(_tribute_points),
        },
        "signInToSit": _("Pick a nickname to sit down"),
    }


def _history() -> dict:
    """The round log, the card counter, 摊牌 and the explained score sheet (issue 13)."""
    return {
        "roundLog": _("Round log"), "thisRound": _("This round"), "previousRound": _("Previous round"),
        "roundEmpty": _("Nothing played yet"), "roundWonBy": _("Won by %(name)s"), "counter": _("Card counter"),
        "showdown": _("Cards left in hand"), "replayLink": _("Watch the replay"), "fairCommitment": _("Deal commitment"),
        "explain": {
            "lianzhongSide": _("g = 6 − (%(e)s + %(g)s) = %(base)s"),
            "classicSide": _("A = %(e)s + %(g)s = %(side)s"),
            "solo": _("%(solo)s, place %(place)s: %(points)s"),
            "seizedWon": _("Seized, out first: +40"), "seizedLost": _("Seized, not out first: −40"),
            "qingdaoSide": _("places %(e)s + %(g)s = %(sum)s"), "qingdaoSolo": _("alone, place %(place)s"),
            "doubled": _("the winning side's place points doubled"), "byPlace": _("everyone scores their place"),
            "eachRebel": _("each rebel %(n)s"), "split": _("the side splits its total evenly"),
            "why": {"ming_bao": _("revealed guard"), "rebel": _("rebellion"), "niu": _("niu"), "ti": _("ti"),
                    "open": _("open solo")},
            "solos": {"dark": _("hidden solo"), "open": _("open solo"), "seized": _("seized solo")},
            "presetSolos": {"lianzhong_classic": {"dark": _("hidden solo guard"), "open": _("open solo guard")}},
        },
    }


def _chat() -> dict:
    return {
        "chat": _("Chat"), "chatLines": _("Chat messages"), "chatMessage": _("Chat message"),
        "chatPlaceholder": _("Say something…"), "chatSend": _("Send"), "chatPhrases": _("Quick phrases"),
        "chatUnread": _("%(n)s new"),
        # the quick phrases (rooms/consumers.py PHRASES), shown in the reader's language
        "phrases": {"hello": _("Hello everyone"), "hurry": _("Hurry up, the flowers are wilting"),
                    "nice": _("Nice cards!"), "thanks": _("Thanks"), "sorry": _("Sorry"),
                    "well_played": _("Well played"), "again": _("One more hand"), "bye": _("Bye")},
    }


def _card_names() -> dict:
    return {
        "card": _("%(rank)s of %(suit)s"),
        "suits": {"S": _("spades"), "H": _("hearts"), "C": _("clubs"), "D": _("diamonds")},
        "bigJoker": _("big joker"), "smallJoker": _("small joker"),
        "crown": _("crown card (big joker)"), "sword": _("guard card (small joker)"), "baozi": _("baozi (4 of hearts)"),
    }


def _errors() -> dict:
    return {
        # protocol
        "bad_json": _("The page sent something the server cannot read."),
        "unknown_type": _("The page sent something the server cannot read."),
        "bad_field": _("The page sent something the server cannot read."),
        "too_large": _("That message is too long."),
        "not_signed_in": _("Pick a nickname first."), "not_seated": _("You have no seat at this table."),
        "no_hand": _("No hand is being played."), "stale_version": _("The table moved on; here it is again."),
        "server_error": _("Something went wrong on the server; nothing was changed."),
        "spectators_not_allowed": _("This room does not allow spectators."), "no_room": _("There is no such room."),
        "room_closed": _("This room has been dissolved."),
        "banned": _("A moderator has banned you from this server."),
        "muted": _("A moderator has muted your chat for a while."),
        # services
        "already_seated": _("You already have a seat."), "room_full": _("The table is full."),
        "seat_taken": _("That seat is taken."), "bad_seat": _("There is no such seat."),
        "hand_running": _("Wait for the hand to end."), "not_full": _("The table needs five players."),
        "too_early": _("The time to press Ready has not run out yet."), "seat_ready": _("That player is ready."),
        "own_seat": _("That is your own seat: leave it instead."), "seat_empty": _("Nobody sits there."),
        "bots_not_allowed": _("This room does not allow bots."), "bad_level": _("Choose the bot's level."),
        "not_creator": _("Only the room's creator can do that."),
        "too_many_seats": _("You already sit at %(limit)s tables: leave one first."),
        "bad_name": {"default": _("Choose another room name."),
                     "length": _("A room name has 1 to %(max)s characters."),
                     "controls": _("A room name cannot hold control or direction characters.")},
        "bad_preset": _("Choose the rules to play."), "bad_options": _("Those room settings are not possible."),
        "bad_nickname": {"default": _("Choose another nickname."), "empty": _("Choose a nickname."),
                         "long": _("A nickname has at most %(max)s characters."),
                         "controls": _("A nickname cannot hold control or direction characters."),
                         "mixed_scripts": _("A nickname cannot mix look-alike alphabets (such as Latin and Cyrillic)."),
                         "look_alike": _("That nickname looks like another player's: choose another.")},
        "reserved_nickname": _("That nickname is reserved: choose another."),
        "chat_too_fast": _("You are chatting too fast: wait a few seconds."),
        "trustee_on": _("Auto-play is on: cancel it to play yourself."),
        "trustee_locked": _("Auto-play is locked on for this hand."),
        # engine
        # Engine refusals carry params (docs/protocol.md "Error codes"); a dict is worded by
        # `params.why`, else its default.
        "not_your_turn": _("It is not your turn."), "not_in_hand": _("%(card)s is not in your hand."),
        "illegal_set": {"default": _("Those cards are not one set."),
                        "two_ranks": _("%(cards)s are not one set: a set is cards of one rank, jokers may be added.")},
        "does_not_beat": {
            "default": _("That does not beat the set on the table."),
            "rank": _("%(cards)s is not higher than the set on the table."),
            "small_attached": _("Small jokers added to the set on the table: %(jokers)s. "
                                "Beat it with at least as many big jokers."),
            "big_attached": _("A set with a big joker added can only be beaten by one with the baozi added."),
            "bao_attached": _("Nothing beats a set with the baozi added."),
        },
        "wrong_size": _("Play %(top_size)s cards, as many as the set on the table (you picked %(size)s)."),
        "three_goes_last": _("Your 3 goes last, alone, as a lead."),
        "sixes_go_last": _("Your 6s go last, all together."), "wrong_phase": _("That is not possible now."),
        "unknown_action": _("That is not possible now."), "bad_action": _("That is not possible now."),
        "cannot_pass": _("You lead: play a set."), "cannot_yield": {
            "default": _("You cannot yield now."), "no_yield": _("These rules have no yielding: play or pass."),
            "leading": _("You lead: play a set."), "yielded": _("You already yielded on this set: play or pass.")},
        "cannot_call": _("You hold %(held)s of %(card)s: call a card you hold three or four of."), "must_call": _("You must call a card."),
        "cannot_declare": _("You cannot declare that now."), "hand_over": _("The hand is over."),
    }
