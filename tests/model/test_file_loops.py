"""Loops over input files (model/file_loops.py): one pass per file read."""

from __future__ import annotations

import ast
import textwrap

import pytest

from cpn_lint.model import FileModel
from cpn_lint.model.file_loops import walks_input_files


def _first_loop(source: str) -> bool:
    text = textwrap.dedent(source)
    model = FileModel(ast.parse(text), text)
    return walks_input_files(model, model.loops[0])


@pytest.mark.parametrize("source", [
    "import glob\nfor p in sorted(glob.glob('*.npy')):\n    pass\n",
    "import os\nnames = os.listdir('.')\nfor name in names:\n    pass\n",
    "from pathlib import Path\nfor p in Path('d').glob('*.png'):\n    pass\n",
    "import sys\nfor f in sys.argv[1:]:\n    pass\n",
    "import sys\nfor n in range(1, len(sys.argv)):\n    f = sys.argv[n]\n",
    "import numpy as np\nfor i in range(10):\n    name = f'run{i}.npy'\n    a = np.load(name)\n",
    "from imageio import imread\nfor k, path in enumerate(paths):\n    img = imread(path)\n",
    "for i in range(3):\n    with open(f'out{i}.txt') as fh:\n        pass\n",
])
def test_loops_over_input_files(source: str) -> None:
    assert _first_loop(source)


@pytest.mark.parametrize("source", [
    "import numpy as np\nfor step in range(100):\n    u = np.load('u.npy')\n",  # the same file every pass
    "import numpy as np\nu = np.ones(4)\nfor step in range(100):\n    u = u * 2\n",
    "import sys\nfor arg in ['a', 'b']:\n    print(sys.argv)\n",
])
def test_other_loops(source: str) -> None:
    assert not _first_loop(source)
