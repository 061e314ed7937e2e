"""snapsolve's photo pipeline: photo -> board -> solved, annotated photo.

Stages (each a function on numpy arrays): load -> grid -> cells -> recognize -> solve ->
render. The pipeline's matrix products are small (81 glyphs at most), so BLAS threads only
contend with each other and with the worker processes that run photos in parallel: one
thread each, unless the environment says otherwise.
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
