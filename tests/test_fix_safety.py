"""``cpn-lint fix`` refuses what it cannot prove: aliasing, widening dtypes
and shapes, buffers kept or read before they are written, joins read while
they grow. Each case is a program the rule reports; the fix either makes the
expected rewrite or leaves the program with the expected reason."""

from __future__ import annotations

import pytest

from cpn_lint.fix.command import selected_codes
from cpn_lint.fix.planner import fix_text

CODES = selected_codes(None)
LOOP = "for _ in range(100):\n"

REFUSED = {
    "aliased before the loop": (
        "import numpy as np\nx = np.zeros(10)\nkeep = x\n" + LOOP + "    x = x + 1.0\n", "CPN202", "kept at line 3"),
    # (stored or yielded in the loop itself, each iteration's array is needed: CPN202 is quiet there)
    "stored after the loop": (
        "import numpy as np\nx = np.zeros(10)\nhist = []\n" + LOOP + "    x = x + 1.0\nhist.append(x)\n",
        "CPN202", "kept at line 6"),
    "int plus float": ("import numpy as np\nx = np.arange(10)\n" + LOOP + "    x = x + 0.5\n", "CPN202", "int to float64"),
    "int divided": ("import numpy as np\nx = np.arange(10)\n" + LOOP + "    x = x / 2\n", "CPN202", "int to float64"),
    "float32 with float64": (
        "import numpy as np\nx = np.zeros(10, dtype=np.float32)\ny = np.ones(10)\n" + LOOP + "    x = x + y\n",
        "CPN202", "float32 to float64"),
    "complex into float": (
        "import numpy as np\nx = np.zeros(4)\nz = np.ones(4) * 1j\n" + LOOP + "    x = x + z\n", "CPN202", "complex128"),
    "broadcast grows": (
        "import numpy as np\nx = np.zeros(4)\nm = np.ones((3, 4))\n" + LOOP + "    x = x + m\n", "CPN202", "shape"),
    "starts as a view": (
        "import numpy as np\na = np.zeros(20)\nx = a[5:15]\n" + LOOP + "    x = x + 1.0\n", "CPN202", "another name"),
    "read by another function": (
        "import numpy as np\nx = np.zeros(10)\ndef peek():\n    return x\n" + LOOP + "    x = x + 1.0\n    peek()\n",
        "CPN202", "another function"),
    "out= hands it back": (
        "import numpy as np\nx = np.zeros(10)\n" + LOOP + "    x = x + 1.0\n    y = np.add(x, 1.0, out=x)\n",
        "CPN202", "kept at line 5"),
    "yielded": (
        "import numpy as np\ndef gen():\n    x = np.zeros(10)\n    for _ in range(100):\n        x = x + 1.0\n    yield x\n",
        "CPN202", "yield x"),
    "own function keeps it": (
        "import numpy as np\nhist = []\ndef remember(v):\n    hist.append(v)\nx = np.zeros(10)\n" + LOOP
        + "    x = x + 1.0\n    remember(x)\n", "CPN202", "remember(x)"),
    "own function returns it": (
        "import numpy as np\ndef same(v):\n    return v\nx = np.zeros(10)\n" + LOOP + "    x = x + 1.0\n    y = same(x)\n",
        "CPN202", "y = same(x)"),
    "mask of another shape": (
        "import numpy as np\na = np.ones((4, 4))\nm = np.ones(4) > 0\nb = a[np.nonzero(m)]\n", "CPN204", "shape"),
    "narrow integer sum": ("import numpy as np\na = np.zeros(10, dtype='int8')\ns = sum(a)\n", "CPN110", "dtype"),
    "buffer written in part": (
        "import numpy as np\nn = 10\n" + LOOP + "    t = np.zeros(n)\n    t[1:] = 1.0\n    print(t.sum())\n",
        "CPN201", "before every element is written"),
    "loop left before the write": (
        "import numpy as np\nn = 10\nfor i in range(100):\n    t = np.zeros(n)\n    if i > 50:\n        break\n"
        "    t[:] = 1.0\nprint(t)\n", "CPN201", "may move on"),
    "buffer kept as the state": (
        "import numpy as np\nn = 100\narr = np.ones(n)\n" + LOOP + "    temp = np.zeros(n)\n    temp[:] = arr * 0.5\n"
        "    arr = temp\n", "CPN201", "kept beyond the iteration"),
    "join read in the loop": (
        "import numpy as np\nacc = np.zeros(0)\nfor i in range(10):\n    acc = np.append(acc, i)\n    print(acc.sum())\n",
        "CPN203", "read in the loop"),
    "join starts as a list": (
        "import numpy as np\nacc = []\nfor i in range(10):\n    acc = np.append(acc, i)\n", "CPN203", "new array"),
    "append to a 2-D start": (
        "import numpy as np\nacc = np.zeros((0, 3))\nfor i in range(10):\n    acc = np.append(acc, np.ones((1, 3)))\n",
        "CPN203", "rank"),
    "join start kept": (
        "import numpy as np\nacc = np.zeros(0)\nfirst = acc\nfor i in range(10):\n    acc = np.append(acc, i)\n",
        "CPN203", "kept at line 3"),
    "join in a while test": (
        "import numpy as np\nacc = np.zeros(0)\nwhile acc.size < 10:\n    acc = np.append(acc, 1.0)\n", "CPN203",
        "read in the loop"),
    "loop with else": (
        "import numpy as np\nacc = np.zeros(0)\nfor i in range(10):\n    acc = np.append(acc, i)\nelse:\n    print(acc)\n",
        "CPN203", "else clause"),
}

FIXED = {
    "own function only reads it": (
        "import numpy as np\ndef energy(v):\n    return float(np.sum(v * v))\nx = np.zeros(10)\n" + LOOP
        + "    x = x + 1.0\n    e = energy(x)\n",
        "    x += 1.0\n"),
    "advanced indexing copies": (
        "import numpy as np\nx = np.zeros(10)\nm = x > 0\n" + LOOP + "    x = x + 1.0\n    part = x[m]\n", "    x += 1.0\n"),
    "float32 with a Python float": (
        "import numpy as np\nx = np.zeros(10, dtype=np.float32)\n" + LOOP + "    x = x * 0.5\n", "    x *= 0.5\n"),
    "returned after the loop": (
        "import numpy as np\ndef run(n):\n    x = np.zeros(n)\n    for _ in range(100):\n        x = x + 1.0\n    return x\n",
        "        x += 1.0\n"),
    "2-D sum along axis 0": ("import numpy as np\na = np.ones((3, 4))\ns = sum(a)\n", "s = np.sum(a, axis=0)\n"),
    "dead earlier binding": (
        "import numpy as np\nn = 10\nt = None\nfor i in range(100):\n    t = np.empty(n)\n    t[:] = i\n",
        "t = np.empty(n)\nfor i in range(100):\n"),
    "reused part is copied": (
        "import numpy as np\nrow = np.zeros(3)\nacc = np.zeros((0, 3))\nfor i in range(10):\n    row[:] = i\n"
        "    acc = np.vstack([acc, row])\nprint(acc)\n", "acc_parts.append(row.copy())"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_unproven_rewrites_are_refused(case: str) -> None:
    source, code, reason = REFUSED[case]
    result = fix_text(source, "<case>", CODES)
    reasons = [r.reason for r in result.left if r.finding.code == code]
    assert not any(a.code == code for a in result.applied), result.fixed
    assert any(reason in r for r in reasons), reasons


@pytest.mark.parametrize("case", sorted(FIXED))
def test_proven_rewrites_are_made(case: str) -> None:
    source, expected = FIXED[case]
    result = fix_text(source, "<case>", CODES)
    assert expected in result.fixed, (result.fixed, [r.reason for r in result.left])
