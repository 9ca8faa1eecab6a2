"""The project's documents link only inside the repository: a clone is complete."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)\s]+)")  # a Markdown link's target
DOCUMENTS = ["README.md", *sorted(str(path.relative_to(ROOT)) for path in (ROOT / "docs").glob("*.md"))]


def targets(document: str) -> list[str]:
    return LINK.findall((ROOT / document).read_text(encoding="utf-8"))


def test_the_readme_links_the_rules_in_the_repository():
    assert "docs/rules.md" in targets("README.md")


@pytest.mark.parametrize("document", DOCUMENTS)
def test_no_link_leaves_the_repository(document):
    for target in targets(document):
        assert not re.match(r"[a-z][a-z0-9+.-]*:|//", target, re.I), f"{document} links outside: {target}"
        path = (ROOT / document).parent / target.split("#")[0]
        assert path.resolve().is_relative_to(ROOT), f"{document} links outside the repository: {target}"
        assert path.exists(), f"{document} links to a missing file: {target}"
