# Types for compiling backend.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): backend.py is the one source. A
# Backend's layout and drive figures are C fields; the drives' shared
# timelines stay Python lists (models.io.backend.DrivePool).

cimport cython


cdef long long _EXTENT


cdef class Backend:
    cdef public object disk, pool, lanes
    cdef public bint native
    cdef public long records_per_track, data_per_row, active, ranks, n_drives
    cdef public list rank_objs, rank_base, slot_base, adapters
    cdef public list free_at, end_off, busy, accesses, phase, cyl, rngs
    cdef public double rot, rate, access, settle, seek_span, rec_frac, cyl_per_byte
    cdef public double bytes_per_rev
    cdef public long long rec_bytes, ncyl, _volume_cyls, track_bytes, strip_tracks
    cdef public long long strip_bytes, extent_rows
    cdef public long long last_drive, _last_rank, _loc_off
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
    @cython.locals(i=cython.Py_ssize_t, start=cython.double, ready=cython.double,
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
                   start=cython.double, free=cython.double, d=cython.longlong)
    cpdef tuple destage(self, double t, long long track, long long first, long long count)
    cpdef _book(self, long long d, double start, double done)
