# Types for compiling cache.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): cache.py is the one source. The
# directory's entries stay Python lists in an OrderedDict (its LRU order).

cimport cython


cdef class CacheDirectory:
    cdef public long long capacity, used, evicted
    cdef public object tracks, on_evict
    cdef object __weakref__

    cpdef valid(self, track, double now)
    cpdef tuple pending(self, track)
    cpdef add(self, track, mask, double ready)
    @cython.locals(r=object)
    cpdef add_tracks(self, first, long long count, mask, double ready)
    cpdef _evict(self, keep)
    cpdef warm(self, track, mask)
