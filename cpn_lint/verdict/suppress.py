"""Suppressions: ``# noqa`` comments and flake8's ignore settings, read by
``cpn-verdict`` as flake8 reads them. flake8 hides what they name; the
verdict still weighs it (:class:`Suppressions`), except a finding whose
``# noqa: CODE`` gives a reason, which the report quotes.

* ``# noqa`` on the reported line (or, for a multi-line string, on any line
  of it, as flake8 reads it) hides every finding there; ``# noqa:
  CPN101,CPN104`` hides those codes (a listed prefix such as ``CPN1`` hides
  every code it starts); ``# flake8: noqa`` on a line of its own skips the
  whole file.
* ``ignore``, ``extend-ignore`` and ``per-file-ignores`` from the ``[flake8]``
  section of ``setup.cfg``, ``tox.ini`` or ``.flake8`` (the first of them
  that has one, looking in the working folder and then its parents, as
  flake8 does) hide codes by prefix; ``exclude`` and ``extend-exclude``
  name files not to read at all.
"""

from __future__ import annotations

import configparser
import fnmatch
import io
import os
import re
import sys
import tokenize
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from ..findings import Finding

# flake8's own forms: "# noqa", "# noqa: X1,X2", "# NOQA:X1 X2"
NOQA = re.compile(r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
FILE_NOQA = re.compile(r"#\s*flake8[:=]\s*noqa(?P<codes>:\s?[A-Z].*)?\s*$", re.IGNORECASE)
CONFIG_FILES = ("setup.cfg", "tox.ini", ".flake8", "pyproject.toml")  # pyproject: [tool.flake8] (Flake8-pyproject)
CODE_TOKEN = re.compile(r"^[A-Z]+[0-9]*$")


class Flake8ConfigError(ValueError):
    """A flake8 configuration file that cannot be read (one-line reason)."""


@dataclass(frozen=True)
class Flake8Settings:
    """The parts of flake8's configuration that decide what is reported."""

    origin: str | None = None  # the file they came from
    ignore: tuple[str, ...] = ()  # ignore + extend-ignore, as code prefixes
    per_file: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (glob, code prefixes)
    exclude: tuple[str, ...] = ()  # exclude + extend-exclude

    def ignored_for(self, path: str) -> tuple[str, ...]:
        """The code prefixes ignored in ``path`` (global and per-file)."""
        extra = [codes for glob, codes in self.per_file if _path_matches(path, glob)]
        return self.ignore + tuple(code for codes in extra for code in codes)


def _path_matches(path: str, glob: str) -> bool:
    normal = os.path.normpath(path)
    candidates = (normal, os.path.basename(normal), os.path.abspath(normal), os.path.relpath(os.path.abspath(normal)))
    pattern = os.path.normpath(glob)
    return any(fnmatch.fnmatch(c, pattern) for c in candidates)


def find_flake8_config(start: Path) -> Path | None:
    """The first of setup.cfg, tox.ini, .flake8 with a [flake8] section, in
    ``start`` or one of its parents."""
    for folder in (start, *start.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if candidate.is_file() and _has_flake8_section(candidate):
                return candidate
    return None


def _has_flake8_section(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    header = r"^\s*\[tool\.flake8\]" if path.name == "pyproject.toml" else r"^\s*\[flake8\]"
    return re.search(header, text, re.MULTILINE) is not None


def read_flake8_settings(path: Path) -> Flake8Settings:
    if path.name == "pyproject.toml":
        return _read_pyproject(path)
    parser = configparser.RawConfigParser()
    try:
        parser.read_string(path.read_text(encoding="utf-8"), source=str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise Flake8ConfigError(f"{path}: cannot be read ({exc})") from None
    except configparser.Error as exc:
        raise Flake8ConfigError(f"{path}: not a valid configuration file ({str(exc).splitlines()[0]})") from None
    if not parser.has_section("flake8"):
        return Flake8Settings(origin=str(path))
    section = {key.replace("_", "-"): value for key, value in parser.items("flake8")}
    ignore = _codes(section.get("ignore", "")) + _codes(section.get("extend-ignore", ""))
    exclude = _list(section.get("exclude", "")) + _list(section.get("extend-exclude", ""))
    return Flake8Settings(str(path), tuple(ignore), tuple(parse_per_file_ignores(section.get("per-file-ignores", ""))),
                          tuple(exclude))


def _read_pyproject(path: Path) -> Flake8Settings:
    """``[tool.flake8]`` in pyproject.toml, the table the Flake8-pyproject
    plugin lets flake8 read; values may be TOML lists or strings."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get("flake8", {})
    except (OSError, UnicodeDecodeError) as exc:
        raise Flake8ConfigError(f"{path}: cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise Flake8ConfigError(f"{path}: not valid TOML ({exc})") from None
    section = {str(key).replace("_", "-"): value if isinstance(value, str) else ",".join(map(str, value))
               for key, value in table.items() if isinstance(value, (str, list))}
    ignore = _codes(section.get("ignore", "")) + _codes(section.get("extend-ignore", ""))
    exclude = _list(section.get("exclude", "")) + _list(section.get("extend-exclude", ""))
    return Flake8Settings(str(path), tuple(ignore), tuple(parse_per_file_ignores(section.get("per-file-ignores", ""))),
                          tuple(exclude))


def _list(value: str) -> list[str]:
    return [item for item in re.split(r"[,\s]+", value) if item]


def _codes(value: str) -> list[str]:
    return [item.upper() for item in _list(value) if CODE_TOKEN.match(item.upper())]


def parse_per_file_ignores(value: str) -> list[tuple[str, tuple[str, ...]]]:
    """``"tests/*: CPN101,E501  scripts/x.py:CPN2"`` -> [(glob, codes), ...],
    flake8's format: a file glob followed by a colon and its codes."""
    pairs: list[tuple[str, tuple[str, ...]]] = []
    glob: str | None = None
    codes: list[str] = []
    for token in re.findall(r"[^\s,:]+:?|:", value):
        if token == ":":
            continue
        if token.endswith(":") or (glob is None and not CODE_TOKEN.match(token)):
            if glob is not None:
                pairs.append((glob, tuple(codes)))
            glob, codes = token.rstrip(":"), []
        elif CODE_TOKEN.match(token.upper()):
            codes.append(token.upper())
        else:  # a second file name after codes
            if glob is not None:
                pairs.append((glob, tuple(codes)))
            glob, codes = token, []
    if glob is not None:
        pairs.append((glob, tuple(codes)))
    return [(g, c) for g, c in pairs if c]


# ------------------------------------------------------------------ applying
@dataclass(frozen=True)
class Suppressed:
    """One finding a suppression names, and which suppression.

    ``reason``: the words after the codes of a ``# noqa: CODE reason`` (or
    of a configured false alarm): the user's statement that the finding is
    wrong. Without one, a suppression only accepts the finding."""

    path: str
    finding: Finding
    by: str  # "noqa", "file noqa", "config", "baseline", "false-alarm list"
    reason: str | None = None


@dataclass
class Suppressions:
    """What suppressions name, for the summary.

    A ``# noqa``, flake8's ignore settings or a baseline keep a finding out of
    lint output; they do not change what the code is, so the verdict still
    weighs the finding (``accepted``). Only a stated reason removes one from
    the verdict (``declared``: a ``# noqa: CODE reason`` or an entry of the
    ``false-alarms`` setting), and the report quotes it."""

    accepted: list[Suppressed] = field(default_factory=list)
    declared: list[Suppressed] = field(default_factory=list)
    settings: Flake8Settings | None = None

    def count(self) -> int:
        return len(self.accepted)

    def by_code(self) -> dict[str, int]:
        return dict(sorted(Counter(item.finding.code for item in self.accepted).items()))

    def by_kind(self) -> dict[str, int]:
        return dict(Counter(item.by for item in self.accepted))


def noqa_codes(line: str) -> tuple[str, ...] | None:
    """The codes a ``# noqa`` on ``line`` names: () for a bare ``# noqa``
    (everything), None when the line has none."""
    match = NOQA.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    return tuple(c.upper() for c in re.split(r"[,\s]+", codes) if c) if codes else ()


def noqa_reason(text: str) -> str | None:
    """The reason written after the codes of a ``# noqa: CODE`` in ``text``
    (``# noqa: CPN101 not hot: runs once per file``), up to the next comment;
    None for a bare ``# noqa``, no words, or no codes."""
    match = NOQA.search(text)
    if match is None or not match.group("codes"):
        return None
    rest = text[match.end():].split("#", 1)[0]
    reason = rest.strip().lstrip(":;,-–— ").strip()
    return reason if re.search(r"[A-Za-z]{2}", reason) else None


def noqa_ranges(lines: Sequence[str]) -> dict[int, tuple[int, int]]:
    """For every line, the (first, last) lines flake8 searches for its
    ``# noqa``: the lines of one token range (a multi-line string and the
    line it ends on share one), as flake8's processor maps them. Lines not
    in the map (a file that does not tokenize) are searched alone."""
    ranges: dict[int, tuple[int, int]] = {}
    source = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    first, last = len(lines) + 2, -1
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            first, last = min(first, token.start[0]), max(last, token.end[0])
            if token.type in (tokenize.NL, tokenize.NEWLINE):
                ranges.update(dict.fromkeys(range(first, last + 1), (first, last)))
                first, last = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return {}
    return ranges


def noqa_text(lines: Sequence[str], line: int, ranges: dict[int, tuple[int, int]]) -> str:
    """The text flake8 searches for the ``# noqa`` of a finding on ``line``."""
    first, last = ranges.get(line, (line, line))
    return "".join(lines[first - 1:last]) if 1 <= first <= len(lines) else ""


def file_is_skipped(lines: Sequence[str]) -> bool:
    """``# flake8: noqa`` on a line of its own (with codes flake8 ignores it)."""
    for line in lines:
        match = FILE_NOQA.search(line)
        if match and not match.group("codes") and line.strip().startswith("#"):
            return True
    return False


def split_findings(path: str, findings: Iterable[Finding], lines: Sequence[str] | None,
                   ignored: Sequence[str]) -> tuple[list[Finding], list[Suppressed]]:
    """(kept, hidden) for one file's findings. Internal errors are never hidden."""
    kept: list[Finding] = []
    hidden: list[Suppressed] = []
    skip_file = bool(lines) and file_is_skipped(lines)  # type: ignore[arg-type]
    prefixes = tuple(ignored)
    findings = list(findings)
    # flake8's token ranges matter only where some line says "noqa": most
    # files have none, and tokenizing each one cost more than a warm run's
    # everything else (issue 24)
    ranges = noqa_ranges(lines) if lines and findings and any("noqa" in line.lower() for line in lines) else {}
    for finding in findings:
        if finding.code == "CPN000":
            kept.append(finding)
            continue
        if skip_file:
            hidden.append(Suppressed(path, finding, "file noqa"))
            continue
        text = noqa_text(lines, finding.line, ranges) if lines else ""
        codes = noqa_codes(text) if lines else None
        if codes is not None and (not codes or finding.code.startswith(codes)):
            hidden.append(Suppressed(path, finding, "noqa", noqa_reason(text)))
        elif prefixes and finding.code.startswith(prefixes):
            hidden.append(Suppressed(path, finding, "config"))
        else:
            kept.append(finding)
    return kept, hidden
