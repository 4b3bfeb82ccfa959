# Types for compiling writes.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): writes.py is the one source.

from libc.stdlib cimport free, realloc

from models.io.cache cimport CacheStats
from models.io.backend cimport Backend
from models.io.channel cimport bits, lowest, top
from models.io.staging cimport Staging


cdef long long _EXTENT


cdef class NVS:
    cdef public long long capacity, used, deferred
    cdef public list _frees             # interpreted only
    # Compiled: the holds' heap, done times and bytes side by side.
    cdef double* _fu
    cdef long long* _fb
    cdef Py_ssize_t _fn, _fcap

    cpdef double room_at(self, double t, long long nbytes) except? -1.0
    cpdef hold(self, long long nbytes, double until)
    cdef int _push(self, double until, long long nbytes) except -1
    cdef long long _pop(self) noexcept


cpdef book_write(Staging vol, NVS nvs, double t, long long track, unsigned long long mask,
                 bint seq)
cdef bint _sequential(Staging vol, groups) except -1
cdef bint _sequential_one(Staging vol, long long track, unsigned long long mask) except -1
cdef bint _to_stride(Staging vol, NVS nvs, double t, long long track, unsigned long long mask,
                     bint seq) except -1
cdef tuple _row_of(Backend be, long long track)
