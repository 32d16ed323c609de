"""CPN003: matrix products — ``@``, matmul, dot, einsum, tensordot (SCALES)."""

from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..model import FileModel
from ..registry import Category, Default, Invalid, Rule, Valid
from ._scales import operand_findings


class MatrixProduct(Rule):
    """
    ## What it does
    Reports matrix and tensor products of NumPy arrays: the `@` operator
    (and `@=`), `np.matmul`, `np.dot` and `a.dot(b)`, `np.vdot`, `np.inner`,
    `np.outer`, `np.einsum`, `np.tensordot`, `np.linalg.multi_dot` and
    `np.linalg.matrix_power`. One finding per statement, at the first product.

    ## Why it does not scale on cuPyNumeric
    It does scale; this is a "what works" finding for the assessment. The
    runtime tiles the operands across GPUs, each GPU multiplies its tiles with
    cuBLAS, and partial products are summed across GPUs. A product does far
    more arithmetic than it moves data, so it keeps scaling while each GPU's
    tiles stay reasonably large (a few hundred rows and columns or more).
    `einsum` may take a slower path than the equivalent `matmul`; float32
    products can use Tensor Cores when `CUPYNUMERIC_FAST_MATH=1` is set.

    ## Example
    ```python
    import numpy as np

    hidden = np.tanh(weights @ x + bias)
    gram = np.einsum("ij,kj->ik", features, features)
    ```

    ## Use instead
    Nothing to change: keep the product as it is after the import swap.

    ## Known false alarms
    * Products of small matrices are reported like large ones; the verdict's
      Gate 2 weighs sizes.
    * Products of lists, of host-alias arrays or of single elements,
      products with a SciPy operand (`A @ sparse_matrix`), and products inside
      element loops that index with the loop variable, are not reported.
    * `np.dot(f, f)` of two vectors is a dot product, not a matrix product;
      it is reported here all the same (it is a distributed reduction).
    """

    code = "CPN003"
    slug = "matrix-product"
    category = Category.SCALES
    default = Default.ASSESSMENT
    summary = "Matrix or tensor product (@, matmul, dot, einsum, tensordot)"
    message = (
        "{expr} is a matrix product of {arrays}: each GPU multiplies its tiles with cuBLAS and the partial "
        "products are summed across GPUs, so it scales after the import swap"
    )
    short = "{expr}: matrix product, scales as is"

    valid = (
        Valid("""
            import numpy as np
            A = [[1, 2], [3, 4]]
            B = A
            C = np.dot(2.0, 3.0)
            """),
        Valid("""
            import cupynumeric as np
            import numpy as onp
            A = onp.ones((4, 4))
            C = A @ A
            """),
        Valid("""
            import numpy as np
            W = np.ones((8, 4, 4))
            x = np.ones((8, 4))
            y = np.zeros((8, 4))
            for i in range(8):
                y[i] = W[i] @ x[i]
            """),
    )
    invalid = (
        Invalid("""
            import numpy as np
            A = np.ones((4, 4))
            B = np.ones((4, 4))
            C = A @ B
            """, line=4, contains="'A' and 'B'"),
        Invalid("""
            import numpy as np
            W = np.ones((4, 3))
            x = np.ones(3)
            b = np.zeros(4)
            y = np.matmul(W, x) + b
            """, line=5),
        Invalid("""
            import numpy as np
            F = np.ones((5, 3))
            G = np.einsum('ij,kj->ik', F, F)
            """, line=3, contains="'F'"),
        Invalid("""
            import numpy as np
            A = np.ones((4, 4))
            v = np.ones(4)
            w = A.dot(v)
            """, line=4),
    )

    def check(self, model: FileModel) -> Iterator[Finding]:
        yield from operand_findings(self, model, "expr")
