# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The tree models' leaves in C (optional; built by ``pip install``): the same walk as
:meth:`newsstemmer.trees.TreeModel._leaf_values` (numpy, the reference and the fallback).

Numpy's cost per call, not per node, is what a page's models spend (14-30 rows, 240 trees,
six levels: ~12 numpy calls a model, ~1 ms a page); here each row walks each tree down in a
plain loop over the nodes packed as structs.  Only comparisons are made, no arithmetic, so
the leaves are the numpy walk's exactly; summing them stays numpy's (``trees.py``), so the
sums are the same bits too.
"""

from libc.math cimport isnan
from libc.stdlib cimport free, malloc

import numpy as np

#: The layout of :class:`Forest`'s nodes and arguments; ``newsstemmer.trees.COMPILED_LAYOUT``
#: must be the same for this build to be used (change both when either changes).
LAYOUT = 1

ctypedef struct Node:  # (24 bytes: a model's ~7,000 nodes stay in the processor's cache)
    double threshold   # go left when the feature is <= this
    int feature
    int left           # a leaf's children are itself
    int right
    int missing_left   # where a NaN feature goes (1: left)


cdef class Forest:
    """A tree model's nodes packed for :meth:`leaves`; built from the flat arrays of a
    :class:`~newsstemmer.trees.TreeModel` (which checks them first: every index in range)."""

    cdef Node* nodes
    cdef Py_ssize_t* roots
    cdef double* values
    cdef Py_ssize_t n_nodes, n_trees, depth, width

    def __cinit__(self, roots, feature, threshold, left, right, missing_left, value, Py_ssize_t depth):
        cdef Py_ssize_t i, n = len(feature), t = len(roots), f, a, b
        cdef Py_ssize_t width = 0
        if not (len(threshold) == len(left) == len(right) == len(missing_left) == len(value) == n):
            raise ValueError("the node arrays differ in length")
        if depth < 0:
            raise ValueError(f"depth {depth} < 0")
        self.nodes = NULL
        self.roots = NULL
        self.values = NULL
        self.nodes = <Node*> malloc(max(n, 1) * sizeof(Node))
        self.roots = <Py_ssize_t*> malloc(max(t, 1) * sizeof(Py_ssize_t))
        self.values = <double*> malloc(max(n, 1) * sizeof(double))
        if self.nodes == NULL or self.roots == NULL or self.values == NULL:
            raise MemoryError()
        if n > 2**31 - 1:
            raise ValueError(f"{n} nodes: too many for the compiled walk")
        for i in range(n):
            f, a, b = int(feature[i]), int(left[i]), int(right[i])
            if not (0 <= a < n and 0 <= b < n and 0 <= f < 2**31 - 1):
                raise ValueError(f"node {i}: a child or feature index out of range")
            self.nodes[i].threshold = float(threshold[i])
            self.nodes[i].feature = <int> f
            self.nodes[i].left = <int> a
            self.nodes[i].right = <int> b
            self.nodes[i].missing_left = 1 if missing_left[i] else 0
            self.values[i] = float(value[i])
            width = max(width, f + 1)
        for i in range(t):
            self.roots[i] = int(roots[i])
            if not 0 <= self.roots[i] < n:
                raise ValueError(f"root {i}: node index out of range")
        self.n_nodes, self.n_trees, self.depth, self.width = n, t, depth, width

    def __dealloc__(self):
        free(self.nodes)
        free(self.roots)
        free(self.values)

    def __reduce__(self):
        raise TypeError("a Forest is not pickled: TreeModel rebuilds it")

    def leaves(self, const double[:, ::1] X):
        """The value of the leaf each tree gives every row of ``X`` (float64, C order), shape
        (rows, trees): at most ``depth`` steps from each root, a NaN feature going where the
        split sends missing values."""
        cdef Py_ssize_t rows = X.shape[0]
        if X.shape[1] < self.width:
            raise ValueError(f"feature rows of shape {tuple(X.shape)[:2]}; the model reads {self.width} columns")
        out = np.empty((rows, self.n_trees), dtype=np.float64)
        if rows == 0:
            return out
        cdef double[:, ::1] o = out
        cdef Py_ssize_t cols = X.shape[1]
        cdef Py_ssize_t r, t, step, node
        cdef const double* x = &X[0, 0]
        cdef double v
        cdef bint went_left
        cdef Node* nd
        cdef Py_ssize_t* at = <Py_ssize_t*> malloc(rows * sizeof(Py_ssize_t))
        if at == NULL:
            raise MemoryError()
        with nogil:
            # Tree by tree, all rows one level a step: the rows' walks are independent, so
            # the processor overlaps them (a walk alone is a chain of dependent loads); the
            # choice of child is a select, not a branch (a leaf's children being itself,
            # ``depth`` steps end on a leaf whatever the tree's shape, as numpy's walk does).
            for t in range(self.n_trees):
                for r in range(rows):
                    at[r] = self.roots[t]
                for step in range(self.depth):
                    for r in range(rows):
                        nd = &self.nodes[at[r]]
                        v = x[r * cols + nd.feature]
                        went_left = (v <= nd.threshold) | (isnan(v) & nd.missing_left)
                        at[r] = nd.left if went_left else nd.right
                for r in range(rows):
                    o[r, t] = self.values[at[r]]
        free(at)
        return out
