# Types for compiling cache.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): cache.py is the one source. Compiled,
# the directory is a C array of track entries that is itself an
# open-addressing hash table (linear probing), in LRU order by a log of
# touches.


cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #ifndef _GNU_SOURCE
    #define _GNU_SOURCE
    #endif
    #include <sys/mman.h>
    #endif
    /* The directory's arrays. From 2 MB up, on Linux, they are mappings of
       their own, asked for transparent huge pages: a look-up of a random
       track among millions then needs no page walk, which was most of its
       wait for memory. A mapping grows with mremap (no copy, no second
       array at once). Below 2 MB, or elsewhere, malloc's. The kind follows
       from the size, so zpl_grow and zpl_free are always given the size
       the block was made with; the arrays only ever grow (a mapped block
       never comes back below 2 MB to realloc). NULL when out of memory (old
       is untouched). */
    #define ZPL_HUGE ((size_t)1 << 21)
    #if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MREMAP_MAYMOVE)
    #define ZPL_MAPPED(bytes) ((bytes) >= ZPL_HUGE)
    #else
    #define ZPL_MAPPED(bytes) 0
    #endif
    static CYTHON_UNUSED size_t zpl_round(size_t bytes) {
        return (bytes + ZPL_HUGE - 1) & ~(ZPL_HUGE - 1);
    }
    static CYTHON_UNUSED void* zpl_grow(void* old, size_t old_bytes, size_t new_bytes) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MREMAP_MAYMOVE)
        if (ZPL_MAPPED(new_bytes)) {
            void* p;
            if (old && ZPL_MAPPED(old_bytes)) {
                p = mremap(old, zpl_round(old_bytes), zpl_round(new_bytes), MREMAP_MAYMOVE);
            } else {
                p = mmap(NULL, zpl_round(new_bytes), PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p != MAP_FAILED && old) { memcpy(p, old, old_bytes); free(old); }
            }
            if (p == MAP_FAILED) return NULL;
            madvise(p, zpl_round(new_bytes), MADV_HUGEPAGE);
            return p;
        }
    #endif
        return realloc(old, new_bytes);
    }
    static CYTHON_UNUSED void zpl_free(void* p, size_t bytes) {
        if (!p) return;
    #if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MREMAP_MAYMOVE)
        if (ZPL_MAPPED(bytes)) { munmap(p, zpl_round(bytes)); return; }
    #endif
        free(p);
    }
    """
    void* _grow "zpl_grow" (void* old, size_t old_bytes, size_t new_bytes) nogil
    void _release "zpl_free" (void* p, size_t bytes) nogil


from libc.string cimport memmove


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    void __builtin_prefetch(const void*) nogil


cdef inline long _popcount(unsigned long long x) noexcept nogil:
    return __builtin_popcountll(x)


cdef inline Py_ssize_t _home(long long key, int bits) noexcept nogil:
    """The key's first slot: Fibonacci hashing (the top bits of key * 2^64/phi)."""
    return <Py_ssize_t>((<unsigned long long>key * 0x9E3779B97F4A7C15ULL) >> (64 - bits))


cdef struct _Track:
    long long key
    unsigned long long valid, pend
    double ready
    long long stamp              # the place of its newest record in the LRU log


cdef class CacheStats:
    cdef public long long read_requests, hits, misses, seq_tracks_staged, disk_requests
    cdef public long long disk_bytes, host_bytes, evicted_slots, write_requests, fast_writes
    cdef public long long nvs_waits, destages, destage_ops, destage_bytes, coalesced_writes
    cdef public list stages

    cpdef add(self, CacheStats other)


cdef class CacheDirectory:
    cdef public long long capacity, used, evicted
    cdef public object on_evict, tracks     # tracks: interpreted only (None compiled)
    cdef object __weakref__
    cdef _Track* _t                   # the entries are the hash table (key -1: empty)
    cdef long long* _log              # the LRU log: keys _lh ... _ln - 1, oldest first
    cdef Py_ssize_t _count, _hcap, _lh, _ln, _lcap
    cdef long long _lbase             # the place of _log[0] (places only grow)
    cdef int _hbits

    cdef Py_ssize_t _find(self, long long key) noexcept
    cdef int _grow_hash(self) except -1
    cdef Py_ssize_t _new(self, long long key, unsigned long long valid,
                         unsigned long long pend, double ready) except -2
    cdef int _to_end(self, Py_ssize_t e) except -1
    cdef int _touch(self, Py_ssize_t e) except -1
    cdef int _log_room(self) except -1
    cdef Py_ssize_t _oldest(self) noexcept
    cdef void _remove(self, Py_ssize_t e) noexcept
    cdef void prefetch(self, long long track) noexcept
    cpdef unsigned long long valid(self, long long track, double now)
    cpdef tuple pending(self, long long track)
    cpdef unsigned long long pending_mask(self, long long track)
    cpdef unsigned long long held(self, long long track)
    cpdef bint contains(self, long long track)
    cpdef add(self, long long track, unsigned long long mask, double ready)
    cpdef add_tracks(self, long long first, long long count, unsigned long long mask,
                     double ready)
    cpdef _evict(self, long long keep)
    cpdef warm(self, long long track, unsigned long long mask)
    cpdef drop(self, long long lo, long long hi)
    cpdef clear(self)


cpdef warm_all(list dirs, const int[:] which, const long long[:] keys,
               const unsigned long long[:] masks)
