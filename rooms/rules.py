"""The rules pages (/rules/ and /rules/<preset>/): docs/rules.md in the page's language.

The rules are written once, for players, in `docs/rules.md` (English) and
`docs/rules.zh.md` (Chinese); these pages show them. A `## ` section whose heading starts
with a preset's name in backticks (`` ## `qingdao` — … ``) belongs to that preset; every
other section is common to all. A ```` ```cards ```` block draws its lines of card notation
as card faces (the table's static/css/cards.css). The list of presets comes from one place,
`rooms.forms.PRESET_LABELS`.
"""

from functools import lru_cache
from html import escape

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from markdown_it import MarkdownIt

from rooms.forms import PRESET_LABELS

DOCS = {"en": "rules.md", "zh": "rules.zh.md"}
SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "C": ("♣", "black"), "D": ("♦", "red")}
STAMPS = {"BJ*": "皇", "SJ*": "保", "4H*": "保子"}


def doc_language() -> str:
    return "en" if (get_language() or "").startswith("en") else "zh"


@lru_cache(maxsize=None)
def sections(language: str) -> tuple[str, list[tuple[str, str]]]:
    """The document's title block and its `## ` sections as (preset or "", markdown)."""
    text = (settings.BASE_DIR / "docs" / DOCS[language]).read_text(encoding="utf-8")
    head, *parts = text.split("\n## ")
    found = []
    for part in parts:
        heading = part.split("\n", 1)[0]
        preset = heading.split("`")[1] if heading.startswith("`") else ""
        found.append((preset, "## " + part))
    return head, found


def _card_face(card: str) -> str:
    """One card as the table draws it (static/js/render/card.js, without the script)."""
    stamp = STAMPS.get(card)
    plain = card.rstrip("*")
    if plain in ("SJ", "BJ"):
        kind = "big" if plain == "BJ" else "small"
        classes, strip, art = f"card joker joker-{kind} black", '<span class="rank joker-word">JOKER</span>', ""
    else:
        rank = "10" if plain[0] == "T" else plain[0]
        suit, colour = SUITS[plain[1]]
        ten = " ten" if rank == "10" else ""
        classes = f"card suit-{plain[1]} {colour}"
        strip, art = f'<span class="rank{ten}">{rank}</span><span class="suit">{suit}</span>', suit
    if stamp:
        classes += " marked mark-" + {"皇": "crown", "保": "sword", "保子": "baozi"}[stamp]
        strip += f'<span class="stamp">{stamp}</span>'
    return (f'<span class="{classes}" role="img" aria-label="{escape(card)}" title="{escape(card)}">'
            f'<span class="face"><span class="strip" aria-hidden="true">{strip}</span>'
            f'<span class="art" aria-hidden="true">{art}</span></span></span>')


def _fence(self, tokens, index, options, env):
    token = tokens[index]
    if token.info.strip() != "cards":
        return self.fence_default(tokens, index, options, env)
    rows = "".join(f'<span class="cards big">{"".join(_card_face(card) for card in line.split())}</span>'
                   for line in token.content.splitlines() if line.strip())
    return f'<div class="card-picture">{rows}</div>\n'


def _table_open(self, tokens, index, options, env):
    """A table in the box that scrolls a list too wide for a phone (static/css/app.css)."""
    return '<div class="table-scroll" tabindex="0">' + self.renderToken(tokens, index, options, env)


def _table_close(self, tokens, index, options, env):
    return self.renderToken(tokens, index, options, env) + "</div>\n"


@lru_cache(maxsize=None)
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("fence_default", md.renderer.rules["fence"])
    md.add_render_rule("fence", _fence)
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    return md


def to_html(markdown: str):
    return mark_safe(_markdown().render(markdown))  # our own document, raw HTML disabled


def _presets() -> list[dict]:
    return [{"key": key, "label": label} for key, label in PRESET_LABELS.items()]


def rules_index(request):
    """All the rules: the common sections, and a link to each preset's page."""
    head, found = sections(doc_language())
    common = "\n".join(text for preset, text in found if not preset)
    return render(request, "rooms/rules.html", {
        "head": to_html(head), "body": to_html(common), "presets": _presets(), "preset": None})


def rules_preset(request, preset: str):
    """One preset's rules, then the sections common to all presets."""
    if preset not in PRESET_LABELS:
        raise Http404
    head, found = sections(doc_language())
    own = "\n".join(text for key, text in found if key == preset)
    common = "\n".join(text for key, text in found if not key)
    return render(request, "rooms/rules.html", {
        "head": None, "body": to_html(own + "\n" + common), "presets": _presets(),
        "preset": preset, "preset_label": PRESET_LABELS[preset]})
