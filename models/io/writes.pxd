# Types for compiling writes.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): writes.py is the one source.

from models.io.cache cimport CacheDirectory
from models.io.request cimport IOResult
from models.io.staging cimport Staging


cdef class NVS:
    cdef public long long capacity, used
    cdef public list _frees

    cpdef double room_at(self, double t, long long nbytes) except? -1.0
    cpdef hold(self, long long nbytes, double until)
