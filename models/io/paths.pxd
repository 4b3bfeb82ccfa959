# Types for compiling paths.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): paths.py is the one source.

cdef class ChannelPath:
    cdef public object name, protocol, generation
    cdef public double free_at, busy, iu_s, byte_s
    cdef public double bg_item, bg_period, bg_next, bg_busy
    cdef public long long starts, reconnects, comp

    cpdef tuple book(self, double t, double ius, double nbytes)
    cpdef give_back(self, double work)
    cpdef set_background(self, double fraction)
    cpdef background(self, double t)


cdef class PathGroup:
    cdef public object engine
    cdef public list paths
    cdef public Py_ssize_t n
    cdef public Py_ssize_t _next

    cpdef ChannelPath pick(self, double t)
