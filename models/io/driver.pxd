# Types for compiling driver.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): driver.py is the one source. A workload's
# per-I/O state is C fields of one extension type (IOWorkload, in
# models/workloads/io.py, subclasses it in Python and adds the layout).

from models.engine.core cimport Engine
from models.io.request cimport IOOwner, IOResult, range_to_groups
from models.io.volume cimport VolumeIO

from libc.math cimport log as _log, pow as _pow


cdef int _NORMAL
cdef long _RPT
cdef unsigned long long _ALL_ONES
cdef int _KEY_BITS


cpdef Py_ssize_t block_groups(long long hi, long long lo, long long scatter, long long n_blocks,
                              long long per_ds, long long n_pages, const long long[:] first_of,
                              const long long[:] start, const long long[:] count,
                              const long long[:] base, const long long[:] rpt,
                              const long long[:] kb, const int[:] dir_of, int[:] which,
                              long long[:] keys, unsigned long long[:] masks) except -1


cdef class VolumeCounts:
    cdef public long long ios, reads, hits, misses, clean_reads, seq_reads, seq_clean_reads
    cdef public double service, service2, busy, resp, channel_work


cdef class Driver(IOOwner):
    cdef public Engine engine
    cdef public object system, name, v, rng, datasets, vols, base, _random
    cdef public list _ds_first, _ds_vols, _ds_base
    cdef public long long n_pages, n_blocks, per_ds, scatter, cursor, _left, _left_reads
    cdef long long _first
    cdef public double theta, _a, _span, end, _seq_pct, _rate, _t_last, _read_pct, resp
    cdef public bint _seq, _counted
    cdef public dict counts, _work
    cdef public list _vv, _vc, _vw
    cdef public long long reads, writes, hits, misses, completed
    cdef dict __dict__

    # cdef, not cpdef: IOWorkload is a Python subclass with a __dict__, and
    # a cpdef call on it looks the name up for an override every time (the
    # look-up's one-entry cache misses as ten workloads take turns).
    # Compiled, these are not callable from Python.
    cdef long long zipf_rank(self) except? -1
    cdef long long block_of_rank(self, long long rank) except? -1
    cdef VolumeIO place(self, long long block)
    cdef long long next_block(self) except? -1
    cdef double _next_counted(self) except? -1
    cpdef fire(self, arg)
    cdef _arrive(self)
    cdef _arrive_counted(self)
    cdef _issue(self, bint write, bint draw_write)
    cdef io_done(self, vol, IOResult res, bint write, long long tag)
    cdef list _works_of(self, VolumeIO vol)
    cdef double _channel_work(self, list works, VolumeIO vol, Py_ssize_t offset) except? -1
