# Types for compiling volume.py with Cython in pure-Python mode (augmenting
# .pxd, as models/engine/core.pxd): volume.py is the one source. The
# volume's state is declared on Staging (models/io/staging.pxd).

from cpython.ref cimport Py_REFCNT

from models.engine.core cimport Engine, Resource
from models.io.cache cimport CacheDirectory, CacheStats
from models.io.channel cimport (addresses, bits, lowest, program_ius, program_ius_into,
                                program_ius_one, runs, top)
from models.io.request cimport IOOwner, IOResult
from models.io.paths cimport ChannelPath, PathGroup
from models.io.staging cimport Staging, _run_ready
from models.io.writes cimport NVS, _sequential, _sequential_one, book_write



cdef class IORequest

cdef long _RECORD, _PARTIAL, _FULL
cdef list _SPARE


cdef class VolumeIO(Staging):
    cpdef _add_totals(self, IOResult res)
    cpdef tuple _connect(self, double t, IOResult res, double ius, double nbytes,
                         bint reconnect=*)
    cpdef double _start(self, double t, IOResult res, t_request=*)
    cpdef double _await(self, double t, long long track, long n, unsigned long long need,
                        IOResult res, double hold=*, unsigned long long restaged=*,
                        unsigned long long records=*) except? -1.0
    cpdef double _ready(self, double t, long long track, unsigned long long need,
                        IOResult res) except? -1.0
    cpdef double _stage(self, double t, long long track, unsigned long long mask, long mode,
                        IOResult res) except? -1.0
    cpdef start(self, groups, bint write, bint list_prefetch, owner=*, long long tag=*)
    cpdef start_track(self, long long track, unsigned long long mask, bint write, owner=*,
                      long long tag=*)
    cdef _launch(self, IORequest request)
    cdef IORequest _request_one(self, long long track, unsigned long long mask, bint write,
                                owner, long long tag)
    cdef IORequest _request(self, groups, bint write, bint list_prefetch, owner, long long tag)


cdef int _R_PROGRAM, _R_SETTLE, _R_PEEK, _R_END, _R_DONE, _R_OVER
cdef int _P_START, _P_LPO, _P_GROUP, _P_AWAIT, _P_RECONNECT, _P_SEQ, _P_PRESTAGE, _P_XFER, _P_WRITE
cdef int _P_WGROUP, _P_WNVS, _P_WBOOK
cdef long _NORMAL


cdef class IORequest(IOResult):
    # The request (see IORequest's docstring) ...
    cdef VolumeIO vol
    cdef object groups, owner
    cdef NVS nvs
    cdef list parts, batch
    cdef Py_ssize_t part, i
    cdef bint lp, write, pdone, settled, wseq, one
    cdef long long one_track
    cdef unsigned long long one_mask
    cdef long long tag, track, prev_track, prev_last, hits_, pages_, records
    cdef int state, pstate
    cdef double t_q, t_sync, t_end
    # ... and its channel program's locals between sync points.
    cdef ChannelPath path
    cdef double t, work_end, since, conn_, ius, nbytes, xfer, alpha, ready, left
    cdef long n, last_bit, depth, top
    cdef unsigned long long mask, need

    cdef _setup(self, VolumeIO vol, long long rid, groups, bint write, bint list_prefetch,
                owner, long long tag, double t_q)
    cpdef double begin(self) except? -2.0
    cpdef double step(self) except? -2.0
    cdef wait(self, double d)
    cpdef fire(self, arg)
    cdef _clear(self)
    cdef _program_begin(self, double t, bint write, bint split)
    cdef double _advance(self) except? -2.0
    cdef double _part_end(self, double t) except? -2.0
    cdef _size_program(self, groups, bint list_prefetch)
    cdef _as_list(self)
    cdef _disconnect(self, double t, double left, double ready)
    cdef double _reconnect(self) except? -2.0
    cdef double _write_advance(self) except? -2.0


cdef IORequest _new_request()
