# Types for compiling backend.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): backend.py is the one source. A
# Backend's layout and drive figures are C fields; the drives' shared state
# (models.io.backend.DrivePool) is C arrays, shown to Python as DriveValues.

cimport cython


from libc.math cimport sqrt as _sqrt
from libc.stdlib cimport free, realloc


cdef long long _EXTENT, _TPC


cdef inline double* _doubles(double* p, Py_ssize_t n) except NULL:
    """``p`` grown to ``n`` doubles (realloc; MemoryError leaves it as it was)."""
    cdef void* q = realloc(p, n * sizeof(double))
    if q == NULL:
        raise MemoryError()
    return <double*>q


cdef inline long long* _longs(long long* p, Py_ssize_t n) except NULL:
    """``p`` grown to ``n`` long longs (as ``_doubles``)."""
    cdef void* q = realloc(p, n * sizeof(long long))
    if q == NULL:
        raise MemoryError()
    return <long long*>q


cdef class DrivePool:
    # Per drive, per SSD lane and per adapter: C arrays (see DrivePool).
    cdef public list rng
    cdef double* _free_at
    cdef double* _busy
    cdef double* _phase
    cdef double* _lanes
    cdef double* _da_free
    cdef double* _da_busy
    cdef double* _da_ssd
    cdef long long* _end_off
    cdef long long* _cyl
    cdef long long* _accesses
    cdef long long* _lane0
    cdef long long* _nlanes
    cdef long long* _da_ops
    cdef Py_ssize_t _n, _cap, _nl, _lcap, _na, _acap

    @cython.locals(cap=Py_ssize_t)
    cpdef _reserve(self, Py_ssize_t drives, Py_ssize_t lanes)
    @cython.locals(i=Py_ssize_t, last=Py_ssize_t, best=double)
    cpdef double lane_min(self, Py_ssize_t d) except? -1.0
    cdef int _check(self, Py_ssize_t d) except -1
    cpdef _value(self, int which, Py_ssize_t d)
    cpdef _set_value(self, int which, Py_ssize_t d, value)


cdef class Backend:
    cdef public object disk
    cdef public DrivePool pool
    cdef public bint native, ssd
    cdef public long records_per_track, data_per_row, active, ranks, n_drives
    cdef public list rank_objs, rank_base, slot_base, adapters
    cdef public list rngs
    cdef public double rot, rate, access, settle, seek_span, rec_frac, cyl_per_byte
    cdef public double bytes_per_rev
    cdef public long long rec_bytes, ncyl, _volume_cyls, track_bytes, strip_tracks
    cdef public long long strip_bytes, extent_rows
    cdef public long long last_drive, _last_rank, _loc_off
    cdef public long long read_ahead
    cdef public double da_op_s, da_bytes_s, ssd_rank_bytes_s
    cdef object __weakref__

    @cython.locals(drive=cython.longlong)
    cpdef tuple locate(self, long long track)
    @cython.locals(extent=cython.longlong, t_in=cython.longlong, rank=cython.longlong,
                   slot=cython.longlong, strip=cython.longlong, t_in_strip=cython.longlong,
                   row=cython.longlong, col=cython.longlong, parity=cython.longlong,
                   drive=cython.longlong, row_abs=cython.longlong)
    cdef long long _locate(self, long long track) except? -1
    @cython.locals(drive=cython.longlong, base=cython.longlong, nbytes=cython.longlong,
                   done=cython.double)
    cpdef tuple stage(self, double t, long long track, long long first, long long count)
    @cython.locals(left=cython.longlong)
    cpdef long long run_tracks(self, long long track, long long limit)
    @cython.locals(drive=cython.longlong, base=cython.longlong, nbytes=cython.longlong,
                   done=cython.double)
    cpdef tuple stage_tracks(self, double t, long long track, long long ntracks)
    @cython.locals(start=cython.double, end=cython.double)
    cpdef double _adapter(self, double t, double done, long long nbytes)
    @cython.locals(free=cython.double, ahead=cython.longlong, done=cython.double,
                   start=cython.double, cyl=cython.longlong, dc=cython.longlong,
                   seek=cython.double, t1=cython.double, rot=cython.double,
                   angle=cython.double, target=cython.double, end_off=cython.longlong)
    cpdef double _hdd(self, double t, long long d, long long offset, long long nbytes)
    @cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t, last=cython.Py_ssize_t,
                   start=cython.double, ready=cython.double,
                   port=cython.double, done=cython.double)
    cpdef double _ssd(self, double t, long long d, long long nbytes)
    @cython.locals(start=cython.double, cyl=cython.longlong, dc=cython.longlong,
                   seek=cython.double, t1=cython.double, rot=cython.double,
                   angle=cython.double, target=cython.double, done=cython.double)
    cpdef double _native(self, double t, long long track, long long first, long long count)
    @cython.locals(extent=cython.longlong, t_in=cython.longlong, row=cython.longlong)
    cpdef long long parity_drive(self, long long track)
    @cython.locals(drive=cython.longlong, base=cython.longlong, off=cython.longlong,
                   nbytes=cython.longlong, done=cython.double, end=cython.double,
                   start=cython.double, free=cython.double, d=cython.longlong,
                   parity=cython.longlong, k=cython.int)
    cpdef tuple destage(self, double t, long long track, long long first, long long count)
    cpdef _book(self, long long d, double start, double done)
    cpdef double drive_free(self, long long d) except? -1.0
    cpdef no_lookahead(self, long long d)
