"""What people may call themselves and their rooms, and what chat text may hold.

- No control or format characters in names (Unicode category C: NUL, right-to-left
  override and the other bidi controls, zero-width characters, unassigned code points);
  chat text refuses the same except zero-width joiners, which emoji sequences need.
- Nicknames: no reserved word (`admin`, 管理员, `Bot`, …, also as `Admin_1` or `Bot 3`), no letters from two
  look-alike alphabets at once (`аdmin` with a Cyrillic а; Chinese with Latin is fine),
  and nothing that reads like an existing player's Latin name once look-alike letters
  are replaced (Unicode's confusables, from `confusable_homoglyphs`).
"""

import unicodedata

from confusable_homoglyphs import categories, confusables

RESERVED = {"admin", "administrator", "root", "system", "server", "staff", "moderator", "mod", "support",
            "official", "管理员", "管理", "系统", "官方", "客服", "版主", "站长",
            "bot", "机器人"}  # nobody passes for a bot, which is shown as 机器人 3 / Bot 3
# Scripts that do not look like each other's letters, so mixing them with one other is fine.
DISTINCT_SCRIPTS = {"COMMON", "INHERITED", "HAN", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO"}
BIDI_CONTROLS = {"\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}
CHAT_ALLOWED_FORMAT = {"\u200d", "\ufe0f"}  # zero-width joiner and emoji presentation, inside emoji


def has_controls(text: str) -> bool:
    """Control, format, private-use, surrogate or unassigned characters (category C)."""
    return any(unicodedata.category(char).startswith("C") for char in text)


def chat_refusal(text: str) -> str | None:
    """Why chat `text` is refused, or None: control characters and bidi overrides."""
    for char in text:
        if char in BIDI_CONTROLS:
            return "A chat message cannot hold right-to-left or other direction controls."
        if unicodedata.category(char).startswith("C") and char not in CHAT_ALLOWED_FORMAT:
            return "A chat message cannot hold control characters."
    return None


def mixed_scripts(text: str) -> bool:
    """Letters of two alphabets that hold look-alikes of each other (Latin and Cyrillic, …)."""
    scripts = {categories.alias(char) for char in text if char.isalpha()} - DISTINCT_SCRIPTS
    return len(scripts) > 1


def skeleton(text: str) -> str:
    """`text` folded to what it looks like: NFKC, case-folded, look-alike letters as Latin."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    found = confusables.is_confusable(folded, preferred_aliases=["latin", "common"], greedy=True) or []
    lookalikes = {entry["character"]: entry["homoglyphs"][0]["c"] for entry in found if entry["homoglyphs"]}
    return "".join(lookalikes.get(char, char) for char in folded).casefold()


def reserved(text: str) -> bool:
    letters = "".join(char for char in skeleton(text) if char.isalpha())
    return letters in RESERVED
