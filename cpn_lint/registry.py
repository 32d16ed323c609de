"""The rule registry: the single source of truth for codes.

Every rule module under :mod:`cpn_lint.rules` defines one :class:`Rule`
subclass. Defining the class registers it; entry points, docs pages, SARIF
rule metadata, verdict grouping and the meta-tests all read from here.
"""

from __future__ import annotations

import ast
import enum
import re
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Iterator

from .findings import Finding

if TYPE_CHECKING:  # pragma: no cover
    from .model import FileModel


class Category(enum.Enum):
    """What a finding means for the migration."""

    SCALES = "SCALES"  # what will speed up after the import swap
    BLOCKS = "BLOCKS"  # must be removed before the code can scale
    REFACTOR = "REFACTOR"  # mechanical fix with a known recipe
    INFO = "INFO"  # cost or compatibility note
    API = "API"  # API support per the manifest
    SCOPE = "SCOPE"  # workload outside cuPyNumeric's scope (Gate 4)
    INTERNAL = "INTERNAL"  # the linter itself failed on a rule


class Default(enum.Enum):
    """When a code is emitted."""

    ON = "on"  # shown by a plain flake8 run
    ASSESSMENT = "assessment"  # only under --cpn-assessment (cpn-verdict sets it)


RECIPES: dict[str, str] = {
    "RR-loop": "replace the element loop with one whole-array expression",
    "RR-where": "express the per-element function with np.where or a masked update",
    "RR-sync": "move the host conversion out of the loop or do it every N steps",
    "RR-converge": "test convergence on a Python bool updated every N steps",
    "RR-alloc": "allocate once before the loop and reuse the buffer (out=)",
    "RR-inplace": "update in place with an out= ufunc call",
    "RR-stack": "preallocate the result or collect parts and stack once",
    "RR-mask": "index with the boolean mask itself instead of nonzero()",
    "RR-reshape": "reshape once before the loop",
    "RR-broadcast": "replace the row loop with broadcasting",
    "RR-batch": "stack the independent problems and make one batched call",
    "RR-mpi": "drop mpi4py and let Legate distribute one global array",
    "RR-host-fallback": "keep host-library work on a host array at an explicit boundary",
    "RR-strided": "build the selection as a boolean mask on a host array",
    "RR-numeric": "restructure the data into numeric arrays",
    "RR-order": "drop order= and convert layout at a host boundary",
    "RR-one-runtime": "keep one array runtime inside the loop",
    "RR-write-through": "write through to the original array, not to the copy",
}

# Order in which recipes should be applied (the later ones assume the earlier
# are done); recipes not listed sort last.
RECIPE_PRIORITY: tuple[str, ...] = (
    "RR-mpi",
    "RR-loop",
    "RR-broadcast",
    "RR-batch",
    "RR-where",
    "RR-sync",
    "RR-converge",
    "RR-one-runtime",
    "RR-stack",
    "RR-alloc",
    "RR-inplace",
    "RR-mask",
    "RR-reshape",
    "RR-write-through",
    "RR-order",
    "RR-strided",
    "RR-numeric",
    "RR-host-fallback",
)

DOC_HEADINGS: tuple[str, ...] = (
    "What it does",
    "Why it does not scale on cuPyNumeric",
    "Example",
    "Use instead",
    "Known false alarms",
)

CODE_PATTERN = re.compile(r"^CPN\d{3}$")


def example_source(text: str) -> str:
    """An example written as an indented triple-quoted block (starting with a
    newline) becomes the program it shows; any other string is kept as is."""
    return textwrap.dedent(text[1:]) if text.startswith("\n") else text


@dataclass(frozen=True)
class Valid:
    """Source that must not trigger the rule."""

    source: str
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", example_source(self.source))


@dataclass(frozen=True)
class Invalid:
    """Source that must trigger the rule, on ``line`` when given."""

    source: str
    line: int | None = None
    contains: str | None = None  # a substring the message must contain
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", example_source(self.source))


@dataclass(frozen=True)
class FixExample:
    """Source that ``cpn-lint fix`` must rewrite to exactly ``after``."""

    before: str
    after: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "before", example_source(self.before))
        object.__setattr__(self, "after", example_source(self.after))


@dataclass(frozen=True)
class NoFix:
    """Source the rule reports but ``cpn-lint fix`` must leave unchanged,
    saying why: ``reason`` is a substring of the reason it gives."""

    source: str
    reason: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", example_source(self.source))


class Rule:
    """Base class of every rule; subclasses register themselves.

    A subclass sets the class attributes below, writes its documentation as
    the class docstring under the fixed headings of :data:`DOC_HEADINGS`, and
    implements :meth:`check`.
    """

    code: ClassVar[str]
    slug: ClassVar[str]
    category: ClassVar[Category]
    message: ClassVar[str]  # str.format template, without the code
    # The headline editors and flake8 show (<= HEADLINE_LIMIT characters):
    # what was found and the recipe. Quoted code in it is cut to CODE_FIELD_LIMIT.
    short: ClassVar[str | None] = None
    summary: ClassVar[str]  # one line, for tables and SARIF
    recipe: ClassVar[str | None] = None
    default: ClassVar[Default] = Default.ON
    valid: ClassVar[tuple[Valid, ...]] = ()
    invalid: ClassVar[tuple[Invalid, ...]] = ()
    # What `cpn-lint fix` does with the rule's findings: one paragraph for the
    # docs (empty: no automatic fix), and examples the tests run.
    fix_note: ClassVar[str] = ""
    fix_examples: ClassVar[tuple[FixExample | NoFix, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:
            _register(cls)

    def check(self, model: FileModel) -> Iterator[Finding]:  # pragma: no cover
        raise NotImplementedError

    # -- helpers for subclasses -------------------------------------------------
    def finding(
        self,
        node: ast.AST,
        *,
        in_loop: bool = False,
        data: dict[str, Any] | None = None,
        **message_args: Any,
    ) -> Finding:
        """A finding at ``node``'s start, with the message templates filled."""
        return Finding(
            code=self.code,
            line=getattr(node, "lineno", 1),
            col=getattr(node, "col_offset", 0),
            end_line=getattr(node, "end_lineno", None),
            end_col=getattr(node, "end_col_offset", None),
            message=self.message.format(**message_args),
            short=self.short.format(**_cut_code(message_args)) if self.short else None,
            in_loop=in_loop,
            data=data or {},
        )

    @classmethod
    def fixable(cls) -> bool:
        """True when ``cpn-lint fix`` can rewrite some of the rule's findings."""
        return any(isinstance(e, FixExample) for e in cls.fix_examples)

    @classmethod
    def doc(cls) -> str:
        return _dedent_doc(cls.__doc__ or "")


HEADLINE_LIMIT = 100  # characters of a headline (a meta-test holds the fixtures to it)
CODE_FIELD_LIMIT = 28  # characters of quoted code a headline keeps
# Message fields that quote the user's code; a headline cuts them.
CODE_FIELDS = frozenset({"call", "loop", "statement", "subscript", "expr", "test", "value", "arrays", "array", "name",
                         "apis", "site", "evidence", "rule", "detail", "origin"})


# A loop is quoted with its header ("loop 'for i in range(n)'"): a little more room.
FIELD_LIMITS = {"loop": 40, "origin": 40}


def _cut_code(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: _cut(value, FIELD_LIMITS.get(key, CODE_FIELD_LIMIT)) if key in CODE_FIELDS and isinstance(value, str)
            else value for key, value in fields.items()}


_QUOTED = re.compile(r"'[^']*'")
_NAME_LIST = re.compile(r"^'[^']*'(?:, '[^']*')*(?: and (\d+) more)?$")


def _cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters; a quoted field keeps both
    its quotes whatever quotes the code inside it holds, and a list of
    quoted names (``'a', 'b' and 3 more``) keeps whole names."""
    if len(text) <= limit:
        return text
    listed = _NAME_LIST.match(text)
    if listed and (listed.group(1) or _QUOTED.findall(text)[1:]):
        return _cut_names(text, int(listed.group(1) or 0), limit)
    quote = text[-1]
    opening = text.find(quote) if quote in "'\"" else -1
    if 0 <= opening < len(text) - 1 and opening < limit - 3:  # "loop 'for ...'": cut inside the quotes
        return text[: limit - 2].rstrip() + "…" + quote
    return text[: limit - 1].rstrip() + "…"


def _cut_names(text: str, hidden: int, limit: int) -> str:
    head = text.rsplit(" and ", 1)[0] if hidden else text
    names = _QUOTED.findall(head)
    for keep in range(len(names) - 1, 0, -1):
        shown = ", ".join(names[:keep]) + f" and {len(names) - keep + hidden} more"
        if len(shown) <= limit:
            return shown
    return names[0][: limit - 2].rstrip() + "…'" if len(names[0]) > limit else names[0]


REGISTRY: dict[str, type[Rule]] = {}


def _register(cls: type[Rule]) -> None:
    code = cls.code
    if not CODE_PATTERN.match(code):
        raise ValueError(f"bad rule code {code!r}")
    if code in REGISTRY and REGISTRY[code] is not cls:
        raise ValueError(f"duplicate rule code {code}")
    if cls.recipe is not None and cls.recipe not in RECIPES:
        raise ValueError(f"{code}: unknown recipe {cls.recipe!r}")
    REGISTRY[code] = cls


def _dedent_doc(doc: str) -> str:
    import inspect

    return inspect.cleandoc(doc)




def recipe_rank(recipe: str | None) -> int:
    if recipe in RECIPE_PRIORITY:
        return RECIPE_PRIORITY.index(recipe)  # type: ignore[arg-type]
    return len(RECIPE_PRIORITY)
