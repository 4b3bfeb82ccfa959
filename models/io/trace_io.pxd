# Types for compiling trace_io.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): trace_io.py is the one source. A row is
# appended to the trace's ``array.array`` columns in place (resize_smart
# grows them as ``append`` does), without a Python call.

from cpython cimport array
from cpython.object cimport Py_SIZE


cdef inline int _append_d(array.array a, double v) except -1:
    cdef Py_ssize_t n = Py_SIZE(a)
    array.resize_smart(a, n + 1)
    a.data.as_doubles[n] = v
    return 0


cdef inline int _append_i(array.array a, int v) except -1:
    cdef Py_ssize_t n = Py_SIZE(a)
    array.resize_smart(a, n + 1)
    a.data.as_ints[n] = v
    return 0


cdef inline int _append_q(array.array a, long long v) except -1:
    cdef Py_ssize_t n = Py_SIZE(a)
    array.resize_smart(a, n + 1)
    a.data.as_longlongs[n] = v
    return 0


cdef class IOTrace:
    cdef public object t, engine, backend, drives, k, _cyl
    cdef public bint on
    cdef public int vol, cu, k_start, k_end, k_phase, k_seek, k_read, k_hit, k_miss, k_wait
    cdef public int k_stage, k_evict, k_busy
    cdef array.array _tt, _tc, _tk, _ta, _tb
    cdef long long _limit

    cdef int _rec(self, double t, int comp, int kind, long long a, long long b) except -1
    cpdef io_start(self, double t, long long rid, long long pages)
    cpdef io_end(self, double t, long long rid)
    cpdef phase(self, double t, long long rid, int phase)
    cpdef wait(self, double t, long long rid, long long track, unsigned long long need,
               double ready, unsigned long long records=*)
    cpdef hits(self, double t, long long track, unsigned long long mask)
    cpdef stage(self, double t, double done, long long track, long first, long count, long mode)
    cpdef evict(self, long long track, long long slots)
    cpdef connected(self, path, double since, double t, long long rid)
