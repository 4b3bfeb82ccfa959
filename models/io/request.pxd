# Types for compiling request.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): request.py is the one source.

from models.engine.core cimport Step


cdef class IOResult(Step):
    cdef public long long id
    cdef public double iosq, pend, disc, conn
    cdef public long long pages, hits, misses, ios, stages, disk_bytes


cdef class IOOwner(Step):
    cdef io_done(self, vol, IOResult res, bint write, long long tag)


cdef unsigned long long _ONE, _ALL

cdef int _masks_hold(long long per_track) except -1

cpdef list pages_to_groups(pages, long per_track=*)
cpdef list range_to_groups(long long first, long long count, long per_track=*)
