# Types for compiling request.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): request.py is the one source.

cdef class IOResult:
    cdef public long long id
    cdef public double iosq, pend, disc, conn
    cdef public long long pages, hits, misses, ios, stages, disk_bytes


cdef class IOOwner:
    cdef io_done(self, vol, IOResult res, bint write, long long tag)
